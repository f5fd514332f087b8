"""What ``%mcp connect`` says: every server of a config file that can connect does, with one line
per failure; a second connect of an open name says it restarts the server; a crashing server's
traceback keeps its lines (masked, specials visible, bounded)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run
from tests.helpers.support import DEMO_ARGS, DEMO_STDIO

DEMO = {"command": sys.executable, "args": DEMO_ARGS}
CRASHING = """\
def outer():
    inner()


def inner():
    raise ValueError("boom \\x1b[2J <b>x</b> " + "long " * 400)


outer()
"""


def test_a_config_file_connects_every_server_that_can_and_says_why_one_failed(
    ip: InteractiveShell, tmp_path: Path
) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"cfg_one": DEMO, "cfg_bad": {"command": "false"}, "cfg_two": DEMO}}))
    with capture_output() as captured:
        run(ip, f"connect --config {path}")
    names = get_runtime().names()
    assert "cfg_one" in names and "cfg_two" in names and "cfg_bad" not in names
    failures = [line for line in captured.stderr.splitlines() if "cfg_bad" in line]
    assert len(failures) == 1, captured.stderr
    assert "cfg_bad not connected" in failures[0] and "closed the connection" in failures[0]


def test_a_config_file_whose_every_server_fails_is_an_error_with_one_line_each(
    ip: InteractiveShell, tmp_path: Path
) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"cfg_bad": {"command": "false"}, "cfg_worse": {"command": "false"}}}))
    with pytest.raises(UsageError) as error:
        run(ip, f"connect --config {path}")
    lines = str(error.value).splitlines()
    assert [line.split(" ")[0] for line in lines] == ["cfg_bad", "cfg_worse"]


def test_connecting_an_open_name_again_says_the_server_restarts(ip: InteractiveShell) -> None:
    run(ip, f"connect again {DEMO_STDIO}")
    first = get_runtime().server("again")
    with capture_output() as captured:
        run(ip, f"connect again {DEMO_STDIO}")
    restarted = "note: again was already connected: its server is stopped and started again."
    assert captured.stdout.splitlines()[0] == restarted
    assert get_runtime().server("again") is not first


def test_a_crashing_servers_traceback_keeps_its_lines_bounded_and_visible(ip: InteractiveShell, tmp_path: Path) -> None:
    script = tmp_path / "crashing.py"
    script.write_text(CRASHING)
    with pytest.raises(UsageError) as error:
        run(ip, f"connect crash --stdio {sys.executable} {script}")
    text = str(error.value)
    lines = text.splitlines()
    assert "Traceback (most recent call last):" in [line.strip() for line in lines]
    assert any(line.strip() == "inner()" for line in lines)  # its own line, indentation kept
    assert any(line.lstrip().startswith("ValueError: boom") for line in lines)
    assert "\x1b" not in text  # the escape sequence is made visible, not obeyed
    assert all(len(line) <= 500 for line in lines) and len(text) <= 4_000 + len(lines)
    assert lines[-1] == "%mcp log crash shows the whole log."
