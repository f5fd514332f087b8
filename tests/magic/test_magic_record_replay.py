"""``%mcp connect NAME --record FILE`` and ``--replay FILE``: a class without a server.

The demo server and a third-party server (mcp-server-time, cached by scripts/setup-test) are
recorded live; the replay starts no process, shows its results as the live ones were shown, says
"replayed from FILE" in the provenance, and refuses a call that was not recorded in one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb import __version__
from anvia_nb.magic.subcommands import parse_command
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import DEMO_STDIO, run
from tests.helpers.support import child_pids, require_setup, servers_venv

SECRET = "kernel-Secret-Token-55555"


def test_record_then_replay_shows_the_same_results(
    ip: InteractiveShell, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "demo.jsonl"
    monkeypatch.setenv("ANVIA_TEST_TOKEN", SECRET)
    run(ip, f"connect rec --secret-env ANVIA_TEST_TOKEN --record {path} {DEMO_STDIO}")
    assert f"recording to {path}" in capsys.readouterr().out
    live = run(ip, "call rec.add a=2 b=3")
    echoed = run(ip, "call rec.env_value name=ANVIA_TEST_TOKEN")
    assert echoed.output == SECRET
    run(ip, "close rec")
    text = path.read_text(encoding="utf-8")
    assert SECRET not in text
    assert "--secret-env" not in json.loads(text.splitlines()[0])["command"]  # the server's command line

    before = child_pids()
    run(ip, f"connect rec --replay {path}")
    assert capsys.readouterr().out.startswith(f"rec: replayed from {path} · anvia-demo {__version__}")
    assert child_pids() == before
    tools = run(ip, "tools rec")
    assert "add" in set(tools["name"])
    replayed = run(ip, 'call rec.add {"b": 3, "a": 2}')
    assert replayed.output == live.output and replayed.structured == live.structured
    plain = replayed._repr_mimebundle_()["text/plain"]
    assert f"replayed from {path}" in plain.splitlines()[0]
    html = replayed._repr_mimebundle_()["text/html"]
    assert "anvia-origin" in html and f"replayed from {path}" in html
    servers = run(ip, "servers")
    assert f"replayed from {path}" in set(servers["target"])
    with pytest.raises(UsageError, match=r'closest recorded: add \{"a":2,"b":3\}'):
        run(ip, "call rec.add a=2 b=4")
    assert child_pids() == before


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("connect x --replay f.jsonl --stdio python", "--replay FILE answers from a recording"),
        ("connect x --replay f.jsonl --record g.jsonl", "--replay FILE answers from a recording"),
        ("connect --config servers.json --record f.jsonl", "--record and --replay take one named connection"),
        ("connect x --record", "--record needs a value"),
    ],
)
def test_record_and_replay_options_that_cannot_work_are_refused(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_command(line)


@pytest.mark.thirdparty
def test_a_third_party_server_is_recorded_and_replayed(
    ip: InteractiveShell, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    venv = servers_venv()
    require_setup(venv / "anvia-ready", "mcp-server-time")
    path = tmp_path / "time.jsonl"
    run(ip, f"connect time --record {path} --stdio {venv / 'bin' / 'mcp-server-time'} --local-timezone UTC")
    converted = run(ip, "call time.convert_time source_timezone=UTC time=12:00 target_timezone=Asia/Tokyo")
    run(ip, "close time")
    capsys.readouterr()
    before = child_pids()
    run(ip, f"connect time --replay {path}")
    assert "mcp-time" in capsys.readouterr().out
    again = run(ip, "call time.convert_time source_timezone=UTC time=12:00 target_timezone=Asia/Tokyo")
    assert again.output == converted.output and "21:00" in str(again.output)
    assert {"get_current_time", "convert_time"} <= {t.name for t in get_runtime().server("time").tools}
    assert child_pids() == before
    run(ip, "close time")
