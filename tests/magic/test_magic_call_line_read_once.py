"""A ``%mcp call`` line run again is read once (issue 41): what the person sees stays the same,
each run gets arguments of its own, and a line in error says so every time. Its checked arguments
are kept for the same listing of its tool, so a new listing or a changed setting counts at once."""

from __future__ import annotations

import dataclasses

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.parse.call import parse_call
from anvia_nb.magic.parse.words import CommandLineError
from anvia_nb.runtime import get_runtime
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


def test_a_line_refused_for_its_arguments_is_refused_every_time_and_never_sent(ip: InteractiveShell, demo: str) -> None:
    for _ in range(2):
        with pytest.raises(UsageError, match="takes no argument 'mesage' \\(did you mean 'message'\\?\\)"):
            run(ip, f"call {demo}.echo mesage=hi")
    assert get_runtime().calls() == []


def test_a_line_run_again_is_checked_against_its_tools_new_listing(ip: InteractiveShell, demo: str) -> None:
    line = f"call {demo}.echo message=hi"
    assert run(ip, line).output == "hi"
    server = get_runtime().server(demo)
    listed = [tool.info for tool in server.tools]
    renamed = {"type": "object", "properties": {"text": {"type": "string"}}}
    server.replace_tools([dataclasses.replace(i, input_schema=renamed) if i.name == "echo" else i for i in listed])
    try:
        with pytest.raises(UsageError, match="takes no argument 'message'.* It takes: text"):
            run(ip, line)
    finally:
        server.replace_tools(listed)
    assert run(ip, line).output == "hi"
    assert len(get_runtime().calls()) == 2


def test_a_setting_changed_between_two_runs_of_a_line_bounds_the_second(ip: InteractiveShell, demo: str) -> None:
    line = f"call {demo}.slow steps=1 delay_seconds=1"
    assert not run(ip, line).is_error
    ip.run_line_magic("config", "McpMagics.timeout_seconds = 0.3")
    assert run(ip, line).status == "timeout"
