"""The panel's Prompts tab: a connection's prompts, got with a form of their arguments.

Pick a prompt, fill its arguments (required ones are marked ``*``; the server suggests values as
you type) and press Get. The messages show below role by role as ``%mcp prompt`` shows them;
``last_prompt`` is the :class:`~anvia_nb.display.PromptView` (``.messages`` as sent). A required
argument left empty is refused before anything is sent.
"""

from __future__ import annotations

import concurrent.futures

import ipywidgets as widgets

from anvia_nb.core import McpServer
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.display import PromptView
from anvia_nb.display.chrome import OPTION_CHARS, server_text_html
from anvia_nb.errors import AnviaError
from anvia_nb.policy import ShowPolicy
from anvia_nb.widgets._chrome import error_output, plain, shown_output
from anvia_nb.widgets.explorer.listing import BoundedList, ListingTab, item_select
from anvia_nb.widgets.fields.completing import CompletingFields

__all__ = ["PromptsTab"]


def _label(item: JsonObject, policy: ShowPolicy) -> str:
    name, title = item.get("name"), item.get("title")
    label = plain(name, policy, OPTION_CHARS)
    return f"{label} — {plain(title, policy, OPTION_CHARS)}" if isinstance(title, str) and title != name else label


class PromptsTab(ListingTab):
    """Prompts of the chosen connection (``offered``: the prompt names offered); display ``.widget``."""

    def _build(self) -> None:
        self.prompts: list[JsonObject] = []
        self.last_prompt: PromptView | None = None
        self.prompt_list = item_select("Prompts", 6)
        self.listed = BoundedList(
            self.prompt_list,
            "prompts",
            "" if self.settings.hide_server_errors else "get any other with %mcp prompt NAME.PROMPT",
        )
        self.about = widgets.HTML(value="")
        self.get_button = widgets.Button(
            description="Get", icon="comments", disabled=True, tooltip="get the prompt's messages with these arguments"
        )
        self.prompt_list.observe(lambda _c: self._chose(), names="value")
        self.get_button.on_click(lambda _b: self.get())
        self.widget = self._layout([self.prompt_list, self.listed.note, self.about], self.get_button)

    def show(self, server: McpServer | None) -> concurrent.futures.Future[None] | None:
        """List ``server``'s prompts (nothing when ``None``) on the runtime's loop, from any thread;
        returns the listing under way (``.listing`` too)."""
        self.server = server
        self.policy = self.settings.policy(tuple(server.secrets) if server is not None else ())
        self._listed(server, [])
        if server is None:
            return None

        async def listing() -> None:
            try:
                self._listed(server, await server.prompts())
            except AnviaError as exc:
                self.output.outputs = (error_output(exc, self.policy),)

        self.listing = self.runtime.loop.submit(listing())
        return self.listing

    def _listed(self, server: McpServer | None, prompts: list[JsonObject]) -> None:
        if server is not self.server:
            return  # another connection was chosen meanwhile
        self.prompts = [p for p in prompts if self.offered is None or p.get("name") in self.offered]
        prompts = self.prompts
        self.listed.show(prompts, lambda p: _label(p, self.policy))
        self.prompt_list.value = None
        self._chose()

    def select(self, name: str) -> CompletingFields | None:
        """Choose a prompt by name, as a person would; returns its argument fields."""
        for index, item in enumerate(self.prompts):
            if item.get("name") == name:
                self.listed.choose(index, _label(item, self.policy))
        return self.fields

    def _prompt(self) -> JsonObject | None:
        index = self.prompt_list.value
        return self.prompts[index] if index is not None and index < len(self.prompts) else None

    def _chose(self) -> None:
        prompt, self.fields = self._prompt(), None
        self.about.value = ""
        if prompt is not None and self.server is not None:
            description = prompt.get("description")
            if isinstance(description, str) and description:
                self.about.value = server_text_html(
                    f"description from server {plain(self.server.name)}",
                    description,
                    self.policy,
                    self.policy.limits.preview_chars,
                )
            declared = prompt.get("arguments")
            fields = [
                (str(a.get("name")), a.get("required") is True, str(a.get("description") or ""))
                for a in (declared if isinstance(declared, list) else [])
                if isinstance(a, dict)
            ]
            self.fields = CompletingFields(
                self.runtime, self.server, ("prompt", str(prompt.get("name"))), fields, self.policy
            )
        self.form_box.children = (self.fields.widget,) if self.fields is not None else ()
        self.get_button.disabled = prompt is None

    def get(self) -> PromptView | None:
        """Get the chosen prompt with the fields' values and show its messages."""
        server, prompt = self.server, self._prompt()
        if server is None or prompt is None or (self.offered is not None and prompt.get("name") not in self.offered):
            return None
        values = self.fields.values() if self.fields is not None else {}
        try:
            result = self.runtime.run(
                server.get_prompt(str(prompt.get("name")), values, timeout_seconds=self.timeout_seconds)
            )
        except AnviaError as exc:
            self.output.outputs = (error_output(exc, self.policy),)
            return None
        self.last_prompt = PromptView(result, self.settings)
        self.output.outputs = (shown_output(self.last_prompt),)
        return self.last_prompt
