"""Secrets from every source a connect line or a config file has, searched for in everything the
kernel shows or writes: ``repr`` and ``target()``, ``%mcp servers``, results, errors, ``%mcp
trace`` (and ``TraceFrame.message`` / ``.json``), ``%mcp log``, a recording and a
``%mcp history --to-pytest`` file, which is then run with the command it printed, from the
repository's root (where pyproject's ``addopts`` force nbval).

Sources: ``--env NAME`` and ``--secret-env NAME`` (the kernel's own values), ``$NAME`` and
``${NAME}`` in a connect line, ``${VAR}`` in a config file's args, env and headers, and well-known
token formats given under names without a marker. A real demo server echoes each back."""

from __future__ import annotations

import json
import os
import pickle
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.core.api.connections import StdioConnection
from anvia_nb.magic.parse.commands import ConnectCommand
from anvia_nb.magic.parse.connect import expand_environ
from anvia_nb.magic.subcommands import parse_command
from anvia_nb.policy import MASK
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import DEMO_STDIO, displayed, run
from tests.helpers.support import DEMO_ARGS, REPO

FROM_ENV = "envval-4c1d9e2b7a60"  # --env NAME
SECRET_ENV = "secretenv-8b2f6a1c9d33"  # --secret-env NAME
DOLLAR = "dollar-5e7a1b3c9f02"  # $NAME in the line
BRACED = "braced-2a9c4e6f8b17"  # ${NAME} in the line
GITHUB_PAT = "github_pat_11ABCDEFG0aBcDeFgHiJkLmNoPqRsTuV"  # a format, under a name without a marker
ANTHROPIC = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm"
SOURCES = {
    "ANVIA_T_PLAIN": FROM_ENV,
    "ANVIA_T_HIDDEN": SECRET_ENV,
    "ANVIA_T_DOLLAR": DOLLAR,
    "ANVIA_T_BRACED": BRACED,
    "GITHUB_PAT": GITHUB_PAT,  # the kernel has them too: a test file can read them by name
    "ANVIA_T_KEY": ANTHROPIC,
}
ALL = (FROM_ENV, SECRET_ENV, DOLLAR, BRACED, GITHUB_PAT, ANTHROPIC)


def leaked(text: str, secrets: tuple[str, ...] = ALL) -> list[str]:
    return [secret for secret in secrets if secret in text]


def text_of(value: Any) -> str:
    """Everything a value shows: its repr, its text and its HTML."""
    html = getattr(value, "_repr_html_", None)
    return repr(value) + str(value) + (html() or "" if callable(html) else "")


