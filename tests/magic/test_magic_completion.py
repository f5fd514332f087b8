"""Tab completion of %mcp lines through IPython's own completer: subcommands, names, NAME.TOOL."""

from __future__ import annotations

import pytest
from IPython.core.completer import provisionalcompleter
from IPython.core.interactiveshell import InteractiveShell


def _complete(ip: InteractiveShell, line: str) -> list[str]:
    with provisionalcompleter():
        return [c.text for c in ip.Completer.completions(line, len(line))]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("%mcp cl", ["close"]),
        ("%mcp co", ["connect"]),
        ("%mcp call demo.ec", ["demo.echo", "demo.echo_arguments"]),
        ("%%mcp call demo.ad", ["demo.add"]),
        ("%mcp call demo.echo me", ["message="]),
        ("%mcp close de", ["demo"]),
        ("%mcp tools de", ["demo"]),
        ("%mcp form demo.form_", ["demo.form_showcase"]),
        ("%mcp call --timeout 5 demo.ec", ["demo.echo", "demo.echo_arguments"]),
        ("%mcp call --timeout=5 demo.echo me", ["message="]),
        ("%mcp call demo.echo message=hi --ti", ["--timeout"]),
    ],
)
def test_completion_offers_subcommands_connections_and_tools(
    ip: InteractiveShell, demo: str, line: str, expected: list[str]
) -> None:
    offered = _complete(ip, line)
    for item in expected:
        assert item in offered, offered
    assert not [c for c in offered if c.startswith("demo.") and not any(c == e for e in expected)]


def test_completion_offers_connect_options_until_the_servers_command_line(ip: InteractiveShell) -> None:
    assert "--stdio" in _complete(ip, "%mcp connect x --st")
    assert "--header" in _complete(ip, "%mcp connect x --hea")
    assert "--stdio" not in _complete(ip, "%mcp connect x --stdio srv --st")


def test_completion_offers_the_kernels_variable_names_after_secret_env(
    ip: InteractiveShell, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANVIA_TEST_COMPLETE_TOKEN", "never-offered-value")
    for option in ("--secret-env", "--env"):
        offered = _complete(ip, f"%mcp connect x {option} ANVIA_TEST_COMPLETE")
        assert offered == ["ANVIA_TEST_COMPLETE_TOKEN"]
