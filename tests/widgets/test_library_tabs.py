"""The panel's Resources and Prompts tabs and the form's link buttons, without a browser: lists,
forms of arguments and variables with the server's suggestions, reads and prompts shown with their
provenance, links read only when a button is pressed."""

from __future__ import annotations

from anvia_nb.demo_server.hostile import PWNED_FLAG
from anvia_nb.demo_server.library import NOTES
from anvia_nb.policy import Limits, ShowPolicy
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import panel
from anvia_nb.widgets.fields.completing import CompletingFields
from tests.helpers.waiting import WAIT_SECONDS
from tests.helpers.widgets import form

MAX_FIELDS = Limits().form_fields


def _html(output: object) -> str:
    return "".join(str(o["data"]["text/html"]) for o in output.outputs)  # type: ignore[attr-defined]


def test_the_panel_has_resources_and_prompts_tabs_that_follow_the_connection(demo_runtime: Runtime) -> None:
    explorer = panel(runtime=demo_runtime)
    assert explorer.tabs.titles[:3] == ("Tools", "Resources", "Prompts")
    tab = explorer.resources_tab
    assert tab.listing is not None
    tab.listing.result(WAIT_SECONDS)
    assert "demo://readme" in [r["uri"] for r in tab.resources]
    tab.select("demo://notes/1")
    read = tab.read()
    assert read is not None and read.text == NOTES["1"]
    assert "read from server demo" in _html(tab.output)


def test_a_template_is_read_from_its_form_with_the_servers_suggestions(demo_runtime: Runtime) -> None:
    tab = panel(runtime=demo_runtime).resources_tab
    assert tab.listing is not None
    tab.listing.result(WAIT_SECONDS)
    tab.select("note")
    assert tab.fields is not None and list(tab.fields.inputs) == ["id"]
    tab.fields.suggest("id").result(WAIT_SECONDS)
    assert tab.fields.inputs["id"].options == ("1", "2", "3")
    tab.fields.inputs["id"].value = "2"
    read = tab.read()
    assert read is not None and read.uri == "demo://notes/2" and read.text == NOTES["2"]
    tab.fields.inputs["id"].value = ""
    assert tab.read() is None and "needs id; give id=VALUE" in _html(tab.output)  # nothing was sent


def test_a_prompt_is_got_from_its_form_and_a_missing_argument_is_refused(demo_runtime: Runtime) -> None:
    tab = panel(runtime=demo_runtime).prompts_tab
    assert tab.listing is not None
    tab.listing.result(WAIT_SECONDS)
    fields = tab.select("greet")
    assert fields is not None and fields.required == ["name"]
    assert tab.get() is None and "it needs name" in _html(tab.output)
    fields.inputs["name"].value = "Ada"
    fields.inputs["language"].value = "fr"
    assert fields.completing is not None
    fields.completing.result(WAIT_SECONDS)
    assert fields.inputs["language"].options == ("french",)
    fields.inputs["language"].value = "french"
    view = tab.get()
    assert view is not None and view.messages[1]["content"]["text"] == "Bonjour, Ada!"
    assert "message 1 · assistant" in _html(tab.output)


def test_hostile_prompts_and_resources_stay_text_in_the_tabs(demo_runtime: Runtime) -> None:
    explorer = panel(runtime=demo_runtime)
    for tab in (explorer.resources_tab, explorer.prompts_tab):
        assert tab.listing is not None
        tab.listing.result(WAIT_SECONDS)
    explorer.prompts_tab.select("hostile")
    assert "<script>" not in explorer.prompts_tab.about.value
    explorer.prompts_tab.get()
    shown = _html(explorer.prompts_tab.output)
    assert f"<script>window.{PWNED_FLAG}" not in shown and "&lt;script&gt;" in shown


