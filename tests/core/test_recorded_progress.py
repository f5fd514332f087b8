"""A recording keeps a bounded number of a call's progress steps, and a recording holding more is
refused before it is parsed.

The recorder keeps at most ``limits.RECORDED_PROGRESS_KEPT`` steps per call, evenly spaced with the
first and the latest among them, and writes how many it dropped (``progressDropped``): a live call of
the demo server's ``slow`` reporting 2,500 steps is recorded and replayed. Reading, a line whose
``progress`` holds more steps than anvia_nb writes is refused in one line naming the file, the line
and the bound, without the parse that would make a list and numbers of each step (tracemalloc's peak
stays within twice the line, where the parse alone takes about eight times it), however its key is
written or placed; a line with many brackets in its text or many arrays in its structured content is
read as before.
"""

from __future__ import annotations

import itertools
import json
import sys
import tracemalloc
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.protocol import limits
from anvia_nb.core.recording.reading import read_recording
from anvia_nb.errors import RecordingFileError
from tests.helpers.support import DEMO_ARGS

pytestmark = pytest.mark.anyio

HEADER = {"type": "recording", "format": 1, "name": "demo", "transport": "stdio", "command": "demo"}
TOOLS = {"type": "listing", "kind": "tools", "items": [{"name": "echo", "inputSchema": {"type": "object"}}]}
RESULT = {"content": [{"type": "text", "text": "done"}]}
MANY = 200_000
"""Steps of a hostile line: 4.4 MB of JSON, whose parse would make about 35 MB of lists and numbers."""


def steps(count: int) -> list[list[object]]:
    return [[index, count, None] for index in range(count)]


def write(path: Path, *lines: str) -> Path:
    path.write_text("\n".join([json.dumps(HEADER), json.dumps(TOOLS), *lines]) + "\n", encoding="utf-8")
    return path


def call(**fields: object) -> str:
    return json.dumps({"type": "call", "tool": "echo", "arguments": {}, **fields})


async def test_a_call_of_many_progress_steps_is_recorded_evenly_spaced_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "slow.jsonl"
    heard: list[float] = []

    async def live(value: float, total: float | None, message: str | None) -> None:
        heard.append(value)

    connection = mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS, record=path)
    async with await connect_mcp(connection) as server:
        await server.tool("slow").call_outcome({"steps": 2_500, "delay_seconds": 0}, on_progress=live)
    line = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    kept = [step[0] for step in line["progress"]]
    assert len(heard) == 2_500 and len(kept) <= limits.RECORDED_PROGRESS_KEPT
    assert line["progressDropped"] == 2_500 - len(kept)
    assert kept[0] == heard[0] == 1 and kept[-1] == heard[-1] == 2_500  # the first and the latest
    gaps = {after - before for before, after in itertools.pairwise(kept[:-1])}
    assert len(gaps) == 1, gaps  # evenly spaced
    assert line["progress"][-1] == [2_500, 2_500, "step 2500 of 2500"]
    replayed: list[float] = []

    async def again(value: float, total: float | None, message: str | None) -> None:
        replayed.append(value)

    async with await connect_mcp(mcp.replay(name="demo", path=path)) as server:
        outcome = await server.tool("slow").call_outcome({"steps": 2_500, "delay_seconds": 0}, on_progress=again)
    assert replayed == kept and outcome.progress[-1] == (2_500, 2_500, "step 2500 of 2500")
    assert outcome.output == "done after 2500 steps"


def refused_within_twice_the_line(path: Path) -> str:
    """The error reading ``path`` raised, checked to have allocated at most twice its last line (the
    line itself is read once, whole)."""
    size = len(path.read_bytes().splitlines()[-1])
    tracemalloc.start()
    try:
        with pytest.raises(RecordingFileError) as info:
            read_recording(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= 2 * size, f"reading allocated {peak:,} bytes for a line of {size:,}"
    message = str(info.value)
    assert len(message.splitlines()) == 1
    return message


@pytest.mark.parametrize(
    "line",
    [
        call(progress=steps(MANY), result=RESULT),
        call(result=RESULT, progress=steps(MANY)),  # after the result
        call(progress=steps(MANY), result=RESULT).replace('"progress"', '"progr\\u0065ss"'),  # an escaped key
        call(progress=steps(3), result=RESULT)[:-1] + ', "progress": ' + json.dumps(steps(MANY)) + "}",  # twice
        call(progress=[[i, None, "a [step] of ]text["] for i in range(MANY)], result=RESULT),
        call(progress=[[[i]] for i in range(MANY)], result=RESULT),  # no steps, but as many items
        call(progress=list(range(MANY)), arguments={"rows": [[1]] * 2_000}, result=RESULT),
    ],
    ids=["first", "last", "escaped-key", "twice", "messages", "nested", "numbers"],
)
def test_more_steps_than_anvia_nb_records_are_refused_before_they_are_parsed(tmp_path: Path, line: str) -> None:
    path = write(tmp_path / "many.jsonl", line)
    message = refused_within_twice_the_line(path)
    most = f"{limits.RECORDED_PROGRESS_KEPT:,}"
    assert f"{path}:3: the call's progress holds more than {most} steps" in message
    assert "RECORDED_PROGRESS_KEPT" in message and "Record the call again" in message


def test_a_line_of_many_arrays_that_is_no_object_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = write(tmp_path / "list.jsonl", json.dumps(steps(MANY)))
    assert f"{path}:3 is not a recording line" in refused_within_twice_the_line(path)


async def test_a_line_of_many_brackets_in_text_or_arrays_in_structured_content_is_read(tmp_path: Path) -> None:
    text = "[[x]] " * 100_000  # 200,000 brackets inside a string
    structured = {"rows": [[i, i + 1] for i in range(20_000)], "progress": [[i, 1, None] for i in range(5_000)]}
    at_the_bound = steps(limits.RECORDED_PROGRESS_KEPT)
    path = write(
        tmp_path / "big.jsonl",
        call(
            arguments={"message": "text"}, progress=at_the_bound, result={"content": [{"type": "text", "text": text}]}
        ),
        call(
            arguments={"message": "rows", "rows": [[1]] * 5_000},
            progress=at_the_bound,
            progressDropped=7,
            result={"content": [], "structuredContent": structured},
        ),
    )
    assert len(read_recording(path).calls) == 2
    async with await connect_mcp(mcp.replay(name="demo", path=path)) as server:
        told = await server.tool("echo").call_outcome({"message": "text"})
        rows = await server.tool("echo").call_outcome({"message": "rows", "rows": [[1]] * 5_000})
    assert told.output == text and told.progress[-1] == (999, 1_000, None)
    assert rows.structured == structured


def test_a_dropped_count_that_is_no_count_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "dropped.jsonl", call(progress=steps(2), progressDropped=-1, result=RESULT))
    with pytest.raises(RecordingFileError, match=r":3: the call's progressDropped is not a count"):
        read_recording(path)
