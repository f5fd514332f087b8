"""``%mcp history --to-pytest FILE``: a session's calls become a test file that is then run.

The server is a tiny one whose answer is read from a file (tests/servers/changing_server.py): the
written tests pass against it as it was, and fail with pytest's diff once its answer changes.
Its ``time`` and ``id`` differ on every call, so they are checked by type only (``--loose``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.subcommands import parse_command
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import DEMO_STDIO, run
from tests.helpers.support import REPO

SERVER = Path(__file__).parents[1] / "servers" / "changing_server.py"
SECRET = "history-Secret-Token-4242"


def run_pytest(path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    env.pop("PYTEST_CURRENT_TEST", None)
    # A written file needs pytest alone: no installed plugin (hypothesis, anyio, xdist, nbval...) is
    # loaded, which saves the nested run their imports; its tests still run for real.
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)],
        cwd=path.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow  # runs the written file twice in a pytest of its own
def test_the_written_tests_pass_against_the_same_server_and_fail_when_it_changes(
    ip: InteractiveShell, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("21", encoding="utf-8")
    monkeypatch.setenv("ANVIA_TEST_TOKEN", SECRET)
    run(ip, f"connect reader --secret-env ANVIA_TEST_TOKEN --stdio {sys.executable} {SERVER} {answer}")
    run(ip, f"connect plain {DEMO_STDIO}")
    run(ip, "call reader.reading")
    run(ip, "call reader.reading unit=C")
    run(ip, "call plain.add a=2 b=3")
    run(ip, "call plain.fail message=broken")
    written = tmp_path / "test_session.py"
    capsys.readouterr()
    run(ip, f"history --to-pytest {written} --loose time,id")
    assert f"wrote {written}: 4 calls as tests" in capsys.readouterr().out
    source = written.read_text(encoding="utf-8")
    assert SECRET not in source and "os.environ['ANVIA_TEST_TOKEN']" in source
    assert "assert loosened(outcome.structured) == {'value': '21C', 'time': '<str>', 'id': '<str>'}" in source
    assert "assert outcome.status == 'tool error'" in source
    compile(source, str(written), "exec")

    passed = run_pytest(written)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "4 passed" in passed.stdout

    answer.write_text("22", encoding="utf-8")
    failed = run_pytest(written)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "2 failed, 2 passed" in failed.stdout
    assert "assert '22' == '21'" in failed.stdout  # pytest's own readable diff
    run(ip, "close reader plain")


def test_only_the_named_connections_are_written(ip: InteractiveShell, tmp_path: Path, demo_http_url: str) -> None:
    run(ip, f"connect one --http {demo_http_url}")
    run(ip, "call one.add a=1 b=1")
    written = tmp_path / "test_one.py"
    run(ip, f"history --to-pytest {written} one")
    assert "runtime.call('one', 'add', {'a': 1, 'b': 1})" in written.read_text(encoding="utf-8")
    with pytest.raises(UsageError, match="The history has no calls to 'other'"):
        run(ip, f"history --to-pytest {written} other")
    run(ip, "close one")
    with pytest.raises(UsageError, match="No call can be written: one is closed"):
        run(ip, f"history --to-pytest {written}")


def test_history_options_without_a_file_are_refused() -> None:
    with pytest.raises(ValueError, match="go with --to-pytest FILE"):
        parse_command("history --loose time")
    with pytest.raises(ValueError, match="--to-pytest needs a value"):
        parse_command("history --to-pytest")


@pytest.mark.slow  # runs the written file in a pytest of its own
def test_a_replayed_session_is_written_as_a_replay_and_its_tests_pass(
    ip: InteractiveShell, tmp_path: Path, demo_http_url: str
) -> None:
    recording = tmp_path / "demo.jsonl"
    run(ip, f"connect live --record {recording} --http {demo_http_url}")
    run(ip, "call live.add a=2 b=3")
    run(ip, "close live")
    get_runtime().history.clear()  # only the replayed call is written
    run(ip, f"connect live --replay {recording}")
    run(ip, "call live.add a=2 b=3")
    written = tmp_path / "test_replayed.py"
    run(ip, f"history --to-pytest {written}")
    source = written.read_text(encoding="utf-8")
    assert f"runtime.connect(mcp.replay(name='live', path={str(recording)!r}))" in source
    passed = run_pytest(written)
    assert passed.returncode == 0 and "1 passed" in passed.stdout, passed.stdout + passed.stderr
    run(ip, "close live")
