"""%mcp map and tool.map_sync over a real DataFrame against the demo server: the frame's index and
columns kept, per-row status, error, seconds, output and structured fields, failing and invalid rows
alone, stop-on-error, and the stop button keeping the rows done (the server is told)."""

from __future__ import annotations

import os
import signal
import threading

import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run
from tests.helpers.waiting import wait_until

BOUND = 60.0


def test_a_map_keeps_the_frame_and_adds_one_result_per_row_in_row_order(ip: InteractiveShell, demo: str) -> None:
    frame = pd.DataFrame({"value": list(range(12)), "note": list("abcdefghijkl")}, index=[f"r{i}" for i in range(12)])
    ip.user_ns["_anvia_test_df"] = frame
    out = run(ip, "map demo.jitter --frame _anvia_test_df --concurrency 4 max_delay_seconds=0.05")
    assert list(out.index) == list(frame.index)
    assert list(out.columns[:2]) == ["value", "note"]
    assert list(out.columns[2:6]) == ["status", "error", "seconds", "output"]
    assert list(out["status"]) == ["ok"] * 12
    assert list(out["output"]) == [str(i) for i in range(12)]
    assert list(out["result_value"]) == list(range(12))  # the structured field, renamed beside the column
    assert str(out["delay_seconds"].dtype) == "Float64"  # typed as the outputSchema declares
    assert out["seconds"].notna().all()
    assert get_runtime().calls() == []  # the frame is the map's record, not the history


def test_failing_and_invalid_rows_fail_alone(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_df"] = pd.DataFrame({"value": [1, 2, 3, 4], "fail": [False, True, None, False]})
    ip.user_ns["_anvia_test_bad"] = pd.DataFrame({"a": [1, "x", 3], "b": [1, 1, None]})
    out = run(ip, "map demo.jitter --frame _anvia_test_df max_delay_seconds=0")
    assert list(out["status"]) == ["ok", "tool error", "ok", "ok"]  # an empty cell leaves the argument out
    assert out["error"][1] == "jitter failed on purpose for 2"
    assert out["output"][1] is None
    bad = run(ip, "map demo.add --frame _anvia_test_bad")
    assert list(bad["status"]) == ["ok", "invalid", "invalid"]
    assert bad["error"][1].startswith("not sent: a: 'x' is not of type 'number'")
    assert "'b' is a required property" in bad["error"][2]
    assert bad["sum"].iloc[0] == 2


def test_constants_and_variables_fill_the_other_arguments(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_df"] = pd.DataFrame({"a": [1, 2]})
    ip.user_ns["_anvia_test_b"] = 100
    assert list(run(ip, "map demo.add --frame _anvia_test_df b=$_anvia_test_b")["sum"]) == [101, 102]
    assert list(run(ip, "map demo.add --frame=_anvia_test_df b=1")["sum"]) == [2, 3]


def test_stop_on_error_stops_the_rest(ip: InteractiveShell, demo: str) -> None:
    values = [{"value": 0, "fail": True, "max_delay_seconds": 0}]
    values += [{"value": i, "max_delay_seconds": 10} for i in range(1, 6)]
    ip.user_ns["_anvia_test_df"] = pd.DataFrame(values)
    out = run(ip, "map demo.jitter --frame _anvia_test_df --concurrency 1 --stop-on-error")
    assert list(out["status"]) == ["tool error"] + ["not run"] * 5


def test_each_row_is_bounded_by_the_timeout_given_else_by_the_magics_setting(ip: InteractiveShell, demo: str) -> None:
    # The second row is silent for 60 s (progress would keep it alive: the timeout counts from the
    # last). The bound is 5 s, not less: the first row must finish within it on a busy machine too.
    ip.user_ns["_anvia_test_df"] = pd.DataFrame([{"steps": 0}, {"steps": 1, "delay_seconds": 60}])
    given = run(ip, "map demo.slow --frame _anvia_test_df --timeout 5")
    assert list(given["status"]) == ["ok", "timeout"]
    ip.run_line_magic("config", "McpMagics.timeout_seconds = 5")
    configured = run(ip, "map demo.slow --frame _anvia_test_df")
    assert list(configured["status"]) == ["ok", "timeout"]
    ip.run_line_magic("config", "McpMagics.timeout_seconds = 0.3")
    ip.user_ns["_anvia_test_df"] = pd.DataFrame([{"steps": 1, "delay_seconds": 1}])  # silent for longer than 0.3 s
    assert list(run(ip, "map demo.slow --frame _anvia_test_df --timeout none")["status"]) == ["ok"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("map demo.add --frame _anvia_test_missing", "no variable '_anvia_test_missing'"),
        ("map demo.add", "--frame DF"),
        ("map demo.add --frame _anvia_test_df --concurrency 0", "at least 1"),
        ("map demo.add --frame _anvia_test_df --bogus", "Unknown option '--bogus'"),
        ("map demo.add --frame _anvia_test_df a=1", "both a column of the frame and a constant"),
        ("map demo.add --frame _anvia_test_df c=1", "takes no argument 'c'"),
        ("map demo.add --frame _anvia_test_text", "not a str"),
    ],
)
def test_bad_map_lines_are_one_line_errors_and_nothing_is_sent(
    ip: InteractiveShell, demo: str, line: str, message: str
) -> None:
    ip.user_ns["_anvia_test_df"] = pd.DataFrame({"a": [1, 2]})
    ip.user_ns["_anvia_test_text"] = "not a frame"
    with pytest.raises(UsageError) as info:
        run(ip, line)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_the_stop_button_cancels_the_calls_in_flight_and_returns_the_rows_done(
    ip: InteractiveShell, demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [{"steps": 0}] * 4 + [{"steps": 600, "delay_seconds": 0.1}] * 8
    ip.user_ns["_anvia_test_df"] = pd.DataFrame(rows)
    log = get_runtime().log(demo)
    started_before = log.stderr_text().count("slow started: 600 steps")

    def interrupt_when_the_slow_rows_run() -> None:
        # Four workers: once four slow rows have started, the four quick rows are done.
        started = "slow started: 600 steps"
        wait_until(lambda: log.stderr_text().count(started) >= started_before + 4, "slow rows", seconds=BOUND)
        os.kill(os.getpid(), signal.SIGINT)

    watcher = threading.Thread(target=interrupt_when_the_slow_rows_run, daemon=True)
    watcher.start()
    out = run(ip, "map demo.slow --frame _anvia_test_df --concurrency 4")
    watcher.join(BOUND)
    assert "demo.slow: interrupted after 4 of 12 rows; the calls in flight were cancelled" in capsys.readouterr().err
    assert list(out["status"][:4]) == ["ok"] * 4
    assert list(out["output"][:4]) == ["done after 0 steps"] * 4
    assert list(out["status"][4:8]) == ["cancelled"] * 4
    assert list(out["status"][8:]) == ["not run"] * 4
    wait_until(lambda: log.stderr_text().count("slow cancelled") >= 4, "the server's cancellations", seconds=BOUND)
    assert run(ip, "call demo.echo message=after").output == "after"  # the session is still usable
