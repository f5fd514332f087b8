"""Tab after ``key=`` offers every value the schema allows, those with a space or a quote
written so that the line reads them back (``from_unit='square metre'``), and the values of an
optional enum (``anyOf: [{enum}, {type: null}]``, a ``$ref`` to an ``Enum``): against a real
server whose schemas pydantic wrote (tests/servers/units_server.py), and the line's own parser."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from IPython.core.completer import provisionalcompleter
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.parse.arguments import typed_for_schema
from anvia_nb.magic.parse.call import parse_call
from anvia_nb.magic.parse.choices import schema_values, value_word
from tests.helpers.magic import run
from tests.helpers.support import SERVERS

UNITS = ["metre", "'square metre'", "'light year'", "'degrees Celsius'", "kelvin"]


@pytest.fixture
def units(ip: InteractiveShell) -> Iterator[str]:
    run(ip, f"connect units --stdio {sys.executable} {SERVERS / 'units_server.py'}")
    yield "units"
    run(ip, "close units")


def _offered(ip: InteractiveShell, line: str) -> list[str]:
    with provisionalcompleter():
        completions = list(ip.Completer.completions(line, len(line)))
    start = len(line) - len(line.split(" ")[-1])
    assert {c.start for c in completions} == {start}, "the whole key=value word is replaced"
    return [c.text for c in completions]


def test_every_unit_is_offered_and_those_with_a_space_in_quotes(ip: InteractiveShell, units: str) -> None:
    assert _offered(ip, "%mcp call units.convert value=1 from_unit=") == [f"from_unit={u}" for u in UNITS]
    assert _offered(ip, "%mcp call units.convert from_unit=squ") == ["from_unit='square metre'"]
    assert _offered(ip, "%mcp call units.convert from_unit='deg") == ["from_unit='degrees Celsius'"]


def test_an_optional_enum_and_an_optional_enum_class_offer_their_values(ip: InteractiveShell, units: str) -> None:
    assert _offered(ip, "%mcp call units.list_supported_units unit_type=") == [
        "unit_type=length",
        "unit_type=temperature",
    ]  # not null: leaving the argument out says it
    assert _offered(ip, "%mcp call units.list_supported_units scale=") == ["scale='very small'", "scale=large"]


def test_each_offered_unit_reaches_the_server_as_the_unit(ip: InteractiveShell, units: str) -> None:
    for word in _offered(ip, "%mcp call units.convert value=1 to_unit="):
        result = run(ip, f"call units.convert value=1 from_unit={word.partition('=')[2]} {word}")
        unit = value_of(word)
        assert result.arguments == {"value": 1, "from_unit": unit, "to_unit": unit}
        assert result.output == f"1.0 {unit}"


def value_of(word: str) -> str:
    return word.partition("=")[2].strip("'")


def _read_back(schema: dict[str, Any], key: str, word: str) -> Any:  # any: a JSON value
    """What ``%mcp call`` sends for ``key=word``: the line's parser, then the schema's reading."""
    command = parse_call(f"s.t {key}={word}")
    assert command.arguments is not None
    return typed_for_schema(command.arguments, dict(command.texts), schema)[key]


TRICKY = ["New York", "it's", 'say "hi"', '"quoted"', '""', "C:\\new", "$HOME", "[1]", "{}", "true", "3", ""]
TRICKY += ["a\tb", "two\nlines", "=x"]


@pytest.mark.parametrize("value", TRICKY)
def test_each_offered_word_parses_back_to_its_value(value: str) -> None:
    schema = {"type": "object", "properties": {"k": {"enum": [value]}}}
    assert schema_values(schema, "k") == [value_word(value)]
    assert _read_back(schema, "k", value_word(value)) == value


@given(st.lists(st.text(min_size=1) | st.integers() | st.booleans() | st.none(), min_size=1, max_size=4, unique=True))
def test_any_enum_round_trips_through_the_line(values: list[Any]) -> None:  # any: JSON values
    schema = {"type": "object", "properties": {"k": {"anyOf": [{"enum": values}, {"type": "null"}]}}}
    for value in values:
        read = _read_back(schema, "k", value_word(value))
        if isinstance(value, str) and not isinstance(read, str):
            # "3" beside 3, "true" beside true, "null" beside the null branch: the word's JSON reading
            # is one the schema allows too, and a key=value word is read as JSON when it fits
            # (typed_for_schema); such text is sent with --args or a $var
            continue
        assert read == value


@pytest.mark.parametrize(
    ("prop", "expected"),
    [
        ({"anyOf": [{"enum": ["a b", "c"]}, {"type": "null"}]}, ["'a b'", "c"]),
        ({"oneOf": [{"enum": ["a", "b"]}, {"type": "null"}]}, ["a", "b"]),
        ({"type": ["string", "null"], "enum": ["a", "b c", None]}, ["a", "'b c'", "null"]),
        ({"anyOf": [{"$ref": "#/$defs/Size"}, {"type": "null"}]}, ["small", "'very large'"]),
        ({"allOf": [{"$ref": "#/$defs/Size"}]}, ["small", "'very large'"]),
        ({"anyOf": [{"type": "boolean"}, {"type": "null"}]}, ["true", "false"]),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, []),
    ],
)
def test_an_optional_enum_in_each_spelling_offers_its_values(prop: dict[str, Any], expected: list[str]) -> None:
    schema = {"type": "object", "$defs": {"Size": {"enum": ["small", "very large"]}}, "properties": {"k": prop}}
    assert schema_values(schema, "k") == expected


def test_a_ref_that_loops_offers_what_it_can_and_stops() -> None:
    schema = {
        "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"const": "x y"}]}},
        "properties": {"k": {"$ref": "#/$defs/A"}},
    }
    assert schema_values(schema, "k") == ["'x y'"]
