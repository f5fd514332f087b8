"""r.frame(): a result's structured content as a DataFrame, typed by the outputSchema when the tool
declares one; and the one progress line of a map, bounded in rate."""

from __future__ import annotations

import time
from typing import Any

import pandas as pd
import pytest
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.core.api.batch import MapRun
from anvia_nb.core.protocol.limits import MAP_PROGRESS_SECONDS
from anvia_nb.display.map_progress import MapProgress, progress_bundle, progress_text
from anvia_nb.errors import NotTabularError
from anvia_nb.frames._progress import ProgressLine
from anvia_nb.policy import NOT_MATH_CLASSES
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run


def test_a_list_of_records_becomes_a_frame_typed_by_the_output_schema(ip: InteractiveShell, demo: str) -> None:
    frame = run(ip, "call demo.records count=4").frame()
    assert list(frame.columns) == ["id", "name", "price", "in_stock"]  # the outputSchema's order
    assert [str(t) for t in frame.dtypes] == ["Int64", "string", "Float64", "boolean"]
    assert frame["id"].tolist() == [1, 2, 3, 4]
    assert frame["in_stock"].tolist() == [False, True, False, True]


def test_without_an_output_schema_columns_come_in_the_order_first_seen(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_rows"] = [{"b": 1, "a": "x"}, {"a": "y", "c": 2.5}]
    frame = run(ip, "call demo.echo_arguments items=$_anvia_test_rows").frame()
    assert list(frame.columns) == ["b", "a", "c"]
    assert frame["a"].tolist() == ["x", "y"]
    assert frame["b"].isna().tolist() == [False, True]


def test_a_result_that_is_not_a_table_is_a_clear_error(ip: InteractiveShell, demo: str) -> None:
    with pytest.raises(NotTabularError, match=r"demo\.add's structuredContent is a dict holding no single list"):
        run(ip, "call demo.add a=1 b=2").frame()
    with pytest.raises(NotTabularError, match="sent no structuredContent"):
        run(ip, "call demo.echo message=hi").frame()


def test_the_progress_line_says_done_failed_rate_and_time_left() -> None:
    text = progress_text(MapProgress("demo.add", total=64, done=16, failed=2, seconds=4.0))
    assert text.startswith("demo.add [██████░░░░░░░░░░░░░░░░░░] 16/64")
    assert "2 failed" in text and "4.0 rows/s" in text and "about 12 s left" in text
    final = progress_text(MapProgress("demo.add", 64, 64, 0, 8.0, finished=True))
    assert final.endswith("done in 8 s")
    bundle = progress_bundle(MapProgress("<b>$x$</b>", 2, 1, 0, 1.0))
    assert "<b>" not in bundle["text/html"] and NOT_MATH_CLASSES in bundle["text/html"]


def test_the_progress_line_is_updated_at_a_bounded_rate(ip: InteractiveShell, demo: str) -> None:
    tool = get_runtime().server(demo).tool("add")
    run_ = MapRun(tool, [{"a": 1, "b": 2}] * 3)
    line = ProgressLine("demo.add")
    start = time.monotonic()
    for _ in range(2000):
        line.update(run_)
    elapsed = time.monotonic() - start
    assert line.updates <= 1 + elapsed / MAP_PROGRESS_SECONDS
    line.update(run_, final=True)  # the last state is always shown
    assert line.updates >= 2


def test_map_sync_from_python_shows_one_progress_line(ip: InteractiveShell, demo: str) -> None:
    tool = get_runtime().server(demo).tool("add")
    shown: list[object] = []
    ip.display_pub.publish = lambda data, **kwargs: shown.append(data)  # type: ignore[method-assign]
    try:
        out: Any = tool.map_sync(pd.DataFrame({"a": [1, 2, 3]}), constants={"b": 1}, progress=True)
    finally:
        del ip.display_pub.publish
    assert out["sum"].tolist() == [2, 3, 4]
    assert shown and "3/3" in str(shown[-1]) and "done in" in str(shown[-1])