def test_a_forms_link_is_read_only_when_its_button_is_pressed(demo_runtime: Runtime) -> None:
    tool_form = form("demo.resource_link", runtime=demo_runtime)
    assert tool_form.call()
    tool_form.wait(WAIT_SECONDS)
    buttons = tool_form.links.buttons.children
    assert [b.description for b in buttons] == ["Read link 0"]
    assert tool_form.links.output.outputs == ()  # nothing was read by itself
    buttons[0].click()
    assert tool_form.links.last_read is not None and tool_form.links.last_read.text == NOTES["1"]
    assert "read on request from server demo" in _html(tool_form.links.output)


def test_a_result_without_links_has_no_link_buttons(demo_runtime: Runtime) -> None:
    tool_form = form("demo.echo", runtime=demo_runtime)
    tool_form.arguments.set_value({"message": "hi"})
    assert tool_form.call()
    tool_form.wait(WAIT_SECONDS)
    assert tool_form.links.buttons.children == ()


def test_a_prompt_with_thousands_of_arguments_gets_a_bounded_form_that_says_what_it_left_out(
    demo_runtime: Runtime,
) -> None:
    listed = [(f"arg{i}", i == 0, "x" * 50) for i in range(3_000)]
    fields = CompletingFields(demo_runtime, demo_runtime.server("demo"), ("prompt", "greet"), listed, ShowPolicy())
    assert len(fields.inputs) == MAX_FIELDS and fields.left_out == 3_000 - MAX_FIELDS
    note = fields.widget.children[-1].value
    assert f"{3_000 - MAX_FIELDS:,} more arguments are not shown" in note and "%mcp prompt" in note
    fields.inputs["arg0"].value = "typed"
    assert fields.values() == {"arg0": "typed"}


def test_a_server_listing_thousands_of_resources_and_prompts_gets_bounded_lists_that_still_reach_any(
    runtime: Runtime,
) -> None:
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from anvia_nb import mcp
    from anvia_nb.widgets.explorer.prompts_tab import PromptsTab
    from anvia_nb.widgets.explorer.resources_tab import ResourcesTab

    count = 2_000

    async def list_resources(_ctx: object, _params: object) -> types.ListResourcesResult:
        return types.ListResourcesResult.model_validate(
            {"resources": [{"uri": f"many://{i}", "name": f"r{i}"} for i in range(count)]}
        )

    async def read(_ctx: object, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        return types.ReadResourceResult.model_validate({"contents": [{"uri": str(params.uri), "text": "it"}]})

    async def list_prompts(_ctx: object, _params: object) -> types.ListPromptsResult:
        return types.ListPromptsResult.model_validate({"prompts": [{"name": f"p{i}"} for i in range(count)]})

    async def no_tools(_ctx: object, _params: object) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[])

    server = Server(
        "many",
        on_list_tools=no_tools,
        on_list_resources=list_resources,
        on_read_resource=read,
        on_list_prompts=list_prompts,
    )
    runtime.connect(mcp.memory(name="many", server=server))
    resources, prompts = ResourcesTab(runtime), PromptsTab(runtime)
    for tab in (resources, prompts):
        listing = tab.show(runtime.server("many"))
        assert listing is not None
        listing.result(WAIT_SECONDS)
    limit = resources.listed_resources.limit
    assert len(resources.resource_list.options) == limit < count  # though it fails to list templates:
    shown = resources.output.outputs[0]["data"]["text/plain"]  # the refused listing is said on its own
    assert shown == "'many' has no resources/templates/list (-32601 Method not found): no resource templates listed."
    assert resources.listed_resources.note.value.startswith(f"{count:,} resources; the first {limit:,} are listed")
    assert "%mcp read" in resources.listed_resources.note.value
    resources.select(f"many://{count - 1}")  # past the listed ones: it joins the list, and reads
    read_view = resources.read()
    assert read_view is not None and read_view.uri == f"many://{count - 1}"
    assert len(prompts.prompt_list.options) == limit and "%mcp prompt" in prompts.listed.note.value
    prompts.select(f"p{count - 1}")
    assert prompts.prompt_list.value == count - 1
