"""How much of a result is rendered, and whether the notebook is served to viewers.

``RenderSettings(hide_server_errors=True)`` (``%config McpMagics.hide_server_errors = True``) is
*viewer mode*: the one setting that says "this notebook is served to viewers" (Voilà, a shared
dashboard). :class:`~anvia_nb.policy.ShowPolicy` turns it into ``policy.for_viewers``, and every
surface asks that one property; what a viewer then reads about a surface that would show a
server's own words (its log, the protocol trace, its capabilities) is :func:`viewer_words`, here.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from anvia_nb.errors import InvalidValueError
from anvia_nb.policy import HIDDEN_SERVER_ERROR, Limits, ShowPolicy

__all__ = ["GENERIC_SERVER_ERROR", "VIEWER_SURFACES", "RenderSettings", "viewer_words"]

GENERIC_SERVER_ERROR = HIDDEN_SERVER_ERROR
"""The text shown instead of a server's error text (kept here for notebooks that import it)."""


@dataclass(frozen=True)
class RenderSettings:
    """The notebook's settings for rendering results; :meth:`policy` turns them into the one
    :class:`~anvia_nb.policy.ShowPolicy` that decides what is shown.

    ``hide_server_errors`` is the one switch of *viewer mode*: every surface (results, forms, the
    panel's tabs, resources, prompts, ``%mcp log`` and ``%mcp trace``) then speaks to a viewer,
    and no widget a viewer can reach writes a file.

    Attributes
    ----------
    max_output_chars : int
        Characters the server sent rendered for one result (default 20,000); the rest is elided
        visibly and stays in ``.output``/``.raw``.
    max_image_bytes : int
        Bytes of inline images, each and all of one result together (default 5 MB).
    preview_chars : int
        Characters of the preview of each embedded resource (default 2,000).
    hide_server_errors : bool
        For notebooks served to others (Voila, dashboards): server error text is replaced by
        ``GENERIC_SERVER_ERROR`` in what is rendered, while Python keeps the detail (default ``False``).

    Raises
    ------
    InvalidValueError
        A size that is not a non-negative int.
    """

    max_output_chars: int = 20_000
    max_image_bytes: int = 5 * 1024 * 1024
    preview_chars: int = 2_000
    hide_server_errors: bool = False

    def __post_init__(self) -> None:
        for name in ("max_output_chars", "max_image_bytes", "preview_chars"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidValueError(f"RenderSettings.{name} must be a non-negative int, not {value!r}")

    def policy(self, secrets: Iterable[str] = ()) -> ShowPolicy:
        """The show policy of these settings, masking ``secrets``.

        The same settings and secrets give the same policy object, so what it builds from the
        secrets (every escaped form, one regex) is built once per connection, not per result.

        Parameters
        ----------
        secrets : iterable of str, optional
            A connection's secret values (``server.secrets``).

        Returns
        -------
        ShowPolicy
        """
        shown = secrets if isinstance(secrets, tuple) else tuple(secrets)
        # keyed by the values, not by this object: equal settings made apart (the default, the
        # magic's) would call the generated __hash__ and __eq__ on every lookup
        return _policy(self.max_output_chars, self.max_image_bytes, self.preview_chars, self.hide_server_errors, shown)


@functools.lru_cache(maxsize=64)
def _policy(
    output_chars: int, image_bytes: int, preview_chars: int, hide_server_errors: bool, secrets: tuple[str, ...]
) -> ShowPolicy:
    limits = Limits(output_chars=output_chars, preview_chars=preview_chars, image_bytes=image_bytes)
    return ShowPolicy(hide_server_errors=hide_server_errors, limits=limits).with_secrets(secrets)


VIEWER_SURFACES = ("server", "log", "trace")


def viewer_words(surface: str, server: str, count: int = 0, policy: ShowPolicy | None = None) -> str:
    """What a viewer reads in place of a surface that would show a server's own words.

    ``surface``: ``"server"`` (what it is: its capabilities, instructions), ``"log"`` (``count``
    lines it wrote) or ``"trace"`` (``count`` messages exchanged). Plain words: what happened,
    none of the server's text, nothing to type, and no "error" when nothing failed. ``server`` is
    the connection's name, chosen by the notebook's author. The details stay in Python
    (``get_runtime().log(NAME)``, ``get_runtime().server(NAME).trace``) for the author.
    """
    who = f"The server “{(policy or ShowPolicy()).name(server)}”" if server else "The server"
    if surface == "server":
        return f"{who} is connected and in use on this page."
    if surface == "log":
        if not count:
            return f"{who} has written nothing to its log."
        lines = f"{count} log line{'s' if count != 1 else ''}"
        return f"{who} has written {lines}; they are kept for this notebook's author."
    if surface == "trace":
        if not count:
            return f"No messages have gone between this page and {who[0].lower()}{who[1:]} yet."
        return (
            f"{count} message{'s' if count != 1 else ''} went between this page and {who[0].lower()}{who[1:]}; "
            "they are kept for this notebook's author."
        )
    raise InvalidValueError(f"viewer_words: surface must be one of {', '.join(VIEWER_SURFACES)}, not {surface!r}.")
