"""``%mcp trace NAME --call -1`` after a call that became a task shows the task's polls and its
result as part of the call, not just ``tools/call`` and its first answer."""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell

from tests.helpers.magic import run


def test_trace_of_a_task_call_shows_its_polls_and_result(ip: InteractiveShell, demo: str) -> None:
    assert run(ip, "call demo.long_job steps=2 delay_seconds=0.05").outcome.output == "done after 2 steps"
    call = run(ip, "trace demo --call -1")
    summaries = list(call["summary"])
    assert summaries[0].startswith("tools/call long_job")
    assert summaries[1].startswith("result: task ") and "no content" not in summaries[1]
    assert any(text.startswith("tasks/get") for text in summaries)
    assert summaries[-1].endswith("completed: done after 2 steps; result: text"), summaries
