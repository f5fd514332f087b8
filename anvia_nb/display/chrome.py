"""anvia_nb's own chrome around tools and requests: headers, warnings and notes, as HTML.

The widgets show these in ``ipywidgets.HTML``; they are built here because display is the layer
that assembles HTML. Every string a server chose (tool title, description, an elicitation
message, a URL) goes through the connection's :class:`~anvia_nb.policy.ShowPolicy` (secrets
masked, hidden characters made visible, length bounded by its named limits) and then into the
escape-by-default builder. The server's name and tool name sit in our own header, never inside
server-controlled text: that is the provenance a person can trust. Every block carries
:data:`~anvia_nb.policy.NOT_MATH_CLASSES`: a front end's MathJax never typesets server text.
Pure functions: values in, markup strings out.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from anvia_nb.core.protocol.types import ANNOTATION_HINTS, ToolInfo
from anvia_nb.display._html import Html, element
from anvia_nb.policy import NOT_MATH_CLASSES, Limits, ShowPolicy

__all__ = [
    "DESCRIPTION_CHARS",
    "LINE_CHARS",
    "NAME_CHARS",
    "OPTION_CHARS",
    "destructive_warning_html",
    "hints_text",
    "is_destructive",
    "notice_html",
    "policy_of",
    "request_header_html",
    "server_text_html",
    "tool_header_html",
]

NAME_CHARS = Limits().name_chars
LINE_CHARS = Limits().line_chars
DESCRIPTION_CHARS = Limits().text_chars
OPTION_CHARS = Limits().option_chars
Secrets = Sequence[str] | ShowPolicy
"""What the chrome functions take: a ready :class:`ShowPolicy`, or a connection's secrets."""
_HINT_WORDS = {
    "readOnlyHint": ("read-only", "may change things"),
    "destructiveHint": ("destructive", "not destructive"),
    "idempotentHint": ("idempotent", "not idempotent"),
    "openWorldHint": ("open world", "closed world"),
}


def policy_of(secrets: Secrets) -> ShowPolicy:
    """``secrets`` as a show policy: itself when it is one, else the default policy masking them."""
    return secrets if isinstance(secrets, ShowPolicy) else _default_policy(tuple(secrets))


@lru_cache(maxsize=64)
def _default_policy(secrets: tuple[str, ...]) -> ShowPolicy:
    """One policy per connection's secrets, so a form's hundreds of labels share one compiled mask."""
    return ShowPolicy().with_secrets(secrets)


def hints_text(info: ToolInfo) -> str:
    """The annotation hints the server declared, in words; ``""`` when it declared none.

    They are hints from the server, not guarantees, and are shown as such.
    """
    words = []
    for name in ANNOTATION_HINTS:
        value = info.hint(name)
        if value is not None:
            words.append(_HINT_WORDS[name][0 if value else 1])
    return ", ".join(words)


def is_destructive(info: ToolInfo) -> bool:
    """MCP's default for ``destructiveHint`` is true, but only an explicit hint is warned about."""
    return info.hint("destructiveHint") is True and info.hint("readOnlyHint") is not True


def _server_box(label: str, text: str, policy: ShowPolicy, limit: int) -> Html:
    return element(
        "div",
        element("div", label, style="label"),
        element("pre", policy.line(text, limit), style="pre"),
        cls=f"anvia-server-block {NOT_MATH_CLASSES}",
        style="server-box",
    )


def server_text_html(label: str, text: str, secrets: Secrets = (), limit: int | None = None) -> str:
    """A labelled, bordered block of server text, escaped: the same look as result blocks.

    ``label`` is ours (escaped, not masked); ``text`` is the server's (masked, bounded by
    ``limit`` or the policy's ``text_chars``).
    """
    policy = policy_of(secrets)
    return _server_box(label, text, policy, policy.limits.text_chars if limit is None else limit).markup


def _header(*parts: Html, tone: str = "header") -> Html:
    return element("div", element("span", "MCP", style="badge"), *parts, style=tone)


def tool_header_html(info: ToolInfo, secrets: Secrets = ()) -> str:
    """Provenance (server · tool), then title, description and hints, each escaped and bounded."""
    policy = policy_of(secrets)
    parts = [
        element("b", policy.name(info.server)),
        element("span", "·", style="muted"),
        element("code", policy.name(info.name)),
    ]
    if info.shown_title is not None:
        parts.append(element("span", policy.title(info.shown_title), style="muted"))
    hints = hints_text(info)
    if hints:
        parts.append(element("small", f"hints from the server: {hints}", style="muted"))
    blocks = [_header(*parts)]
    if info.description:
        label = f"description from server {policy.name(info.server)}"
        blocks.append(_server_box(label, info.description, policy, policy.limits.text_chars))
    return element("div", *blocks, cls=f"anvia-tool-header {NOT_MATH_CLASSES}").markup


def destructive_warning_html(info: ToolInfo, secrets: Secrets = ()) -> str:
    """The warning shown before a destructive tool is called; ``""`` for any other tool."""
    if not is_destructive(info):
        return ""
    policy = policy_of(secrets)
    name = f"{policy.name(info.server)} · {policy.name(info.name)}"
    return element(
        "div",
        element("b", "Warning: destructive tool."),
        element("span", f"{name} declares destructiveHint: true: calling it may delete or overwrite data."),
        cls=f"anvia-destructive-warning {NOT_MATH_CLASSES}",
        style="header-warn",
    ).markup


def request_header_html(server: str, mode: str, secrets: Secrets = ()) -> str:
    """Our own header of an elicitation prompt: which server asks, and in which mode."""
    what = "asks you for input" if mode == "form" else "asks you to visit a URL"
    return element(
        "div",
        element("span", "MCP", style="badge"),
        element("b", policy_of(secrets).name(server)),
        element("span", what),
        element("span", "nothing is sent until you choose", style="muted"),
        cls=f"anvia-request-header {NOT_MATH_CLASSES}",
        style="header-warn",
    ).markup


def notice_html(message: str, *, warn: bool = False) -> str:
    """A short note in anvia_nb's own voice (escaped; typeset by no MathJax); ``warn``: set apart
    as a warning (a server that is not available)."""
    style = "header-warn" if warn else "note"
    return element("div", message, cls=f"anvia-notice {NOT_MATH_CLASSES}", style=style).markup
