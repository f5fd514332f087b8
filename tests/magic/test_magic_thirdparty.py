"""%mcp against a server nobody here wrote: mcp-server-time from PyPI, in its own virtualenv.

scripts/setup-test installs it (the test installs nothing); without it the test is skipped with
the reason, except in CI, where a missing server is a failure.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run
from tests.helpers.support import require_setup, servers_venv
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.thirdparty


@pytest.fixture(scope="session")
def time_server() -> str:
    """Path of the ``mcp-server-time`` executable scripts/setup-test installed."""
    venv = servers_venv()
    require_setup(venv / "anvia-ready", "mcp-server-time")
    executable = venv / "bin" / "mcp-server-time"
    assert executable.exists(), f"{executable} is missing: run scripts/setup-test again"
    return str(executable)


def test_a_third_party_time_server_connects_lists_calls_and_closes(
    ip: InteractiveShell,
    time_server: str,
    live_children: Callable[[], set[int]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = live_children()
    run(ip, f"connect time --stdio {time_server} --local-timezone UTC")
    line = capsys.readouterr().out.strip()
    assert line.startswith("time: stdio · mcp-time") and line.endswith("tools"), line
    tools = run(ip, "tools time")
    assert {"get_current_time", "convert_time"} <= set(tools["name"])
    now = run(ip, 'call time.get_current_time {"timezone": "Europe/Paris"}')
    assert not now.is_error and "Europe/Paris" in str(now.output)
    converted = run(ip, "call time.convert_time source_timezone=UTC time=12:00 target_timezone=Asia/Tokyo")
    assert "21:00" in str(converted.output)
    bad = run(ip, "call time.get_current_time timezone=Not/AZone")
    assert bad.is_error  # the server's own error, shown as an error, not raised
    assert list(run(ip, "history")["status"]) == ["ok", "ok", "tool error"]
    run(ip, "close time")
    assert "time" not in get_runtime().names()
    wait_until(lambda: live_children() <= before, "mcp-server-time to exit")
