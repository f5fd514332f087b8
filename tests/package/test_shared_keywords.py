"""Keywords several public functions share are declared once (a TypedDict taken as ``**options``),
yet each function still shows them: its signature (what ``?`` and ``help()`` show) names every
keyword with the default the function applies, its docstring describes each, and a mistyped
keyword is a ``TypeError`` naming the public function, as Python's own is."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from anvia_nb import mcp
from anvia_nb.core.api.batch import MapOptions
from anvia_nb.core.api.factories import ConnectionSettings
from anvia_nb.core.api.map_options import MapKeywords
from anvia_nb.core.api.tool import Tool
from anvia_nb.core.protocol import limits

SHARING: list[tuple[Callable[..., Any], type, dict[str, object]]] = [
    (Tool.map, MapKeywords, {"concurrency": limits.DEFAULT_MAP_CONCURRENCY, "timeout_seconds": limits.DEFAULT}),
    (Tool.map_sync, MapKeywords, {"stop_on_error": False, "max_time_seconds": limits.DEFAULT}),
    (Tool.call_task, limits.CallBounds, {"timeout_seconds": limits.DEFAULT, "max_time_seconds": limits.DEFAULT}),
    (Tool.start, limits.CallBounds, {"timeout_seconds": limits.DEFAULT, "max_time_seconds": limits.DEFAULT}),
    (mcp.stdio, ConnectionSettings, {"roots": None, "protocol": None}),
    (mcp.http, ConnectionSettings, {"record": None, "max_calls_in_flight": None}),
]
"""Each function that takes shared keywords, their TypedDict, and some defaults it applies."""


@pytest.mark.parametrize(("function", "keywords", "some_defaults"), SHARING)
def test_the_signature_and_docstring_name_every_shared_keyword(
    function: Callable[..., Any], keywords: type, some_defaults: dict[str, object]
) -> None:
    parameters = inspect.signature(function).parameters
    assert not any(p.kind is p.VAR_KEYWORD for p in parameters.values()), "**options shows as itself"
    for key in keywords.__annotations__:
        assert parameters[key].kind is inspect.Parameter.KEYWORD_ONLY
        assert key in (function.__doc__ or ""), f"{function.__qualname__}'s docstring does not describe {key}"
    for key, default in some_defaults.items():
        assert parameters[key].default is default or parameters[key].default == default, key


def test_panel_shows_the_keywords_and_defaults_of_the_panel_it_makes() -> None:
    from anvia_nb.widgets import PanelKeywords, panel
    from anvia_nb.widgets.explorer.panel import Panel

    shown = inspect.signature(panel).parameters
    made = inspect.signature(Panel).parameters
    assert list(shown) == list(made) == list(PanelKeywords.__annotations__)
    assert {key: p.default for key, p in shown.items()} == {key: p.default for key, p in made.items()}
    with pytest.raises(TypeError, match=r"^panel\(\) got an unexpected keyword argument 'tool'"):
        panel(tool=["echo"])  # type: ignore[call-arg]  # the mistake tested


def test_form_shows_the_defaults_of_the_tool_form_it_makes() -> None:
    from anvia_nb.widgets import FormKeywords, form
    from anvia_nb.widgets.forms.tool_form import ToolForm

    shown = inspect.signature(form).parameters
    made = inspect.signature(ToolForm).parameters
    for key in FormKeywords.__annotations__:
        assert shown[key].kind is inspect.Parameter.KEYWORD_ONLY and shown[key].default == made[key].default, key
        assert key in (form.__doc__ or ""), key
    with pytest.raises(TypeError, match=r"^form\(\) got an unexpected keyword argument 'intial'"):
        form("demo.echo", intial={"message": "hi"})  # type: ignore[call-arg]  # the mistake tested


def test_the_map_shows_the_defaults_the_map_applies() -> None:
    parameters = inspect.signature(Tool.map).parameters
    for field, default in vars(MapOptions()).items():
        assert parameters[field].default == default, field


def test_a_mistyped_shared_keyword_is_a_type_error_naming_the_function() -> None:
    with pytest.raises(TypeError, match=r"^mcp\.stdio\(\) got an unexpected keyword argument 'root'"):
        mcp.stdio(name="x", command="python", root=["."])  # type: ignore[call-arg]  # the mistake tested
    with pytest.raises(TypeError, match=r"^mcp\.http\(\) got an unexpected keyword argument 'keep_log'"):
        mcp.http(name="x", url="http://localhost:1/mcp", keep_log=True)  # type: ignore[call-arg]  # the mistake tested


@pytest.mark.anyio
async def test_a_mistyped_map_keyword_is_a_type_error_naming_the_map() -> None:
    from anvia_nb import connect_mcp
    from anvia_nb.demo_server.handlers import build_server

    server = await connect_mcp(mcp.memory(name="demo", server=build_server()))
    try:
        with pytest.raises(TypeError, match=r"^tool\.map\(\) got an unexpected keyword argument 'concurency'"):
            await server.tool("echo").map([{"message": "a"}], concurency=2)  # type: ignore[call-overload]  # tested
        with pytest.raises(TypeError, match=r"^tool\.map_sync\(\) got an unexpected keyword argument 'stop'"):
            server.tool("echo").map_sync([{"message": "a"}], stop=True)  # type: ignore[call-overload]  # tested
    finally:
        await server.close()
