"""The grammar of ``%mcp audit``, ``pin`` and ``diff`` (no kernel): each form of the line, and each
mistake as one line that shows the usage."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from anvia_nb.errors import CommandLineError
from anvia_nb.magic.parse.audit import AuditCommand, DiffCommand, PinCommand, parse_audit, parse_diff, parse_pin


@pytest.mark.parametrize(
    ("rest", "expected"),
    [
        ("", AuditCommand()),
        ("a b", AuditCommand(names=("a", "b"))),
        ("a --sarif out.sarif --json=out.json", AuditCommand(names=("a",), sarif="out.sarif", json="out.json")),
        ('--accept 0 2 2 --reason "known and fine"', AuditCommand(accept=(0, 2), reason="known and fine")),
        ("a --accept=3 --reason=ok --lock l.json", AuditCommand(names=("a",), accept=(3,), reason="ok", lock="l.json")),
    ],
)
def test_audit_lines(rest: str, expected: AuditCommand) -> None:
    assert parse_audit(rest) == expected


@pytest.mark.parametrize(
    ("rest", "expected"),
    [
        ("a b", DiffCommand("a", other="b")),
        ("a --lock", DiffCommand("a", lock="")),
        ("a --lock pins.json", DiffCommand("a", lock="pins.json")),
        ("a --recording r.jsonl", DiffCommand("a", recording="r.jsonl")),
    ],
)
def test_diff_lines(rest: str, expected: DiffCommand) -> None:
    assert parse_diff(rest) == expected


def test_pin_lines() -> None:
    assert parse_pin("a b a --lock x.json") == PinCommand(("a", "b"), "x.json")


@pytest.mark.parametrize(
    ("parse", "rest", "said"),
    [
        (parse_audit, "--sarif", "--sarif needs a value"),
        (parse_audit, "--accept", "--accept needs the rows"),
        (parse_audit, "--accept -1 --reason r", "--accept takes row numbers (0 and up)"),
        (parse_audit, "--frobnicate", "Unknown option '--frobnicate'"),
        (parse_pin, "", "Name the connections to pin"),
        (parse_pin, "a --lock", "--lock needs a value"),
        (parse_diff, "", "Compare a connection with exactly one thing"),
        (parse_diff, "a b --lock", "Compare a connection with exactly one thing"),
        (parse_diff, "a --recording", "--recording needs a value"),
        (parse_diff, 'a "b', "Cannot split the line"),
    ],
)
def test_mistakes_are_one_line_with_the_usage(parse: Callable[[str], object], rest: str, said: str) -> None:
    with pytest.raises(CommandLineError) as caught:
        parse(rest)
    assert said in str(caught.value) and "\n" not in str(caught.value)
