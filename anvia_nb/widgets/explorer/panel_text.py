"""What a panel is, as plain text: shown where its widgets are not (GitHub, nbconvert, a terminal),
and the sentence it says when no connection is open. Names a server chose are masked and cut by the
policy, as everywhere."""

from __future__ import annotations

from anvia_nb.errors import AnviaError
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime
from anvia_nb.widgets.explorer.scope import PanelScope
from anvia_nb.widgets.forms.tool_form import ToolForm

__all__ = ["HOW_TO_CONNECT", "history_tip", "panel_text"]

HOW_TO_CONNECT = (
    "No open connections. Connect one with %mcp connect NAME --stdio COMMAND ARGS… "
    "or %mcp connect NAME --http URL (after %load_ext anvia_nb): the panel lists it as soon as it is open."
)


def history_tip(for_viewers: bool) -> str:
    """The tooltip of the panel's calls: a viewer is not pointed at ``%mcp``, which is the author's."""
    tip = "the calls made from this panel, to run again"
    return tip if for_viewers else tip + "; %mcp history lists every call"


def panel_text(
    runtime: Runtime,
    scope: PanelScope,
    panel_policy: ShowPolicy,
    *,
    closed_name: str | None,
    form: ToolForm | None,
    calls: int,
) -> str:
    """What a panel is, as plain text: its connections (``closed_name`` listed as closed), the chosen
    tool's ``form`` and how many ``calls`` were made from it; ``panel_policy`` says the note shown
    when it offers no open connection."""
    policy = ShowPolicy()
    lines = [
        "anvia_nb panel: an MCP explorer (connections, their tools, the chosen tool's form, "
        "results and a history of calls)."
    ]
    shown = []
    for name in scope.names(runtime.names()):
        try:
            server = runtime.server(name)
        except AnviaError:
            continue
        named = policy.with_secrets(server.secrets).line(name, policy.limits.name_chars)
        shown.append(f"{named} ({len(server.tools)} tools)")
    if closed_name is not None:
        shown.append(f"{policy.line(closed_name, policy.limits.name_chars)} (closed)")
    lines.append(
        f"Connections: {', '.join(shown)}." if shown else scope.empty_note(runtime, panel_policy, HOW_TO_CONNECT)
    )
    if form is not None:
        lines.append(
            f"Chosen tool: {form.policy.line(form.server_name, policy.limits.name_chars)} · "
            f"{form.policy.line(form.tool_name, policy.limits.name_chars)}."
        )
    if calls:
        lines.append(f"{calls} calls made from it.")
    lines.append("Use it in a live notebook (it needs a running kernel and ipywidgets).")
    return "\n".join(lines)
