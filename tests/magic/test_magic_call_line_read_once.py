"""A ``%mcp call`` line run again is read once (issue 41): what the person sees stays the same,
each run gets arguments of its own, and a line in error says so every time."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.parse.call import parse_call
from anvia_nb.magic.parse.words import CommandLineError
from tests.helpers.magic import run


def test_a_line_run_twice_gives_each_run_its_own_arguments() -> None:
    line = 'demo.echo message=hi extra={"nested": [1]}'
    first = parse_call(line)
    assert first.arguments is not None
    first.arguments["message"] = "changed"
    first.arguments["extra"]["nested"].append(2)
    second = parse_call(line)
    assert second.arguments == {"message": "hi", "extra": {"nested": [1]}}
    assert second == parse_call(line)


def test_a_wrong_line_is_refused_every_time() -> None:
    for _ in range(2):
        with pytest.raises(CommandLineError, match="--timeout needs a number of seconds"):
            parse_call("demo.echo --timeout")


def test_the_same_line_called_again_shows_the_new_arguments_of_a_variable(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["said"] = "first"
    assert run(ip, "call demo.echo message=$said").output == "first"
    ip.user_ns["said"] = "second"
    assert run(ip, "call demo.echo message=$said").output == "second"


def test_a_line_run_again_sends_its_nested_arguments_as_written(ip: InteractiveShell, demo: str) -> None:
    line = 'call demo.echo_arguments tags=["a"] extra={"nested": [1]}'
    first = run(ip, line)
    first.arguments["extra"]["nested"].append(2)
    first.arguments["tags"].append("b")
    second = run(ip, line)
    assert second.arguments == {"tags": ["a"], "extra": {"nested": [1]}}
    assert second.structured == {"tags": ["a"], "extra": {"nested": [1]}}
