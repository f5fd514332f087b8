"""Resources, templates, prompts and completion from Python, against the demo server over stdio
and streamable HTTP: listings followed over every page, reads with their provenance, links read
only on request, and bad names or arguments refused before anything is sent."""

from __future__ import annotations

import base64
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core import McpConnection, McpServer
from anvia_nb.demo_server.library import BLOB, NOTES, PAGE_SIZE, PROMPTS, RESOURCES, TEMPLATES
from anvia_nb.demo_server.media import png_bytes
from anvia_nb.errors import (
    ArgumentError,
    ArgumentValidationError,
    ProtocolError,
    UnknownNameError,
    UnknownPromptError,
    UnknownResourceError,
    UnknownToolError,
)
from tests.helpers.support import DEMO_ARGS

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """One event loop for the module, so one connection per transport serves all its tests."""
    return "asyncio"


@pytest.fixture(scope="module", params=["stdio", "http"])
async def demo(request: pytest.FixtureRequest) -> AsyncIterator[McpServer]:
    """One connection per transport, shared by the tests: they only list, read, get and complete."""
    if request.param == "stdio":
        connection: McpConnection = mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS)
    else:
        connection = mcp.http(name="demo", url=request.getfixturevalue("demo_http_url"))
    server = await connect_mcp(connection)
    try:
        yield server
    finally:
        await server.close()


async def test_listings_follow_every_page(demo: McpServer) -> None:
    assert len(RESOURCES) > PAGE_SIZE  # the demo pages its resources: the client must follow nextCursor
    assert [r["uri"] for r in await demo.resources()] == [r["uri"] for r in RESOURCES]
    assert [t["uriTemplate"] for t in await demo.resource_templates()] == [t["uriTemplate"] for t in TEMPLATES]
    prompts = await demo.prompts()
    assert [p["name"] for p in prompts] == [p["name"] for p in PROMPTS]
    assert prompts[0]["arguments"][0] == {"name": "name", "description": "Who to greet", "required": True}


async def test_reads_give_text_bytes_and_a_file(demo: McpServer, tmp_path: Path) -> None:
    note = await demo.read_resource("demo://notes/1")
    assert note.text == NOTES["1"]
    assert note.provenance == "read from server demo"
    assert note.contents == [{"uri": "demo://notes/1", "mimeType": "text/plain", "text": NOTES["1"]}]
    blob = await demo.read_resource("demo://data/sample.bin")
    assert blob.text is None and blob.data(0) == BLOB
    saved = blob.save(0, tmp_path / "sample.bin")
    assert saved.read_bytes() == BLOB
    logo = await demo.read_resource("demo://images/logo.png")
    assert base64.b64decode(logo.contents[0]["blob"]) == png_bytes()


async def test_a_template_is_read_through_its_variables(demo: McpServer) -> None:
    by_name = await demo.read_template("note", {"id": "2"})
    assert (by_name.uri, by_name.text, by_name.template) == ("demo://notes/2", NOTES["2"], "demo://notes/{id}")
    by_template = await demo.read_template("demo://notes/{id}", {"id": "3"})
    assert by_template.text == NOTES["3"]
    with pytest.raises(ArgumentValidationError, match=r"needs id; give id=VALUE"):
        await demo.read_template("note", {})
    with pytest.raises(ArgumentValidationError, match=r"has no variable colour\. It takes: id"):
        await demo.read_template("note", {"id": "1", "colour": "red"})
    with pytest.raises(UnknownResourceError, match=r"no resource template 'nots'\. Did you mean"):
        await demo.read_template("nots", {"id": "1"})


