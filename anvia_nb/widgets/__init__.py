"""Widgets for MCP tools: the arguments form, the tool form with Call, the explorer panel, and
prompts for a server's requests for input (elicitation).

Names are loaded on first use, so ``import anvia_nb.widgets.spec`` (the pure form rules) and
``import anvia_nb`` never import ipywidgets::

    from anvia_nb.widgets import form, panel, enable_elicitation
    form("demo.echo")          # one tool: fields, Call, Cancel, progress, result
    panel()                    # connections, tools, form, results and history in one widget
    with enable_elicitation("demo", callback=decline):   # answers until the block ends
        ...

Forms and the panel follow the kernel's connections: when ``%mcp close demo`` closes the one
they call they say so in place, and ``%mcp connect demo ...`` again re-attaches them.

The package is laid out by concern: ``spec`` (the pure rules: a JSON Schema as field specs, typed
text as arguments), ``fields`` (the fields and the arguments form), ``prompts`` (what a person
answers: a server's requests for input, the OAuth sign-in), ``apps`` (a tool's interactive view),
``forms`` (one tool with Call: :class:`ToolForm`) and ``explorer`` (:class:`Panel` and its tabs);
``_chrome`` is what they share for showing server text. No sub-package is named ``form`` or
``panel``: importing it would make Python set it as an attribute of this package, replacing the
function (and ``%mcp form`` looks the function up here).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypedDict

from anvia_nb._docs import refuse_unknown, shared_keywords
from anvia_nb.core.protocol.limits import DEFAULT, Default

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing's own from Python 3.11; 3.10 is supported

    from anvia_nb.core import Tool
    from anvia_nb.display import RenderSettings
    from anvia_nb.runtime import Runtime
    from anvia_nb.widgets.apps.view import AppView
    from anvia_nb.widgets.explorer.panel import Panel
    from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
    from anvia_nb.widgets.forms.tool_form import ToolForm, remembered_arguments
    from anvia_nb.widgets.forms.unavailable import UnavailableForm
    from anvia_nb.widgets.prompts.elicitation import ElicitationRouter, enable_elicitation
    from anvia_nb.widgets.prompts.elicitation_prompt import ElicitationPrompt

__all__ = [
    "AppView",
    "ArgumentsForm",
    "ElicitationPrompt",
    "ElicitationRouter",
    "FormKeywords",
    "Panel",
    "PanelKeywords",
    "ToolForm",
    "UnavailableForm",
    "app",
    "enable_elicitation",
    "form",
    "panel",
    "remembered_arguments",
]

_LAZY = {
    "AppView": "anvia_nb.widgets.apps.view",
    "ArgumentsForm": "anvia_nb.widgets.fields.arguments_form",
    "ElicitationPrompt": "anvia_nb.widgets.prompts.elicitation_prompt",
    "ElicitationRouter": "anvia_nb.widgets.prompts.elicitation",
    "enable_elicitation": "anvia_nb.widgets.prompts.elicitation",
    "ToolForm": "anvia_nb.widgets.forms.tool_form",
    "remembered_arguments": "anvia_nb.widgets.forms.tool_form",
    "Panel": "anvia_nb.widgets.explorer.panel",
    "UnavailableForm": "anvia_nb.widgets.forms.unavailable",
}


class FormKeywords(TypedDict, total=False):
    """The keywords ``form()`` passes on to :class:`ToolForm` (whose signature gives their defaults);
    mypy holds them to ``ToolForm``'s, and tests/package/test_shared_keywords.py holds the defaults
    ``form?`` shows to ``ToolForm``'s."""

    settings: RenderSettings | None
    timeout_seconds: float | Default | None
    elicitation: bool
    initial: dict[str, Any] | None
    readonly_arguments: dict[str, Any] | None
    max_time_seconds: float | Default | None


_FORM_DEFAULTS = {
    **dict.fromkeys(FormKeywords.__annotations__),
    "timeout_seconds": DEFAULT,
    "elicitation": True,
    "max_time_seconds": DEFAULT,
}


@shared_keywords(FormKeywords, _FORM_DEFAULTS)
def form(
    target: str | tuple[str, str] | Tool,
    tool: str | None = None,
    *,
    runtime: Runtime | None = None,
    **options: Unpack[FormKeywords],
) -> ToolForm | UnavailableForm:
    """The form of one tool: fields, Call, Cancel, progress and the result.

    Parameters
    ----------
    target : str, tuple of (str, str), or Tool
        ``"demo.echo"``, ``"demo"`` with ``tool``, ``("demo", "echo")`` or a ``Tool`` object.
    tool : str, optional
        The tool's name when ``target`` names only the connection.
    runtime : Runtime, optional
        The runtime whose connections it uses; ``None``: the kernel's (the one ``%mcp`` uses).
    settings : RenderSettings, optional
        How results show (sizes, hidden server errors); ``None``: the defaults.
    timeout_seconds, max_time_seconds : float or None, optional
        Bound each call's silence and its whole time, as ``Tool.call_outcome`` (by default 60 s
        and 600 s, as every call); ``None``: no limit.
    elicitation : bool, optional
        Ask the person in the form when the server requests input (default ``True``);
        ``False`` leaves it to the kernel's handler.
    initial : dict, optional
        Values the fields start with.
    readonly_arguments : dict, optional
        Arguments a viewer may not change (shown disabled, always sent).

    Returns
    -------
    ToolForm or UnavailableForm
        The form; for a connection that failed to open, a form that says it is not available.

    Raises
    ------
    UnknownConnectionError, UnknownToolError
        No connection or tool of that name (one line, with close names).
    InvalidTypeError
        ``target`` is a tuple that is not a pair.

    Examples
    --------
    >>> form("demo.echo", initial={"message": "hi"})
    """
    from anvia_nb.runtime import get_runtime
    from anvia_nb.widgets.forms.tool_form import ToolForm
    from anvia_nb.widgets.forms.unavailable import form_for

    refuse_unknown("form", options, FormKeywords)
    rt = runtime or get_runtime()

    def make(found: Tool, lookup: Callable[[], Tool] | None) -> ToolForm:
        return ToolForm(found, runtime=rt, lookup=lookup, **options)

    return form_for(target, tool, runtime=rt, settings=options.get("settings"), make=make)  # unknown names: one line


