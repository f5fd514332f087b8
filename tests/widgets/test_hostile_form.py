"""A hostile server against a form: many requests for input at once, huge enums, big results.

Each server here is in memory; what is checked is what a person would see in the form.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.server.lowlevel import Server
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from anvia_nb import mcp
from anvia_nb.core.protocol import limits
from anvia_nb.policy import Limits
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import panel
from anvia_nb.widgets.fields.arguments_form import ArgumentsForm
from anvia_nb.widgets.prompts.elicitation import router_for
from tests.helpers.waiting import WAIT_SECONDS, wait_until
from tests.helpers.widgets import form

REQUESTS = 40
SCHEMA: dict[str, Any] = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
ASK_MANY = types.Tool(name="ask_many", input_schema={"type": "object"})


async def _list(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[ASK_MANY])


async def _ask_many(ctx: Any, params: types.CallToolRequestParams) -> Any:
    """Asks REQUESTS questions at once and reports how each was answered."""
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        answers = params.input_responses or {}
        if not answers:
            request = types.ElicitRequest(
                params=types.ElicitRequestFormParams(message="again?", requested_schema=SCHEMA)
            )
            return types.InputRequiredResult(input_requests={f"q{i}": request for i in range(REQUESTS)})
        actions = [getattr(a, "action", "?") for a in answers.values()]
    else:
        actions = []

        async def one(index: int) -> None:
            answer = await ctx.session.elicit_form(f"again? {index}", SCHEMA, related_request_id=ctx.request_id)
            actions.append(answer.action)

        async with anyio.create_task_group() as group:
            for index in range(REQUESTS):
                group.start_soon(one, index)
    counts = {action: actions.count(action) for action in sorted(set(actions))}
    return types.CallToolResult(content=[types.TextContent(type="text", text=repr(counts))])


def test_many_requests_for_input_show_a_bounded_number_of_prompts_and_count_the_rest(runtime: Runtime) -> None:
    runtime.connect(mcp.memory(name="asker", server=Server("asker", on_list_tools=_list, on_call_tool=_ask_many)))
    asker = form("asker.ask_many", runtime=runtime)
    bound = Limits().prompts
    assert asker.call()
    wait_until(lambda: asker.refused_prompts == REQUESTS - bound, "the refused requests counted")
    assert len(asker.prompt_area.children) == bound  # never stacked past the bound
    router = router_for(runtime.server("asker"))
    assert router is not None and len(router.prompts) == bound  # no widgets made for the refused ones
    assert f"{REQUESTS - bound} more requests for input were cancelled" in asker.prompt_note.value
    for prompt in list(asker.prompts.shown):
        prompt.decline_button.click()
    outcome = asker.wait(WAIT_SECONDS)
    assert outcome is not None
    assert outcome.output == repr({"cancel": REQUESTS - bound, "decline": bound})


BIG_ENUM = [f"value-{i:05d}" for i in range(20_000)]
TEN_ENUMS: dict[str, Any] = {
    "type": "object",
    "properties": {
        **{f"pick{i}": {"type": "string", "enum": BIG_ENUM} for i in range(9)},
        "many": {"type": "array", "items": {"type": "string", "enum": BIG_ENUM}},
    },
    "required": ["pick0"],
}


@pytest.mark.slow  # labels 200,000 choices
def test_huge_enums_carry_a_bounded_number_of_options_and_any_value_can_still_be_sent() -> None:
    arguments = ArgumentsForm(schema=TEN_ENUMS)
    bound = Limits().choices
    controls = [arguments.field(f"pick{i}").input for i in range(9)] + [arguments.field("many").input]
    assert all(len(getattr(control, "options", ())) <= bound for control in controls)
    state = json.dumps([control.get_state() for control in controls], default=str)
    assert len(state) < 10 * bound * 40  # not the 20,000 values of each enum

    pick = arguments.field("pick0").input
    pick.value = "value-19999"  # far past the suggestions: typed, and checked against the whole enum
    arguments.field("many").input.value = "value-00001\nvalue-15000"
    assert arguments.problems == []
    assert arguments.value == {"pick0": "value-19999", "many": ["value-00001", "value-15000"]}

    pick.value = "value-20000"  # not in the enum: the form says so, nothing is sent
    assert arguments.problems and "listed values" in arguments.problems[0]
    pick.value = "value-00000"
    arguments.field("many").input.value = "nope"
    assert any("listed values" in problem for problem in arguments.problems)

    arguments.set_value({"pick0": "value-12345", "many": ["value-00002"]})
    assert pick.value == "value-12345" and arguments.field("many").input.value == "value-00002"
    assert arguments.value == {"pick0": "value-12345", "many": ["value-00002"]}


def test_a_form_and_the_panels_forms_bound_a_call_by_the_package_default_unless_told(
    demo_runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "DEFAULT_CALL_TIMEOUT_SECONDS", 1.0)
    endless = {"steps": 10_000, "delay_seconds": 60}  # a server that never finishes
    slow = form("demo.slow", runtime=demo_runtime)
    from_panel = panel(runtime=demo_runtime).select("demo", "slow")
    assert from_panel is not None and from_panel is not slow
    try:
        for tool_form in (slow, from_panel):
            tool_form.arguments.set_value(endless)
            assert tool_form.call()
            outcome = tool_form.wait(WAIT_SECONDS)
            assert outcome is not None and outcome.status == "timeout"
    finally:
        slow.cancel()
        from_panel.cancel()
    told = form("demo.slow", runtime=demo_runtime, timeout_seconds=None)
    assert told.timeout_seconds is None  # the person's choice (no limit) is kept
