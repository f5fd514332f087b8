"""What a server may ask of the client: roots, sampling and tasks, against the demo server over
real stdio and streamable HTTP (``ask_model`` asks for sampling, ``long_job`` only runs as a task
on 2026-07-28). One stdio process serves the tests that leave nothing on their connection; a test
that counts or sets something on its connection gets a session of its own on the shared HTTP demo."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from anvia_nb import ProtocolError, TaskCancelledError, connect_mcp, enable_sampling, mcp
from anvia_nb.core import McpServer
from anvia_nb.core.protocol.sampling import DECLINED_MESSAGE, disable_sampling
from anvia_nb.errors import InvalidTypeError, InvalidValueError
from tests.helpers.support import DEMO_ARGS
from tests.helpers.waiting import WAIT_SECONDS, wait_until_async

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    """One event loop for the module, so one stdio connection serves the tests that share it."""
    return "asyncio"


@pytest.fixture(scope="module")
async def shared_demo() -> AsyncIterator[McpServer]:
    """One demo process over stdio for the tests that leave nothing on the connection they share."""
    server = await connect_mcp(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS))
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
def demo(shared_demo: McpServer) -> Iterator[McpServer]:
    """The shared stdio connection; sampling is declined again after each test."""
    try:
        yield shared_demo
    finally:
        disable_sampling(server=shared_demo)
        disable_sampling()


@pytest.fixture
async def fresh(demo_http_url: str) -> AsyncIterator[McpServer]:
    """A new session of the shared demo HTTP process: its own counts and handlers."""
    server = await connect_mcp(mcp.http(name="demo", url=demo_http_url))
    try:
        yield server
    finally:
        disable_sampling()
        await server.close()


# -- sampling --------------------------------------------------------------------------------------


async def test_a_sampling_request_is_declined_with_a_clear_message_and_noted_in_the_log(fresh: McpServer) -> None:
    with pytest.raises(ProtocolError) as caught:
        await fresh.tool("ask_model").call({"question": "2+2?"})
    assert DECLINED_MESSAGE in str(caught.value)
    assert fresh.client.declined_samplings == 1
    assert any("sampling" in entry.text() and "declined" in entry.text() for entry in fresh.client.log.entries)


async def test_an_installed_handler_answers_sampling_on_its_connection_only_when_asked(demo: McpServer) -> None:
    requests: list[dict[str, object]] = []

    def answer(request: dict[str, object]) -> str:
        requests.append(request)
        return "four"

    declined = demo.client.declined_samplings  # the connection is shared: count what this test declines
    enable_sampling(answer, server=demo)
    assert await demo.tool("ask_model").call({"question": "2+2?"}) == "anvia_nb-sampling-handler says: four"
    assert requests[0]["server"] == "demo"
    assert requests[0]["messages"] == [{"role": "user", "content": {"type": "text", "text": "2+2?"}}]
    disable_sampling(server=demo)
    enable_sampling(lambda _request: {"content": {"type": "text", "text": "4"}, "model": "mine"})  # every connection
    assert await demo.tool("ask_model").call({"question": "2+2?"}) == "mine says: 4"
    assert demo.client.declined_samplings == declined


async def test_enable_sampling_refuses_what_is_not_a_function() -> None:
    with pytest.raises(InvalidTypeError):
        enable_sampling("yes please")  # type: ignore[arg-type]


# -- tasks -----------------------------------------------------------------------------------------


async def test_a_task_only_tool_is_listed_as_such_and_called_to_completion(demo: McpServer) -> None:
    tool = demo.tool("long_job")
    assert tool.task_support == "required"
    assert demo.tool("echo").task_support is None
    seen: list[dict[str, object]] = []
    outcome = await tool.call_outcome({"steps": 3, "delay_seconds": 0.01}, on_task=seen.append)
    assert outcome.output == "done after 3 steps" and outcome.error is None
    assert seen[0]["status"] == "working" and seen[-1]["status"] == "completed"
    assert await tool.call_task({"steps": 1, "delay_seconds": 0}) == "done after 1 steps"
    assert await demo.tool("echo").call({"message": "plain calls work as before"}) == "plain calls work as before"


async def test_a_task_in_the_background_reports_its_status_and_ends_with_its_result(demo: McpServer) -> None:
    call = demo.tool("long_job").start({"steps": 3, "delay_seconds": 0.01, "label": "bg"})
    outcome = await call.wait(WAIT_SECONDS)
    assert outcome.output == "bg: done after 3 steps"
    assert call.status == "completed" and call.task_id and call.status_message == "bg: done after 3 steps"


async def test_a_background_task_is_cancelled_and_the_server_is_told(demo: McpServer) -> None:
    call = demo.tool("long_job").start({"steps": 10_000, "delay_seconds": 0.01})
    await wait_until_async(lambda: (call.status_message or "").startswith("step "), "the task to work")
    assert call.cancel()
    outcome = await call.wait(WAIT_SECONDS)
    assert isinstance(outcome.error, TaskCancelledError) and outcome.status == "cancelled"
    assert call.status == "cancelled" and outcome.error.task_id == call.task_id
    await wait_until_async(
        lambda: f"long_job task {call.task_id} cancelled by the client" in demo.client.log.stderr_tail(),
        "the server to say it stopped",
    )
    assert not call.cancel()  # already done


async def test_a_task_that_asks_for_input_is_answered_through_the_elicitation_handler(fresh: McpServer) -> None:
    demo = fresh  # its own session: the handler set here stays on it
    asked: list[dict[str, object]] = []

    async def answer(request: dict[str, object]) -> dict[str, object]:
        asked.append(request)
        return {"action": "accept", "content": {"go_on": True}}

    statuses: list[str] = []
    demo.client.set_elicitation_handler(answer)
    outcome = await demo.tool("long_job").call_outcome(
        {"steps": 2, "delay_seconds": 0.01, "ask": True}, on_task=lambda task: statuses.append(str(task["status"]))
    )
    assert outcome.output == "done after 2 steps"
    assert "input_required" in statuses and len(asked) == 1  # asked once, though every poll repeats it
    assert asked[0]["message"] == "go on after step 1 of 2?" and asked[0]["server"] == "demo"
    demo.client.set_elicitation_handler(None)  # nobody to ask: the request is cancelled, the job stops
    assert await demo.tool("long_job").call({"steps": 2, "delay_seconds": 0.01, "ask": True}) == "stopped after step 1"


async def test_a_call_cancelled_at_once_ends_cancelled_and_never_hangs(demo: McpServer) -> None:
    calls = [demo.tool("long_job").start({"steps": 10_000, "delay_seconds": 0.01}) for _ in range(3)]
    for call in calls:
        call.cancel()
    for call in calls:
        outcome = await call.wait(WAIT_SECONDS)
        assert outcome.status == "cancelled" and call.status == "cancelled"
    assert await demo.tool("echo").call({"message": "still usable"}) == "still usable"


async def test_a_plain_call_can_run_in_the_background_with_its_progress(demo: McpServer) -> None:
    call = demo.tool("slow").start({"steps": 3, "delay_seconds": 0.01})
    outcome = await call.wait(WAIT_SECONDS)
    assert outcome.output == "done after 3 steps" and call.task_id is None
    assert call.progress == (3, 3, "step 3 of 3")


# -- roots -----------------------------------------------------------------------------------------


def test_a_root_that_does_not_exist_is_one_clear_line_before_anything_starts(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(InvalidValueError) as caught:
        mcp.stdio(name="fs", command="never-started", roots=[tmp_path, missing])
    assert str(caught.value) == (
        f"Root {str(missing)!r} does not exist: give an existing directory (create it first, or fix the path)."
    )
    with pytest.raises(InvalidTypeError):
        mcp.http(name="fs", url="http://127.0.0.1:1/mcp", roots=str(tmp_path))
    assert mcp.stdio(name="fs", command="x", roots=[tmp_path, str(tmp_path)]).roots == (str(tmp_path.resolve()),)
