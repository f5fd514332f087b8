"""The panel's Log tab gives a server's stderr lines a time, as it gives its log messages: the time
anvia_nb first saw the line in the server's stderr file (it was written no later), never ``--:--:--``.
The server is a real stdio one (tests/servers/log_server.py ``legacy``) that writes to stderr when
it is told a log level."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from anvia_nb import mcp
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import panel
from tests.helpers.waiting import wait_until

SERVER = Path(__file__).parents[1] / "servers" / "log_server.py"
CLOCK = r"\d\d:\d\d:\d\d"


def test_a_stderr_line_in_the_log_tab_has_its_time(runtime: Runtime) -> None:
    runtime.connect(mcp.stdio(name="legacy", command=sys.executable, args=[str(SERVER), "legacy"]), log_level="debug")
    tabs = panel(runtime=runtime).exchange
    wait_until(lambda: runtime.log("legacy").stderr_text(), what="the server to write to stderr")
    shown = wait_until(
        lambda: [line for line in tabs.log_view.value.splitlines() if "log level set to" in line],
        what="the log tab to show the stderr line",
    )
    assert re.search(rf"{CLOCK} stderr: log level set to debug", shown[0]), shown
    assert "--:--:--" not in tabs.log_view.value