async def test_a_prompt_is_got_with_its_arguments_checked_first(demo: McpServer) -> None:
    greeting = await demo.get_prompt("greet", {"name": "Ada", "language": "french"})
    assert greeting.messages[-1] == {"role": "assistant", "content": {"type": "text", "text": "Bonjour, Ada!"}}
    review = await demo.get_prompt("review_note", {"id": "1"})
    assert [m["content"]["type"] for m in review.messages] == ["text", "resource", "image"]
    # Each of these would be the server's own error (a ProtocolError) had it been sent.
    with pytest.raises(ArgumentValidationError, match=r"demo\.greet was not asked for: it needs name"):
        await demo.get_prompt("greet", {})
    with pytest.raises(ArgumentValidationError, match=r"takes no argument mood\. It takes: name, language"):
        await demo.get_prompt("greet", {"name": "Ada", "mood": "happy"})
    with pytest.raises(UnknownPromptError, match=r"'demo' has no prompt 'gret'\. Did you mean greet\?"):
        await demo.get_prompt("gret", {"name": "Ada"})
    with pytest.raises(ArgumentError, match="strings"):
        await demo.get_prompt("greet", {"name": 3})  # type: ignore[dict-item]


async def test_completion_suggests_prompt_arguments_and_template_variables(demo: McpServer) -> None:
    assert await demo.complete(("prompt", "greet"), "language", "n") == ["norwegian"]
    assert await demo.complete(("template", "demo://notes/{id}"), "id") == ["1", "2", "3"]
    assert await demo.complete(("prompt", "greet"), "name", "A") == []


async def test_a_resource_link_is_read_only_on_request(demo: McpServer) -> None:
    outcome = await demo.tool("resource_link").call_outcome({})
    assert "demo://notes/1" in demo.offered_links
    read = await demo.read_link(outcome, 0)
    assert read.on_request and read.provenance == "read on request from server demo"
    assert read.text == NOTES["1"]
    with pytest.raises(Exception, match=r"has 1 resource link\(s\): give an index from 0 to 0"):
        await demo.read_link(outcome, 1)


async def test_an_unknown_uri_is_refused_locally_and_the_servers_error_is_kept(demo: McpServer) -> None:
    with pytest.raises(UnknownResourceError, match=r"lists no resource or template for 'demo://note/1'"):
        await demo.check_uri("demo://note/1")
    await demo.check_uri("demo://notes/7")  # a template's URI: the server decides
    with pytest.raises(ProtocolError, match="Unknown resource: demo://notes/7"):
        await demo.read_resource("demo://notes/7")


async def test_a_server_that_never_lists_its_resources_cannot_hold_the_caller() -> None:
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from anvia_nb.errors import ToolTimeoutError

    async def never(_ctx: object, _params: object) -> types.ListResourcesResult:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    async def no_tools(_ctx: object, _params: object) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[])

    server = await connect_mcp(
        mcp.memory(name="stuck", server=Server("stuck", on_list_tools=no_tools, on_list_resources=never))
    )
    try:
        with pytest.raises(ToolTimeoutError, match="stuck did not answer in time while listing resources"):
            await server.resources(timeout_seconds=0.5)
        assert server.is_open
    finally:
        await server.close()


async def test_every_unknown_name_is_one_error_to_catch_with_close_suggestions(demo: McpServer) -> None:
    async def ask(kind: str, name: str) -> object:
        if kind == "tool":
            return demo.tool(name)
        return await (demo.prompt_info(name) if kind == "prompt" else demo.template_info(name))

    caught: dict[type, list[str]] = {}
    for kind, name in (("tool", "echoo"), ("prompt", "gret"), ("template", "demo://note/{id}")):
        with pytest.raises(UnknownNameError) as raised:  # one except for a mistyped tool, prompt or template
            await ask(kind, name)
        assert isinstance(raised.value, KeyError) and str(raised.value).startswith("'demo'")  # a sentence
        caught[type(raised.value)] = raised.value.suggestions[:1]  # the closest first
    assert caught == {
        UnknownToolError: ["echo"],
        UnknownPromptError: ["greet"],
        UnknownResourceError: ["demo://notes/{id}"],
    }


async def test_a_server_with_no_tools_says_so_when_a_tool_is_asked_for() -> None:
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def no_tools(_ctx: object, _params: object) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[])

    server = await connect_mcp(mcp.memory(name="bare", server=Server("bare", on_list_tools=no_tools)))
    try:
        with pytest.raises(UnknownToolError) as raised:
            server.tool("echo")
        assert str(raised.value) == "'bare' has no tool 'echo'. It lists no tools."
        assert raised.value.suggestions == []
    finally:
        await server.close()
