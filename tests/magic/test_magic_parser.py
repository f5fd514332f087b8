"""The %mcp grammar, without a kernel: lines in, command values or one-line errors out."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from anvia_nb.errors import CommandLineError
from anvia_nb.magic.parse.arguments import value_from_text
from anvia_nb.magic.parse.commands import (
    CallCommand,
    CloseCommand,
    ConfigConnectCommand,
    ConnectCommand,
    FormCommand,
    HelpCommand,
    HistoryCommand,
    LogCommand,
    PanelCommand,
    ServersCommand,
    ToolsCommand,
)
from anvia_nb.magic.subcommands import parse_command
from tests.helpers.support import examples


@pytest.mark.parametrize("line", ["", "  ", "help", "--help", "-h"])
def test_an_empty_line_or_help_asks_for_help(line: str) -> None:
    assert parse_command(line) == HelpCommand()


def test_everything_after_stdio_is_the_servers_own_command_line() -> None:
    command = parse_command("connect fs --env LOG=debug --cwd /tmp --stdio npx -y server --env X=1 --cell '/a b'")
    assert command == ConnectCommand(
        "fs",
        "stdio",
        command="npx",
        args=("-y", "server", "--env", "X=1", "--cell", "/a b"),
        env={"LOG": "debug"},
        cwd="/tmp",
    )


def test_secret_env_marks_a_name_and_may_also_set_its_value() -> None:
    command = parse_command("connect s --secret-env PLAIN --secret-env OTHER=v --stdio srv")
    assert isinstance(command, ConnectCommand)
    assert command.secret_env == frozenset({"PLAIN", "OTHER"})
    assert command.env == {"OTHER": "v"}
    assert command.inherit_env == ("PLAIN",)


def test_env_without_a_value_takes_the_kernels_variable_as_a_secret() -> None:
    command = parse_command("connect s --env FROM_KERNEL --env=LEVEL=debug --stdio srv")
    assert isinstance(command, ConnectCommand)
    assert command.inherit_env == ("FROM_KERNEL",)
    assert command.secret_env == frozenset({"FROM_KERNEL"})
    assert command.env == {"LEVEL": "debug"}


@pytest.mark.parametrize(
    "line",
    [
        "call d.t --timeout=2 a=1",
        "call d.t --timeout 2 a=1",
        "call d.t a=1 --timeout=2",
        "call d.t a=1 --timeout 2",
        "call --timeout=2 d.t a=1",
        "call --timeout 2 d.t a=1",
    ],
)
def test_call_options_in_either_spelling_anywhere_are_options_not_arguments(line: str) -> None:
    assert parse_command(line) == CallCommand("d", "t", {"a": 1}, 2.0, True)


@pytest.mark.parametrize(
    "line",
    [
        'call d.t --timeout=2 {"a": 1}',
        'call d.t {"a": 1} --timeout=2',
        'call --timeout=2 d.t {"a": 1}',
        'call d.t {"a": 1} --timeout 2',
    ],
)
def test_call_options_beside_json_arguments(line: str) -> None:
    assert parse_command(line) == CallCommand("d", "t", {"a": 1}, 2.0, True)


def test_connect_and_log_options_also_take_the_equals_spelling() -> None:
    command = parse_command("connect web --timeout=5 --header='A: b' --http=http://h/mcp")
    assert command == ConnectCommand("web", "http", url="http://h/mcp", headers={"A": "b"}, timeout_seconds=5.0)
    stdio = parse_command("connect s --cwd=/tmp --stdio=srv --timeout=3")
    assert stdio == ConnectCommand("s", "stdio", command="srv", args=("--timeout=3",), cwd="/tmp")
    assert parse_command("log a --lines=5") == LogCommand("a", 5)


def test_http_connect_takes_headers_timeout_and_cell() -> None:
    command = parse_command('connect web --header "Authorization: Bearer a b" --timeout 5 --cell --http http://h/mcp')
    assert command == ConnectCommand(
        "web", "http", url="http://h/mcp", headers={"Authorization": "Bearer a b"}, timeout_seconds=5.0, cell=True
    )


def test_config_connect_takes_a_file_and_optional_names() -> None:
    assert parse_command("connect --config ~/cfg.json a b") == ConfigConnectCommand("~/cfg.json", ("a", "b"))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("connect --stdio srv", "one connection NAME"),
        ("connect a b --stdio srv", "one connection NAME"),
        ("connect a", "--stdio COMMAND"),
        ("connect a --stdio", "needs the server's command line"),
        ("connect a --http", "needs a value"),
        ("connect a --env =v --stdio srv", "NAME=VALUE"),
        ("connect a --cell=yes --stdio srv", "takes no value"),
        ("call demo.echo --tmeout=1 message=x", "Did you mean --timeout"),
        ("call demo.echo message=x --timeout", "needs a number"),
        ("call --timeout=0 demo.echo", "more than 0"),
        ("connect a --header NoColon --http http://h", '"Name: value"'),
        ("connect a --timeout soon --http http://h", "number of seconds"),
        ("connect a --header 'A: b' --stdio srv", "is for --http"),
        ("connect a --env A=b --http http://h", "are for --stdio"),
        ("connect a --bogus 1 --stdio srv", "Unknown option '--bogus'"),
        ("connect a --stdio 'unclosed", "check your quotes"),
        ("conect a", "Did you mean connect"),
        ("close", "close --all"),
        ("close a --all", "not both"),
        ("log", "log NAME"),
        ("log a --lines x", "positive whole number"),
        ("servers extra", "takes no arguments"),
        ("form demo", "NAME.TOOL"),
        ("call demo", "NAME.TOOL"),
        ("call", "Usage"),
        ("call demo.echo message", "key=value"),
        ('call demo.echo {"a": 1} b=2', "not both"),
        ("call demo.echo [1, 2]", "must be a JSON object"),
    ],
)
def test_bad_lines_fail_with_one_message_that_says_what_to_type(line: str, message: str) -> None:
    with pytest.raises(CommandLineError) as info:
        parse_command(line)
    assert message in str(info.value)


def test_json_arguments_are_read_raw_with_quotes_braces_and_dollars_intact() -> None:
    command = parse_command('call demo.echo {"message": "it\'s {$HOME} \\"q\\""} --timeout 2')
    assert command == CallCommand("demo", "echo", {"message": 'it\'s {$HOME} "q"'}, 2.0, True)


def test_key_value_pairs_are_json_when_they_parse_else_strings() -> None:
    command = parse_command('call d.t n=3 f=1.5 b=true l=[1,2] s=hello e= q="two words" z=null')
    assert isinstance(command, CallCommand)
    assert command.arguments == {
        "n": 3,
        "f": 1.5,
        "b": True,
        "l": [1, 2],
        "s": "hello",
        "e": "",
        "q": "two words",
        "z": None,
    }


def test_no_arguments_means_none_is_sent() -> None:
    assert parse_command("call d.t") == CallCommand("d", "t", None)
    assert parse_command("call --timeout none d.t") == CallCommand("d", "t", None, None, True)


def test_a_json_error_says_line_and_column_and_marks_the_spot_in_one_line() -> None:
    with pytest.raises(CommandLineError) as info:
        parse_command('call d.t {"a": 1,\n "b" 2}')
    text = str(info.value)
    assert "line 2, column 6" in text
    assert len(text.splitlines()) == 1
    assert text.endswith(' "b" ⟦here⟧2}')


def test_the_cell_body_of_call_is_its_json_arguments() -> None:
    assert parse_command("call d.t", '{\n  "a": [1, 2]\n}\n') == CallCommand("d", "t", {"a": [1, 2]})
    assert parse_command("call d.t", "   \n") == CallCommand("d", "t", None)
    with pytest.raises(CommandLineError, match="line 2, column 3"):
        parse_command("call d.t", "{\n  oops}")
    with pytest.raises(CommandLineError, match="not both"):
        parse_command("call d.t a=1", '{"a": 2}')


def test_other_subcommands_parse_to_their_values() -> None:
    assert parse_command("servers") == ServersCommand()
    assert parse_command("tools") == ToolsCommand()
    assert parse_command("tools a b") == ToolsCommand(("a", "b"))
    assert parse_command("history") == HistoryCommand()
    assert parse_command("log a --lines 5") == LogCommand("a", 5)
    assert parse_command("close a b") == CloseCommand(("a", "b"))
    assert parse_command("close --all") == CloseCommand((), True)
    assert parse_command("form demo.add") == FormCommand("demo", "add")
    assert parse_command("panel") == PanelCommand()


def test_only_call_and_connect_take_a_cell_body() -> None:
    with pytest.raises(CommandLineError, match="takes no cell body"):
        parse_command("servers", "x = 1")
    assert isinstance(parse_command("connect a --stdio srv", "x = 1"), ConnectCommand)


def _json_or_text(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


json_texts = st.one_of(
    st.text(max_size=8),
    st.builds(
        json.dumps,
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3),
            lambda inner: st.lists(inner, max_size=2),
            max_leaves=4,
        ),
    ),
    st.sampled_from(["NaN", "-Infinity", " 1", "\t[1]", "tru", "nul", "{bad", "0x1", ".5", "+1", "1e", "$x"]),
)


@settings(max_examples=examples(300), deadline=None)
@given(json_texts)
def test_a_key_value_value_is_json_when_it_parses_and_its_text_otherwise(text: str) -> None:
    """What ``key=value`` sends: a quick look at the first character spares most text a failed
    parse, and must never change what is sent."""
    got, expected = value_from_text(text), _json_or_text(text)
    assert type(got) is type(expected)
    assert got == expected or got != got  # NaN is itself, and unequal to itself
