"""Small things a ``%mcp`` line says or does: ``%mcp tools`` before any connect says to connect
first; double-quoted values read Python's escapes (single quotes keep the text as typed); a
subscription to a URI made from a template shows in ``%mcp resources``; a failed ``--record``
connect leaves no stub file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.parse.arguments import call_words
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run
from tests.helpers.support import DEMO_STDIO

BAD_LISTING = Path(__file__).parents[1] / "servers" / "bad_listing_server.py"


def test_tools_with_nothing_connected_says_connect_first(ip: InteractiveShell) -> None:
    runtime = get_runtime()
    for name in runtime.names():  # the shared demo connection too: its fixture opens it again
        runtime.close(name)
    with pytest.raises(UsageError) as error:
        run(ip, "tools")
    assert str(error.value) == (
        "Nothing is connected: connect first (%mcp connect NAME --stdio COMMAND ... or --http URL)."
    )


@pytest.mark.parametrize(
    ("line", "sent"),
    [
        ('message="a\\nb"', "a\nb"),
        ('message="tab\\there \\"quoted\\" \\u00e9 \\\\n"', 'tab\there "quoted" é \\n'),
        ("message='a\\nb'", "a\\nb"),  # single quotes: every character as typed (C:\new stays a path)
        ('message="C:\\path"', "C:\\path"),  # not an escape Python knows: the backslash stays
        ("message=a\\ b", "a b"),  # outside quotes a backslash keeps the next character, as a shell does
    ],
)
def test_double_quoted_values_read_pythons_escapes(ip: InteractiveShell, demo: str, line: str, sent: str) -> None:
    result = run(ip, f"call demo.echo {line}")
    assert result.output == sent


def test_a_prompts_values_follow_the_same_rule(ip: InteractiveShell, demo: str) -> None:
    words, _arguments, _index = call_words('name="Ada\\nLovelace"')
    assert words == ["name=Ada\nLovelace"]
    prompt = run(ip, 'prompt demo.greet name="Ada\\nLovelace"')
    assert prompt.messages[0]["content"]["text"] == "Please greet Ada\nLovelace."


def test_a_subscription_to_a_uri_made_from_a_template_shows_in_resources(ip: InteractiveShell, demo: str) -> None:
    run(ip, "subscribe demo demo://notes/2")  # demo://notes/{id}: not in resources/list
    frame = run(ip, "resources demo")
    row = frame[frame["uri"] == "demo://notes/2"]
    assert len(row) == 1 and bool(row.iloc[0]["subscribed"]) and row.iloc[0]["updates"] == 0
    run(ip, "unsubscribe demo demo://notes/2")
    frame = run(ip, "resources demo")
    assert "demo://notes/2" not in set(frame["uri"])


@pytest.mark.parametrize(
    "command",
    [f"--stdio {sys.executable} -c pass", f"--stdio {sys.executable} {BAD_LISTING}"],
    ids=["exits-before-the-handshake", "fails-its-tool-listing"],
)
def test_a_failed_record_connect_leaves_no_stub_file(ip: InteractiveShell, tmp_path: Path, command: str) -> None:
    path = tmp_path / "session.jsonl"
    with pytest.raises(UsageError):
        run(ip, f"connect broken --record {path} {command}")
    assert not path.exists()


def test_a_good_record_connect_keeps_its_file(ip: InteractiveShell, tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    run(ip, f"connect recorded --record {path} {DEMO_STDIO}")
    run(ip, "close recorded")
    assert '"type": "listing"' in path.read_text()
