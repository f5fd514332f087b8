"""Tab after ``key=`` in a call line, through IPython's own completer: the values the tool's
inputSchema allows (enum, oneOf consts, booleans), and never Python's names when there is nothing
to offer (the kernel's complete_request is tested in test_magic_completion_in_kernel.py)."""

from __future__ import annotations

import pytest
from IPython.core.completer import provisionalcompleter
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.parse.choices import schema_values


def _complete(ip: InteractiveShell, line: str) -> list[tuple[str, int]]:
    with provisionalcompleter():
        return [(c.text, c.start) for c in ip.Completer.completions(line, len(line))]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("%mcp call demo.image kind=", ["kind=png", "kind=jpeg", "kind=gif", "kind=webp", "kind=svg"]),
        ("%mcp call demo.image kind=jp", ["kind=jpeg"]),
        ("%mcp call demo.form_showcase subscribe=t", ["subscribe=true"]),
        ("%mcp call demo.echo message=fr", ["message=fr"]),  # nothing to offer: the word as typed, no frozenset
        ("%mcp prompt demo.greet name=fr", ["name=fr"]),
    ],
)
def test_a_values_completions_replace_the_whole_word_and_are_never_python_names(
    ip: InteractiveShell, demo: str, line: str, expected: list[str]
) -> None:
    offered = _complete(ip, line)
    start = len(line) - len(line.split()[-1])
    assert [text for text, _start in offered][: len(expected)] == expected
    assert {where for _text, where in offered} == {start}


def test_a_dollar_value_completes_the_kernels_variable_names(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_hidden"] = 1  # a name starting with _ is not offered
    ip.user_ns["anvia_test_count"] = 2
    try:
        start = len("%mcp call demo.add ")
        assert _complete(ip, "%mcp call demo.add a=$anvia_test_c") == [("a=$anvia_test_count", start)]
        assert _complete(ip, "%mcp call demo.add a=$_anvia_test_h") == [("a=$_anvia_test_h", start)]
    finally:
        del ip.user_ns["anvia_test_count"]


def test_schema_values_are_the_words_of_enums_consts_and_booleans() -> None:
    schema = {"properties": {
        "level": {"enum": ["debug", "two words", 3, None]},
        "colour": {"oneOf": [{"const": "red", "title": "Red"}, {"const": "blue"}]},
        "on": {"type": "boolean"},
        "text": {"type": "string"},
    }}  # fmt: skip
    assert schema_values(schema, "level") == ["debug", "'two words'", "3", "null"]  # quoted: the line reads it back
    assert schema_values(schema, "colour") == ["red", "blue"]
    assert schema_values(schema, "on") == ["true", "false"]
    assert schema_values(schema, "text") == [] and schema_values(schema, "missing") == []
