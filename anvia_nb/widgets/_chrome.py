"""What the widgets share for showing server text: plain-text helpers.

The HTML of anvia_nb's chrome (tool header, destructive warning, request header, notes) is
built by :mod:`anvia_nb.display.chrome`, the display layer being where HTML is
assembled; the widgets import it from there. What is
here is plain text for ipywidgets' own Labels, options and tooltips: every server string goes
through the connection's :class:`~anvia_nb.policy.ShowPolicy` (secrets masked, hidden characters
made visible, length bounded by its named limits), so no widget holds markup a server wrote or a secret a server echoed.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from anvia_nb.core.protocol.types import CallRecord, ToolInfo
from anvia_nb.display import display_status
from anvia_nb.display.chrome import OPTION_CHARS, is_destructive, policy_of, server_text_html
from anvia_nb.policy import NOT_MATH_CLASSES, ShowPolicy

if TYPE_CHECKING:
    from anvia_nb.core import McpServer
    from anvia_nb.runtime import Runtime

__all__ = [
    "FIELD_LABEL_WIDTH",
    "closed_note",
    "error_output",
    "follow_connections",
    "form_text",
    "history_label",
    "never_opened_note",
    "plain",
    "required_but_empty",
    "result_area",
    "show_in_cell",
    "shown_output",
    "text_bundle",
    "text_label",
]


FIELD_LABEL_WIDTH = "9em"
"""The width of a field's name column, for every field of a form (fixed by the notebook or not), so
the values line up in one column."""

_RESULT_AREA = "anvia-result-area"
_RESULT_AREA_STYLE = (
    "<style>"  # our own CSS, no server text: a result as wide as the form above it
    f".{_RESULT_AREA} .widget-output {{ margin: 0; }}"
    f".{_RESULT_AREA} .widget-output .jp-OutputArea-output.jp-RenderedHTMLCommon {{ padding-right: 0; }}"
    "</style>"
)


def result_area(children: Sequence[Any]) -> Any:  # any: ipywidgets is untyped
    """A box for a form's results (an ``Output`` among ``children``) that takes the form's whole
    width: without it JupyterLab's output margin and rendered-HTML padding make it 22 px narrower."""
    import ipywidgets as widgets

    box = widgets.VBox([widgets.HTML(_RESULT_AREA_STYLE), *children])
    box.add_class(_RESULT_AREA)
    return box


def plain(text: object, secrets: Sequence[str] | ShowPolicy = (), limit: int | None = None) -> str:
    """Server text as one safe plain string for a Label, option or tooltip (never markup).

    ``secrets`` is a :class:`ShowPolicy` or a connection's secrets; ``limit`` defaults to ``name_chars``.
    """
    policy = policy_of(secrets)
    return policy.line(text, policy.limits.name_chars if limit is None else limit)


def text_label(value: str = "", **kwargs: Any) -> Any:  # any: ipywidgets is untyped
    """An ipywidgets ``Label`` that JupyterLab's MathJax leaves alone.

    A Label is typeset (``$\\href{...}{OK}$`` would become a link reading "OK"); its element
    carries :data:`~anvia_nb.policy.NOT_MATH_CLASSES`, so it shows the characters it holds.
    """
    import ipywidgets as widgets

    label = widgets.Label(value=value, **kwargs)
    for cls in NOT_MATH_CLASSES.split():
        label.add_class(cls)
    return label


def history_label(outcome: CallRecord, secrets: Sequence[str] = ()) -> str:
    """One history row as plain text: time, server · tool, status, seconds, arguments."""
    when = outcome.started_at.astimezone().strftime("%H:%M:%S") if isinstance(outcome.started_at, datetime) else ""
    args = plain(repr(outcome.arguments or {}), secrets, OPTION_CHARS)
    name = f"{plain(outcome.server, secrets)} · {plain(outcome.tool, secrets)}"
    return f"{when}  {name}  {display_status(outcome)}  {outcome.seconds:.2f} s  {args}"


