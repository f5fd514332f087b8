"""Recording a live connection to a JSON Lines file, and replaying it with no server at all.

Against the bundled demo server over stdio and HTTP: the file holds the handshake, the listing
and every call with its progress and result, never a secret; a replay starts no process, answers
recorded calls as they were answered live, and refuses any other call naming the closest ones.
One live stdio session is recorded for the module; each test reads its own copy of the file.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from anvia_nb import ConnectError, ToolResultError, connect_mcp, mcp
from anvia_nb.errors import NotOfferedError, UnrecordedCallError
from tests.helpers.support import DEMO_ARGS, child_pids

pytestmark = pytest.mark.anyio

TOKEN = "tok-Secret-Value-123456"
HEADER_TOKEN = "hdr-Bearer-Token-987654"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """One event loop for the module, so the module-scoped recording is made once."""
    return "asyncio"


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


async def record_demo(path: Path) -> dict[str, object]:
    """A live session of the demo server recorded to ``path``; what it answered."""
    connection = mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS, env={"API_TOKEN": TOKEN}, record=path)
    seen: dict[str, object] = {}
    async with await connect_mcp(connection) as server:
        seen["tools"] = [tool.name for tool in server.tools]
        seen["add"] = await server.tool("add").call({"a": 2, "b": 3})
        seen["echo"] = await server.tool("echo").call({"message": "héllo"})
        seen["token"] = await server.tool("env_value").call({"name": "API_TOKEN"})
        seen["slow"] = await server.tool("slow").call_outcome({"steps": 3})
        with pytest.raises(ToolResultError) as failed:
            await server.tool("fail").call({"message": "no such thing"})
        seen["fail"] = str(failed.value)
        seen["resources"] = await server.resources()
        seen["templates"] = await server.resource_templates()
        seen["prompts"] = await server.prompts()
    return seen


@pytest.fixture(scope="module")
async def recording(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """One live session of the demo recorded for the module, and what it answered."""
    path = tmp_path_factory.mktemp("recording") / "demo.jsonl"
    seen = await record_demo(path)
    return path, seen


@pytest.fixture
def recorded(recording: tuple[Path, dict[str, object]], tmp_path: Path) -> tuple[Path, dict[str, object]]:
    """This test's own copy of the module's recording, and what the live session answered."""
    original, seen = recording
    path = tmp_path / "demo.jsonl"
    shutil.copyfile(original, path)
    return path, seen


async def test_a_recording_holds_the_handshake_listing_and_calls_and_no_secret(
    recorded: tuple[Path, dict[str, object]],
) -> None:
    path, seen = recorded
    assert seen["token"] == TOKEN  # the server really echoed the secret back
    text = path.read_text(encoding="utf-8")
    assert TOKEN not in text and TOKEN[:12] not in text
    records = lines(path)
    header, server, listing, *rest = records
    calls = [record for record in rest if record["type"] == "call"]
    assert header["type"] == "recording" and header["name"] == "demo" and header["transport"] == "stdio"
    assert "anvia_nb.demo_server" in str(header["command"])
    assert server["type"] == "server" and server["serverInfo"]["name"] == "anvia-demo"  # type: ignore[index]
    assert server["capabilities"] and server["instructions"]
    assert listing["kind"] == "tools" and "add" in [t["name"] for t in listing["items"]]  # type: ignore[attr-defined]
    assert [c["tool"] for c in calls] == ["add", "echo", "env_value", "slow", "fail"]
    assert calls[0]["arguments"] == {"a": 2, "b": 3} and calls[0]["result"]["structuredContent"] == {"sum": 5}  # type: ignore[index]
    assert len(calls[3]["progress"]) == 3  # type: ignore[arg-type]
    assert calls[4]["result"]["isError"] is True  # type: ignore[index]


async def test_an_http_recording_masks_the_header_token(tmp_path: Path, demo_http_url: str) -> None:
    path = tmp_path / "http.jsonl"
    connection = mcp.http(
        name="web", url=demo_http_url, headers={"Authorization": f"Bearer {HEADER_TOKEN}"}, record=path
    )
    async with await connect_mcp(connection) as server:
        assert await server.tool("echo").call({"message": f"echo {HEADER_TOKEN}"}) == f"echo {HEADER_TOKEN}"
    text = path.read_text(encoding="utf-8")
    assert HEADER_TOKEN not in text
    assert "••••••" in text  # the echoed token is there, masked
    assert lines(path)[0]["transport"] == "http"


async def test_a_replay_starts_no_process_and_answers_as_live(recorded: tuple[Path, dict[str, object]]) -> None:
    path, seen = recorded
    before = child_pids()
    server = await connect_mcp(mcp.replay(name="demo", path=path))
    try:
        assert child_pids() == before
        assert server.client.server_info["name"] == "anvia-demo"
        assert [tool.name for tool in server.tools] == seen["tools"]
        assert server.tool("add").output_schema is not None
        assert await server.tool("add").call({"b": 3, "a": 2}) == seen["add"]  # key order does not matter
        assert await server.tool("echo").call({"message": "héllo"}) == seen["echo"]
        steps: list[float] = []

        async def progress(value: float, total: float | None, message: str | None) -> None:
            steps.append(value)

        slow = await server.tool("slow").call_outcome({"steps": 3}, on_progress=progress)
        assert slow.output == seen["slow"].output and len(steps) == 3  # type: ignore[attr-defined]
        assert slow.origin == f"replayed from {path}"
        with pytest.raises(ToolResultError) as failed:
            await server.tool("fail").call({"message": "no such thing"})
        assert str(failed.value) == seen["fail"]
        assert await server.tool("add").call({"a": 2, "b": 3}) == seen["add"]  # again: the last answer
        assert child_pids() == before
    finally:
        await server.close()


async def test_a_replay_lists_the_recorded_resources_templates_and_prompts(
    recorded: tuple[Path, dict[str, object]],
) -> None:
    path, seen = recorded
    assert seen["resources"] and seen["templates"] and seen["prompts"]  # the demo has all three
    kinds = {line["kind"] for line in lines(path) if line["type"] == "listing"}
    assert {"tools", "resources", "resourceTemplates", "prompts"} <= kinds
    before = child_pids()
    server = await connect_mcp(mcp.replay(name="demo", path=path))
    try:
        assert await server.resources() == seen["resources"]
        assert await server.resource_templates() == seen["templates"]
        assert await server.prompts() == seen["prompts"]
        with pytest.raises(NotOfferedError, match="replayed from .*not resource reads, prompts"):
            await server.read_resource("demo://readme")
        assert child_pids() == before
    finally:
        await server.close()


async def test_an_unrecorded_call_is_refused_naming_the_closest(recorded: tuple[Path, dict[str, object]]) -> None:
    path, _ = recorded
    async with await connect_mcp(mcp.replay(name="demo", path=path)) as server:
        with pytest.raises(UnrecordedCallError) as refused:
            await server.tool("add").call({"a": 2, "b": 4})
        assert refused.value.closest[0] == 'add {"a":2,"b":3}'
        assert 'add {"a":2,"b":3}' in str(refused.value) and str(path) in str(refused.value)
        with pytest.raises(UnrecordedCallError):
            await server.tool("add").call_outcome({"a": 1, "b": 1})  # raised, not kept as a result


async def test_a_missing_or_foreign_file_is_a_connect_error(tmp_path: Path) -> None:
    with pytest.raises(ConnectError, match="Cannot replay 'demo'.*Record one with --record"):
        await connect_mcp(mcp.replay(name="demo", path=tmp_path / "none.jsonl"))
    other = tmp_path / "other.jsonl"
    other.write_text('{"hello": 1}\n', encoding="utf-8")
    with pytest.raises(ConnectError, match="not a recording"):
        await connect_mcp(mcp.replay(name="demo", path=other))
