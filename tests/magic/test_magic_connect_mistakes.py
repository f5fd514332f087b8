"""A new user's connect mistakes, each answered in one line that says what to type: a server's
command without ``--stdio`` before it, and a first ``npx`` download that runs past the connect limit
(``--timeout S`` is taken for stdio too, and the message names it and the setting)."""

from __future__ import annotations

import sys

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run

# A real process that starts and never answers the handshake, as `npx` does while it downloads.
SILENT = f"{sys.executable} -c 'import sys; sys.stdin.read()'"


@pytest.mark.parametrize(
    ("line", "fixed"),
    [
        ("connect fs python -m mcp_server_fs /tmp", "%mcp connect fs --stdio python -m mcp_server_fs /tmp"),
        ("connect fs npx -y @scope/server-fs /tmp", "%mcp connect fs --stdio npx -y @scope/server-fs /tmp"),
        ("connect fs uvx mcp-server-time", "%mcp connect fs --stdio uvx mcp-server-time"),
    ],
)
def test_a_command_without_stdio_gets_the_line_that_works(ip: InteractiveShell, line: str, fixed: str) -> None:
    with pytest.raises(UsageError) as caught:
        run(ip, line)
    message = str(caught.value)
    assert message.endswith(fixed), message
    assert "\n" not in message and len(message) < 160, message  # one line, not the usage of every form
    assert "fs" not in get_runtime().names()


def test_a_stdio_connect_takes_timeout_and_a_slow_one_names_the_settings(ip: InteractiveShell) -> None:
    with pytest.raises(UsageError) as caught:
        run(ip, f"connect slowstart --timeout 1 --stdio {SILENT}")
    message = str(caught.value)
    assert "did not finish connecting within 1 s" in message  # --timeout 1, not the 30 s default
    assert "--timeout S on the connect line" in message
    assert "%config McpMagics.connect_timeout_seconds = S" in message
    assert "connect(timeout_seconds" not in message  # the Python API's words are not the magic's
    assert "slowstart" not in get_runtime().names()
