"""``%mcp connect --config``: the mcpServers files of Claude Desktop, Cursor, Claude Code and VS Code."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.core.api.connections import HttpConnection, StdioConnection
from anvia_nb.magic.commands.config_files import ConfigFileError, servers_from_config_file, servers_from_config_text
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run
from tests.helpers.support import DEMO_ARGS

DEMO = {"command": sys.executable, "args": DEMO_ARGS}


def _write(path: Path, document: object) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return str(path)


def test_claude_desktop_entries_become_stdio_connections_with_env_secrets_marked() -> None:
    text = json.dumps({"mcpServers": {"fs": {**DEMO, "env": {"GITHUB_TOKEN": "t0k", "LEVEL": "info"}}}})
    found = servers_from_config_text(text)
    connection = found.connections["fs"]
    assert isinstance(connection, StdioConnection)
    assert connection.command == sys.executable and connection.args == tuple(DEMO_ARGS)
    assert connection.secrets() == ("t0k",)


def test_variables_are_substituted_from_the_environment_and_marked_secret() -> None:
    text = json.dumps(
        {
            "mcpServers": {
                "a": {
                    "command": "srv",
                    "args": ["${HOME_DIR}"],
                    "env": {"X": "${env:SOME_VALUE}", "Y": "${NOPE:-dflt}"},
                },
                "b": {"type": "http", "url": "${BASE}/mcp", "headers": {"Authorization": "Bearer ${env:SOME_VALUE}"}},
            }
        }
    )
    found = servers_from_config_text(text, environ={"HOME_DIR": "/h", "SOME_VALUE": "v4lue", "BASE": "http://x"})
    a, b = found.connections["a"], found.connections["b"]
    assert isinstance(a, StdioConnection) and isinstance(b, HttpConnection)
    assert a.args == ("/h",) and dict(a.env) == {"X": "v4lue", "Y": "dflt"}
    # every value taken from the environment is a secret, in args as in env (issue 28)
    assert set(a.secrets()) == {"/h", "v4lue", "dflt"} and dict(a.from_environ) == {
        "HOME_DIR": "/h",
        "SOME_VALUE": "v4lue",
    }
    assert b.url == "http://x/mcp" and {"v4lue", "http://x"} <= set(b.secrets())
    with pytest.raises(ConfigFileError, match=r"uses \$\{MISSING\} but MISSING is not set"):
        servers_from_config_text(json.dumps({"mcpServers": {"a": {"command": "${MISSING}"}}}), environ={})


@pytest.mark.parametrize("kind", ["http", "streamable-http", None])
def test_url_entries_are_streamable_http(kind: str | None) -> None:
    entry: dict[str, object] = {"url": "http://127.0.0.1:1/mcp", "headers": {"X-Key": "k"}}
    if kind:
        entry["type"] = kind
    connection = servers_from_config_text(json.dumps({"mcpServers": {"s": entry}})).connections["s"]
    assert isinstance(connection, HttpConnection) and connection.headers == {"X-Key": "k"}


def test_sse_is_refused_with_a_message_that_says_what_is_supported() -> None:
    text = json.dumps({"mcpServers": {"old": {"type": "sse", "url": "http://h/sse"}}})
    with pytest.raises(ConfigFileError, match="SSE transport.*only stdio and streamable HTTP"):
        servers_from_config_text(text)


def test_vscode_files_with_comments_servers_and_inputs(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "proj" / ".vscode" / "mcp.json",
        '{\n  // VS Code allows comments\n  "inputs": [{"id": "k", "type": "promptString"}],\n'
        '  "servers": {"local": {"type": "stdio", "command": "srv", "args": ["${workspaceFolder}/x"],},},\n}\n',
    )
    found = servers_from_config_file(path)
    local = found.connections["local"]
    assert isinstance(local, StdioConnection) and local.args == (f"{tmp_path / 'proj'}/x",)
    assert any("inputs are ignored" in note for note in found.notes)
    prompt = json.dumps({"servers": {"p": {"command": "srv", "env": {"K": "${input:k}"}}}})
    with pytest.raises(ConfigFileError, match="VS Code input prompt"):
        servers_from_config_text(prompt)


def test_bad_files_and_names_fail_clearly(tmp_path: Path) -> None:
    with pytest.raises(ConfigFileError, match="Cannot read the config file"):
        servers_from_config_file(str(tmp_path / "missing.json"))
    with pytest.raises(ConfigFileError, match="not valid JSON .line 1"):
        servers_from_config_text("{nope")
    with pytest.raises(ConfigFileError, match="no mcpServers"):
        servers_from_config_text('{"other": {}}')
    with pytest.raises(ConfigFileError, match="has no server 'x'; it has a"):
        servers_from_config_text(json.dumps({"mcpServers": {"a": DEMO}}), names=("x",))
    with pytest.raises(ConfigFileError, match="neither a command"):
        servers_from_config_text(json.dumps({"mcpServers": {"a": {"args": []}}}))


def test_names_that_cannot_be_connection_names_are_renamed_with_a_note() -> None:
    found = servers_from_config_text(json.dumps({"mcpServers": {"my.server": DEMO, "off": {**DEMO, "disabled": True}}}))
    assert list(found.connections) == ["my_server"]
    assert any("'my.server' is connected as 'my_server'" in note for note in found.notes)
    assert any("off: disabled" in note for note in found.notes)


def test_connect_config_opens_the_named_servers_of_a_claude_file(
    ip: InteractiveShell, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "claude_desktop_config.json", {"mcpServers": {"cfg_a": DEMO, "cfg_b": DEMO}})
    run(ip, f"connect --config {path} cfg_b")
    assert capsys.readouterr().out.startswith("cfg_b: stdio · anvia-demo")
    assert "cfg_b" in get_runtime().names() and "cfg_a" not in get_runtime().names()


def test_connect_config_opens_every_server_of_a_cursor_file_over_http(
    ip: InteractiveShell, tmp_path: Path, demo_http_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANVIA_TEST_URL", demo_http_url)
    monkeypatch.setenv("ANVIA_TEST_TOKEN", "cfg-secret-771")
    path = _write(
        tmp_path / ".cursor" / "mcp.json",
        {
            "mcpServers": {
                "cur_one": {"url": "${env:ANVIA_TEST_URL}", "headers": {"X-Api-Key": "${ANVIA_TEST_TOKEN}"}},
                "cur_two": {"type": "streamable-http", "url": demo_http_url},
            }
        },
    )
    run(ip, f"connect --config {path}")
    frame = run(ip, "servers").set_index("name")
    assert frame.loc["cur_one", "transport"] == frame.loc["cur_two", "transport"] == "http"
    assert "cfg-secret-771" not in frame.to_string()


def test_connect_config_errors_are_usage_errors(ip: InteractiveShell, tmp_path: Path) -> None:
    path = _write(tmp_path / "sse.json", {"mcpServers": {"old": {"type": "sse", "url": "http://h/sse"}}})
    with pytest.raises(UsageError, match="SSE transport"):
        run(ip, f"connect --config {path}")
    with pytest.raises(UsageError, match="--config takes only a file"):
        run(ip, f"connect --config {path} --env A=b")