def show_in_cell(widget: object) -> None:
    """Display a widget in the output of the cell the kernel is running (IPython loaded only now)."""
    from IPython.display import display

    display(widget)  # type: ignore[no-untyped-call]  # IPython: display is untyped


def required_but_empty(value: Mapping[str, Any], required: Iterable[str], secrets: Sequence[str] = ()) -> list[str]:
    """One problem line per required field that is missing or an empty string in ``value``."""
    return [f"{plain(name, secrets)}: required, but empty" for name in required if value.get(name, "") == ""]


def closed_note(name: str, policy: ShowPolicy) -> str:
    """What a form or the panel says in place once its connection ``name`` is closed (to a viewer:
    that the server is not available)."""
    if policy.for_viewers:
        return policy.viewer_line(None, name)
    shown = policy.line(name, policy.limits.name_chars)
    return f"{shown} is closed: reconnect with %mcp connect {shown} … and this picks it up again."


def never_opened_note(name: str, policy: ShowPolicy) -> str:
    """What a form or the panel says when its connection ``name`` failed to open (to a viewer:
    that the server is not available)."""
    if policy.for_viewers:
        return policy.viewer_line(None, name)
    shown = policy.line(name, policy.limits.name_chars)
    return (
        f"{shown} is not connected: connecting it failed (%mcp log {shown} says why). "
        "This appears here as soon as it connects."
    )


def form_text(info: ToolInfo, server: str, policy: ShowPolicy, *, closed: bool = False) -> str:
    """A tool form as plain text: what it is for, its tool and server (server strings shown
    through ``policy``: masked, special characters visible, bounded)."""
    names = policy.limits.name_chars
    lines = [
        f"anvia_nb form: calls the tool {policy.line(info.name, names)} of the MCP server {policy.line(server, names)}."
    ]
    title = info.title or (info.annotations or {}).get("title")
    about = " — ".join(policy.line(t, 200) for t in (title, info.description) if isinstance(t, str) and t)
    if about:
        lines.append(f"What the server says it does: {about}")
    if is_destructive(info):
        lines.append("The server declares it destructive.")
    if closed:
        lines.append(closed_note(server, policy))
    lines.append("Fill its fields and press Call in a live notebook (it needs a running kernel and ipywidgets).")
    return "\n".join(lines)


def text_bundle(widget: Any, text: str, **kwargs: Any) -> dict[str, Any]:  # any: ipywidgets is untyped
    """The widget's mime bundle with an honest ``text/plain`` for places without live widgets
    (GitHub, nbconvert HTML, a terminal), instead of ipywidgets' ``VBox(children=...)``."""
    bundle = dict(widget._repr_mimebundle_(**kwargs))
    bundle["text/plain"] = text
    return bundle


def follow_connections(runtime: Runtime, method: Callable[[str, McpServer | None], None]) -> None:
    """Call the bound ``method(name, server)`` on each connect and close of ``runtime``, for as long
    as its object lives (the runtime keeps no form or panel alive)."""
    target = weakref.WeakMethod(method)

    def listener(name: str, server: McpServer | None) -> None:
        bound = target()
        if bound is None:
            stop()
        else:
            bound(name, server)

    stop = runtime.on_connections(listener)


def shown_output(value: Any) -> dict[str, Any]:  # any: ipywidgets is untyped
    """A displayable value (a read, a prompt) as one output of a ``widgets.Output``."""
    return {"output_type": "display_data", "data": value._repr_mimebundle_(), "metadata": {}}


def error_output(error: BaseException, policy: ShowPolicy) -> dict[str, Any]:
    """An error as one labelled box (it may quote the server: masked, bounded, escaped)."""
    line = policy.error_line(error, policy.limits.text_chars)
    return {
        "output_type": "display_data",
        "metadata": {},
        "data": {"text/plain": line, "text/html": server_text_html("error", line, policy)},
    }
