"""``AuthorizationPrompt``: the OAuth link of a connect in progress and a box for the redirected URL.

The link is shown as text and as a link a person may follow; nothing opens it. A person pastes
the URL the browser was redirected to and presses Finish: ``give`` hands it to the
connect waiting in the background, which checks it (state, error) and completes; the status line
then says how it ended. On a local machine the one-shot callback completes it with no paste.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from anvia_nb.display.oauth import authorization_html, authorization_text
from anvia_nb.policy import ShowPolicy
from anvia_nb.widgets._chrome import text_bundle, text_label

__all__ = ["AuthorizationPrompt"]


class AuthorizationPrompt:
    """The link, a paste box, Finish, and a status line; ``give(url)`` is called once per Finish."""

    def __init__(
        self, server: str, server_url: str, authorization_url: str, give: Callable[[str], None], policy: ShowPolicy
    ) -> None:
        self._give = give
        self._policy = policy
        self.text = authorization_text(server, server_url, authorization_url, policy)
        self.link = widgets.HTML(authorization_html(server, server_url, authorization_url, policy))
        self.box = widgets.Text(
            placeholder="Paste the URL your browser was redirected to",
            layout=widgets.Layout(width="100%"),
        )
        self.finish = widgets.Button(description="Finish", button_style="primary")
        self.status = text_label("")
        self.finish.on_click(lambda _button: self.submit())
        self.widget = widgets.VBox([self.link, widgets.HBox([self.box, self.finish]), self.status])

    def submit(self) -> None:
        url = self.box.value.strip()
        if not url:
            self.status.value = "Paste the whole URL from the browser's address bar first."
            return
        self.box.value = ""  # the code in it is a credential: it does not stay on the page
        self.status.value = "Checking the authorization..."
        self._give(url)

    def settled(self, message: str) -> None:
        """The connect ended (connected, or why not): one line, masked; the box is disabled."""
        self.status.value = self._policy.line(message)
        self.box.disabled = self.finish.disabled = True

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return text_bundle(self.widget, self.text, **kwargs)