@pytest.fixture
def environ(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in SOURCES.items():
        monkeypatch.setenv(name, value)


def test_dollar_names_expand_from_the_environment_as_a_shell_would() -> None:
    environ = {"A": "x y", "B": "it's"}
    assert expand_environ("--x $A", environ) == ("--x 'x y'", {"A": "x y"})
    line, taken = expand_environ("--x \"${B}/1\" '$A' \\$A", environ)
    assert shlex.split(line) == ["--x", "it's/1", "$A", "$A"] and taken == {"B": "it's"}
    with pytest.raises(ValueError, match=r"\$NOPE: the kernel has no environment variable NOPE"):
        expand_environ("--stdio srv $NOPE", environ)


def test_every_value_from_the_environment_is_a_secret_of_the_connection(environ: None) -> None:
    line = (
        "connect s --env ANVIA_T_PLAIN --secret-env ANVIA_T_HIDDEN --env GITHUB_PAT="
        + GITHUB_PAT
        + " --stdio srv --note $ANVIA_T_DOLLAR --mode=${ANVIA_T_BRACED} "
        + ANTHROPIC
    )
    command = parse_command(line)
    assert isinstance(command, ConnectCommand)
    assert command.from_environ == {"ANVIA_T_DOLLAR": DOLLAR, "ANVIA_T_BRACED": BRACED}
    assert command.args == ("--note", DOLLAR, f"--mode={BRACED}", ANTHROPIC)


def _demo_line(name: str, record: Path) -> str:
    return (
        f"connect {name} --record {record} --env ANVIA_T_PLAIN --secret-env ANVIA_T_HIDDEN "
        f"--env GITHUB_PAT={GITHUB_PAT} --env NOTE=${{ANVIA_T_BRACED}} "
        f"--stdio {sys.executable} -X anvia_note=$ANVIA_T_DOLLAR -X anvia_key={ANTHROPIC} {' '.join(DEMO_ARGS)}"
    )


@pytest.mark.slow  # runs the written test file in a pytest of its own, from the repository's root
def test_no_surface_and_no_file_shows_a_secret_of_any_source(
    ip: InteractiveShell, tmp_path: Path, environ: None, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = tmp_path / "demo.jsonl"
    run(ip, _demo_line("sec", recording))
    connection = get_runtime().server("sec").connection
    assert isinstance(connection, StdioConnection)
    assert set(ALL) <= set(connection.secrets())
    assert not leaked(repr(connection)) and not leaked(connection.target())
    pickled = pickle.dumps(connection)  # what a Dask worker is sent: every secret as its variable's name
    assert not leaked(pickled.decode("latin-1")) and pickle.loads(pickled) == replace(connection, record=None)
    shown: list[str] = [capsys.readouterr().out, text_of(run(ip, "servers"))]
    for secret in ALL:  # the server echoes each, as a result and as an error
        value, bundles = displayed(ip, f"call sec.echo message='seen {secret}'")
        shown += [text_of(value), json.dumps(bundles, ensure_ascii=False)]
        value, bundles = displayed(ip, f"call sec.fail message='broke {secret}'")
        shown += [text_of(value), json.dumps(bundles, ensure_ascii=False)]
    for name in ("ANVIA_T_PLAIN", "ANVIA_T_HIDDEN", "GITHUB_PAT", "NOTE"):
        value, bundles = displayed(ip, f"call sec.env_value name={name}")
        shown += [text_of(value), json.dumps(bundles, ensure_ascii=False)]
    trace = run(ip, "trace sec")
    shown.append(text_of(trace))
    for number in trace.index:
        shown += [trace.json(number), json.dumps(trace.message(number), ensure_ascii=False)]
    shown.append(text_of(run(ip, "log sec")))
    shown.append(text_of(run(ip, "history")))
    written = REPO / f".anvia-secrets-{os.getpid()}" / "test_secret_session.py"
    try:
        run(ip, f"history --to-pytest {written} sec")
        printed = capsys.readouterr().out
        source = written.read_text(encoding="utf-8")
        assert not leaked(printed) and not leaked(source), source
        assert "os.environ['ANVIA_T_PLAIN']" in source and "os.environ['ANVIA_T_DOLLAR']" in source
        assert "# secrets are read from the environment when the test runs, never written here" in source
        run(ip, "close sec")
        shown.append(recording.read_text(encoding="utf-8"))
        assert MASK in shown[-1]
        assert not [(index, leaked(text)) for index, text in enumerate(shown) if leaked(text)]

        command = printed.split("run it with: ", 1)[1].splitlines()[0]
        env = {**os.environ, "PYTHONPATH": str(REPO)}  # the secrets too: the test reads them
        env.pop("PYTEST_CURRENT_TEST", None)
        passed = subprocess.run(
            shlex.split(command), cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False
        )
        assert passed.returncode == 0, passed.stdout + passed.stderr
        assert f"{len(ALL) * 2 + 4} passed" in passed.stdout
    finally:
        shutil.rmtree(written.parent, ignore_errors=True)


def test_a_secret_no_variable_holds_is_read_by_its_key_or_refused_saying_how(
    ip: InteractiveShell, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    typed = "typed-9f8e7d6c5b4a"
    monkeypatch.delenv("API_TOKEN", raising=False)
    run(ip, f"connect typed --env API_TOKEN={typed} {DEMO_STDIO}")
    run(ip, "call typed.add a=1 b=2")
    written = tmp_path / "test_typed.py"
    run(ip, f"history --to-pytest {written}")  # an env value: read from a variable of its name
    source = written.read_text(encoding="utf-8")
    assert typed not in source and "env={'API_TOKEN': os.environ['API_TOKEN']}" in source
    assert "Reads from the environment (never written here): API_TOKEN." in source
    run(ip, "close typed")
    get_runtime().history.clear()
    run(ip, f"connect typed2 --stdio {sys.executable} -X api_key={typed} {' '.join(DEMO_ARGS)}")
    run(ip, "call typed2.add a=1 b=2")
    with pytest.raises(UsageError, match=r"typed2's command line holds a secret.*--secret-env NAME, \$NAME"):
        run(ip, f"history --to-pytest {tmp_path / 'test_x.py'}")
    assert not (tmp_path / "test_x.py").exists()


def test_a_config_file_value_from_the_environment_is_a_secret_in_every_field(
    ip: InteractiveShell, tmp_path: Path, environ: None, demo_http_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "cfg": {
                        "command": sys.executable,
                        "args": ["-X", "note=${ANVIA_T_DOLLAR}", *DEMO_ARGS],
                        "env": {"TEAM": "${env:ANVIA_T_PLAIN}"},
                    },
                    "web": {"url": demo_http_url, "headers": {"X-Team": "${ANVIA_T_BRACED}"}},
                }
            }
        ),
        encoding="utf-8",
    )
    run(ip, f"connect --config {config}")
    shown = [capsys.readouterr().out, text_of(run(ip, "servers"))]
    for name in ("cfg", "web"):
        connection = get_runtime().server(name).connection
        shown += [repr(connection), connection.target()]
        message = f"{DOLLAR} {FROM_ENV}" if name == "cfg" else BRACED  # each connection's own secrets
        _, bundles = displayed(ip, f"call {name}.echo message='{message}'")
        shown.append(json.dumps(bundles, ensure_ascii=False))
        trace = run(ip, f"trace {name}")
        shown += [trace.json(n) for n in trace.index]
    with tempfile.TemporaryDirectory() as folder:
        written = Path(folder) / "test_cfg.py"
        run(ip, f"history --to-pytest {written}")
        source = written.read_text(encoding="utf-8")
    assert "'X-Team': os.environ['ANVIA_T_BRACED']" in source and "'note=' + os.environ['ANVIA_T_DOLLAR']" in source
    shown.append(source)
    assert not [(index, leaked(text)) for index, text in enumerate(shown) if leaked(text)]
    run(ip, "close cfg web")
