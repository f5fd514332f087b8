"""``%mcp call`` and ``%mcp map`` take ``--max-time S`` (the whole call's bound, progress or not)
beside ``--timeout S`` (counted again from each progress notification), and the
``McpMagics.max_time_seconds`` setting when no ``--max-time`` is given; the setting bounds the
calls of ``%mcp form`` and ``%mcp panel`` too."""

from __future__ import annotations

import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.errors import ToolTimeoutError
from tests.helpers.magic import run
from tests.helpers.waiting import WAIT_SECONDS

PROGRESSING = "steps=60 delay_seconds=0.05"  # three seconds of progress, one every 0.05 s
ENDLESS = "steps=10000 delay_seconds=0.05"


def test_a_call_reporting_progress_outlives_its_timeout(ip: InteractiveShell, demo: str) -> None:
    view = run(ip, f"call demo.slow {PROGRESSING} --timeout 1")
    assert view.outcome.error is None, view.outcome.error
    assert view.outcome.output == "done after 60 steps"


@pytest.mark.parametrize("option", ["--max-time 1.5", "--max-time=1.5"])
def test_max_time_ends_a_call_that_keeps_reporting_progress(ip: InteractiveShell, demo: str, option: str) -> None:
    view = run(ip, f"call demo.slow {ENDLESS} --timeout 5 {option}")
    assert isinstance(view.outcome.error, ToolTimeoutError)
    assert "after 1.5 s, its overall limit" in str(view.outcome.error)
    assert view.outcome.arguments == {"steps": 10000, "delay_seconds": 0.05}


def test_the_setting_bounds_a_call_given_no_max_time(ip: InteractiveShell, demo: str) -> None:
    ip.run_line_magic("config", "McpMagics.max_time_seconds = 1.5")
    view = run(ip, f"call demo.slow {ENDLESS} --timeout 5")
    assert "after 1.5 s, its overall limit" in str(view.outcome.error)


def test_a_map_takes_max_time(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_df"] = pd.DataFrame([{"steps": 10000, "delay_seconds": 0.05}])
    frame = run(ip, "map demo.slow --frame _anvia_test_df --timeout 5 --max-time 1.5")
    assert list(frame["status"]) == ["timeout"]


def test_max_time_needs_seconds(ip: InteractiveShell, demo: str) -> None:
    with pytest.raises(UsageError, match="--max-time takes a number of seconds"):
        run(ip, "call demo.slow --max-time soon")


def test_the_setting_bounds_a_forms_call_and_the_panels(ip: InteractiveShell, demo: str) -> None:
    ip.run_line_magic("config", "McpMagics.max_time_seconds = 1.5")
    ip.run_line_magic("config", "McpMagics.timeout_seconds = 5")
    made = run(ip, "form demo.slow")
    assert made.max_time_seconds == 1.5
    made.arguments.field("steps").input.value = "10000"
    made.arguments.field("delay_seconds").input.value = "0.05"
    made.call_button.click()
    outcome = made.wait(WAIT_SECONDS)
    assert outcome is not None and "after 1.5 s, its overall limit" in str(outcome.error)
    explorer = run(ip, "panel demo")
    explorer.tools.value = "slow"
    assert explorer.form is not None and explorer.form.max_time_seconds == 1.5
