"""A test file written by ``%mcp history --to-pytest`` compares dates and times loosely by default
(they change between runs), says so in a comment, and passes when run again later with the
command it printed, from the repository's root, where pyproject's ``addopts`` force nbval."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.runtime.to_pytest import TIMES, run_command
from tests.helpers.magic import run
from tests.helpers.support import REPO

SERVER = Path(__file__).parents[1] / "servers" / "changing_server.py"


def test_the_printed_command_leaves_the_folders_configuration_out() -> None:
    words = shlex.split(run_command("notebooks/test_x.py"))
    assert words[1:3] == ["-m", "pytest"] and "--noconftest" in words
    assert words[words.index("-c") + 1] == os.devnull and words[-1] == str(REPO / "notebooks" / "test_x.py")


def test_times_dates_and_weekdays_become_words() -> None:
    import re

    text = "2026-12-03T14:05:56.123+00:00, on 2026-12-03 at 9:41 pm, a Thursday; version 1.2.3"
    for pattern, word in TIMES:
        text = re.sub(pattern, word, text)
    assert text == "<datetime>, on <date> at <time>, a <weekday>; version 1.2.3"


@pytest.mark.slow  # runs the written file in a pytest of its own
def test_a_time_seen_is_compared_loosely_and_the_file_passes_later(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("21", encoding="utf-8")
    run(ip, f"connect reader --stdio {sys.executable} {SERVER} {answer}")
    run(ip, "call reader.reading")
    written = REPO / f".anvia-times-{os.getpid()}" / "test_times.py"
    try:
        capsys.readouterr()
        run(ip, f"history --to-pytest {written} --loose id")
        printed = capsys.readouterr().out
        source = written.read_text(encoding="utf-8")
        assert "# dates, times and weekdays change between runs" in source
        assert "assert timeless(loosened(outcome.structured)) == {" in source and "'time': '<datetime>'" in source
        command = printed.split("run it with: ", 1)[1].splitlines()[0]
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        env.pop("PYTEST_CURRENT_TEST", None)
        passed = subprocess.run(
            shlex.split(command), cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False
        )
        assert passed.returncode == 0 and "1 passed" in passed.stdout, passed.stdout + passed.stderr
    finally:
        shutil.rmtree(written.parent, ignore_errors=True)
        run(ip, "close reader")
