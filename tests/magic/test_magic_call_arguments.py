"""%mcp call sends exactly what the person meant: options are never arguments, misspelled names
are refused before sending, and key=value is JSON only where JSON is valid for the property."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.errors import ToolTimeoutError
from anvia_nb.magic.parse.arguments import unknown_names
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run

PLACES = [
    "call demo.echo_arguments --timeout=30 x=1",
    "call demo.echo_arguments --timeout 30 x=1",
    "call demo.echo_arguments x=1 --timeout=30",
    "call demo.echo_arguments x=1 --timeout 30",
    "call --timeout=30 demo.echo_arguments x=1",
    'call demo.echo_arguments {"x": 1} --timeout=30',
    'call demo.echo_arguments --timeout 30 {"x": 1}',
]


@pytest.mark.parametrize("line", PLACES)
def test_timeout_in_either_spelling_anywhere_is_not_sent(ip: InteractiveShell, demo: str, line: str) -> None:
    view = run(ip, line)
    assert view.structured == {"x": 1}  # what the server received
    assert get_runtime().calls()[-1].arguments == {"x": 1}


@pytest.mark.parametrize("option", ["--timeout=0.5", "--timeout 0.5"])
@pytest.mark.parametrize("before", [True, False])
def test_timeout_in_either_spelling_anywhere_applies(
    ip: InteractiveShell, demo: str, option: str, before: bool
) -> None:
    arguments = "steps=1 delay_seconds=60"  # silent: progress would keep the call alive
    line = f"call demo.slow {option} {arguments}" if before else f"call demo.slow {arguments} {option}"
    view = run(ip, line)
    assert isinstance(view.outcome.error, ToolTimeoutError)
    assert view.outcome.arguments == {"steps": 1, "delay_seconds": 60}


def test_a_misspelled_argument_is_refused_with_the_closest_name_and_nothing_is_sent(
    ip: InteractiveShell, demo: str
) -> None:
    with pytest.raises(UsageError) as info:
        run(ip, "call demo.echo mesage=hi")
    message = str(info.value)
    assert "demo.echo was not called" in message
    assert "'mesage' (did you mean 'message'?)" in message
    assert "\n" not in message
    with pytest.raises(UsageError, match="did you mean 'count'"):
        run(ip, 'call demo.form_showcase {"name": "Ann", "email": "a@b.c", "count": 2, "cuont": 3}')
    assert get_runtime().calls() == []


def test_a_schema_that_allows_additional_properties_gets_them(ip: InteractiveShell, demo: str) -> None:
    assert run(ip, "call demo.echo_arguments anything=1 haed=2").structured == {"anything": 1, "haed": 2}


def test_a_schema_without_additional_properties_refuses_unknown_names() -> None:
    pydantic_like = {"type": "object", "properties": {"path": {"type": "string"}, "head": {"type": "integer"}}}
    assert unknown_names({"path": "a.txt", "haed": 1}, pydantic_like) == ["'haed' (did you mean 'head'?)"]
    assert unknown_names({"x": 1}, {**pydantic_like, "additionalProperties": {"type": "integer"}}) == []
    assert unknown_names({"x_1": 1}, {**pydantic_like, "patternProperties": {"^x_": {}}}) == []
    assert unknown_names({"x": 1}, {"type": "object"}) == []


def _showcase(ip: InteractiveShell, extra: str) -> object:
    return run(ip, f"call demo.form_showcase name=Ann email=a@b.c count=2 {extra}").structured


def test_any_of_string_or_null_keeps_digits_as_text(ip: InteractiveShell, demo: str) -> None:
    assert _showcase(ip, "nickname=2024")["nickname"] == "2024"  # type: ignore[index]
    assert _showcase(ip, "nickname=null")["nickname"] is None  # type: ignore[index]


def test_each_value_is_json_only_where_that_reading_is_valid(ip: InteractiveShell, demo: str) -> None:
    shown = _showcase(ip, """score=2024 'tags=["1","2"]' 'address={"city":"Oslo"}' size=m""")
    assert shown["score"] == 2024  # type: ignore[index]
    assert shown["tags"] == ["1", "2"]  # type: ignore[index]
    assert shown["address"] == {"city": "Oslo"}  # type: ignore[index]  # a $ref'd property
    assert shown["size"] == "m"  # type: ignore[index]  # a oneOf of consts
    assert run(ip, "call demo.echo message=true").output == "true"


def test_a_value_valid_in_neither_reading_is_refused_quoting_it(ip: InteractiveShell, demo: str) -> None:
    with pytest.raises(UsageError, match="1.5 is not of type 'integer'"):
        _showcase(ip, "count=1.5")
    assert get_runtime().calls() == []