class PanelKeywords(TypedDict, total=False):
    """The keywords ``panel()`` takes and passes on to :class:`Panel` (whose signature gives their
    defaults: ``None``, the two bounds ``DEFAULT``); mypy holds them to ``Panel``'s, and
    tests/package/test_shared_keywords.py holds the defaults ``panel?`` shows to ``Panel``'s."""

    runtime: Runtime | None
    settings: RenderSettings | None
    timeout_seconds: float | Default | None
    connection: str | None
    tools: Iterable[str] | None
    resources: Iterable[str] | None
    prompts: Iterable[str] | None
    max_time_seconds: float | Default | None


_PANEL_DEFAULTS = {
    **dict.fromkeys(PanelKeywords.__annotations__),
    "timeout_seconds": DEFAULT,
    "max_time_seconds": DEFAULT,
}


@shared_keywords(PanelKeywords, _PANEL_DEFAULTS)
def panel(**options: Unpack[PanelKeywords]) -> Panel:
    """The explorer over the kernel's runtime: connections, tools, the selected tool's form,
    results and a history; works with zero connections too.

    Parameters
    ----------
    runtime : Runtime, optional
        The runtime whose connections it uses; ``None``: the kernel's (the one ``%mcp`` uses).
    settings : RenderSettings, optional
        How results show (sizes, hidden server errors); ``None``: the defaults.
    timeout_seconds : float or None, optional
        Bounds each call's silence (default 60 s, ``DEFAULT_CALL_TIMEOUT_SECONDS``); ``None``: no
        limit. ``%mcp panel`` passes the ``%config McpMagics`` values.
    connection : str, optional
        Show that connection only.
    tools : iterable of str, optional
        Offer only these tools (checked now).
    resources : iterable of str, optional
        Offer only these resources (URIs or uriTemplates).
    prompts : iterable of str, optional
        Offer only these prompts. Naming ``tools``, ``resources`` or ``prompts`` offers only what
        is named, of one connection (with several open, name it), and no tab of what is not named.
    max_time_seconds : float or None, optional
        Bounds each call's whole time (default 600 s); ``None``: no limit.

    Returns
    -------
    Panel
        The widget; show it as a cell's last value.

    Raises
    ------
    UnknownConnectionError, UnknownToolError
        ``connection`` or a tool in ``tools`` is not there.
    InvalidTypeError, InvalidValueError
        ``tools``, ``resources`` or ``prompts`` is not a list of names, or names what is not offered.
    """
    from anvia_nb.widgets.explorer.panel import Panel

    refuse_unknown("panel", options, PanelKeywords)
    return Panel(**options)


def app(
    target: str | Tool,
    arguments: dict[str, Any] | None = None,
    *,
    runtime: Runtime | None = None,
    settings: RenderSettings | None = None,
    timeout_seconds: float | Default | None = DEFAULT,
) -> AppView:
    """Call a tool that has an interactive view (MCP Apps) and return the view, shown the call's
    input and result. The call is in the kernel's history; ``view.result`` is its result view.

    Parameters
    ----------
    target : str or Tool
        ``"demo.counter_app"`` or a ``Tool`` object.
    arguments : dict, optional
        The call's arguments (``None``: none).
    runtime : Runtime, optional
        The runtime whose connections it uses; ``None``: the kernel's (the one ``%mcp`` uses).
    settings : RenderSettings, optional
        How results show (sizes, hidden server errors); ``None``: the defaults.
    timeout_seconds : float or None, optional
        Bounds the call and the view's reads (default 60 s); ``None``: no limit.

    Returns
    -------
    AppView
        The view, shown as a cell's last value.

    Raises
    ------
    InvalidValueError
        ``target`` is not ``NAME.TOOL``, or the tool has no view, or only its view may call it;
        nothing is sent.
    UnknownConnectionError, UnknownToolError
        No connection or tool of that name.

    Examples
    --------
    >>> app("demo.counter_app", {"start": 3})
    """
    from anvia_nb.runtime import get_runtime
    from anvia_nb.widgets.apps.view import open_app, tool_to_open

    rt = runtime or get_runtime()
    tool = tool_to_open(target, rt)
    outcome = rt.run(tool.call_outcome(arguments, timeout_seconds=timeout_seconds))
    rt.record(outcome)
    return open_app(tool, outcome.arguments, outcome, runtime=rt, settings=settings, timeout_seconds=timeout_seconds)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'anvia_nb.widgets' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)
