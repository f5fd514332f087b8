"""The one table of %mcp subcommands: help and Tab completion come from it, an unknown word is an
error (never the panel), and %mcp servers shows each server's instructions safely."""

from __future__ import annotations

import sys

import pytest
from IPython.core.completer import provisionalcompleter
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic import subcommands
from anvia_nb.magic.subcommands import TABLE, Subcommand
from anvia_nb.policy import ShowPolicy
from tests.helpers.magic import run
from tests.helpers.support import INSTRUCTIONS_SERVER, forked

CHATTY = f"--stdio {sys.executable} {' '.join(forked(INSTRUCTIONS_SERVER))}"


def _complete(ip: InteractiveShell, line: str) -> list[str]:
    with provisionalcompleter():
        return [c.text for c in ip.Completer.completions(line, len(line))]


def _help(ip: InteractiveShell, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    run(ip, "help")
    return capsys.readouterr().out


def test_help_and_completion_cover_every_subcommand_of_the_table(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = _help(ip, capsys)
    offered = _complete(ip, "%mcp ")
    for name, entry in TABLE.items():
        assert f"%mcp {name}" in shown
        assert name in offered
        for syntax, what in entry.help:
            assert syntax in shown and what in shown


def test_a_new_table_entry_shows_in_help_completion_and_runs(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = Subcommand(
        "ping",
        (("ping [WORD]", "answers pong"),),
        lambda rest, _cell: rest.strip() or "pong",
        lambda _magics, word: f"{word}!",
        lambda _words, _runtime: ["loud", "quiet"],
    )
    monkeypatch.setitem(subcommands.TABLE, "ping", entry)
    assert "%mcp ping [WORD]" in _help(ip, capsys) and "answers pong" in _help(ip, capsys)
    assert "ping" in _complete(ip, "%mcp pi")  # beside pin
    assert _complete(ip, "%mcp ping lo") == ["loud"]
    assert run(ip, "ping") == "pong!"


@pytest.mark.parametrize("line", ["pannel", "explore", "tool demo", "--panel"])
def test_an_unknown_subcommand_is_an_error_never_the_panel(ip: InteractiveShell, line: str) -> None:
    with pytest.raises(UsageError) as info:
        run(ip, line)
    message = str(info.value)
    assert message.startswith(f"Unknown subcommand {line.split()[0]!r}")
    assert "%mcp help" in message and "\n" not in message


def test_a_near_miss_is_named(ip: InteractiveShell) -> None:
    with pytest.raises(UsageError, match="Did you mean panel"):
        run(ip, "pannel")


def test_help_teaches_keeping_tokens_out_of_the_notebook(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = _help(ip, capsys)
    assert "--secret-env NAME passes the kernel's own NAME variable" in shown and "%mcp help secrets" in shown
    run(ip, "help secrets")
    topic = capsys.readouterr().out
    assert "--secret-env NAME (or --env NAME without a value)" in topic
    assert "kernel's own NAME variable" in topic and "masked" in topic
    with pytest.raises(UsageError, match="No help on 'secret'. Did you mean secrets"):
        run(ip, "help secret")


def test_servers_shows_the_servers_instructions(ip: InteractiveShell, demo: str) -> None:
    frame = run(ip, "servers")
    text = frame.set_index("name").loc["demo", "instructions"]
    assert text.startswith("The demo server bundled with anvia_nb")


def test_instructions_are_masked_made_visible_and_bounded(ip: InteractiveShell) -> None:
    run(ip, "connect chatty --env API_TOKEN=tok-chatty-77a1 " + CHATTY)
    frame = run(ip, "servers")
    text = frame.set_index("name").loc["chatty", "instructions"]
    assert "tok-chatty-77a1" not in text and "••••••" in text
    assert "\x1b" not in text and "\u202e" not in text
    assert "THE-END" not in text and len(text) <= ShowPolicy().limits.text_chars
    assert "&lt;b&gt;Use me" in frame.to_html() and "<b>Use me" not in frame.to_html()
