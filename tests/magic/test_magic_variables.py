"""Kernel variables in %mcp call: ``key=$x`` and ``--args DICT`` send Python values as JSON, an
undefined name sends nothing, and a quoted ``'$x'`` is the text ``$x``."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.parse.arguments import call_words
from anvia_nb.magic.parse.call import parse_call
from anvia_nb.magic.parse.variables import Variable
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run

JSON_VALUES = {
    "_anvia_test_null": None,
    "_anvia_test_true": True,
    "_anvia_test_int": 42,
    "_anvia_test_float": 2.5,
    "_anvia_test_str": 'say "hi" {not json} $x',
    "_anvia_test_list": [1, "two", None, [3]],
    "_anvia_test_dict": {"city": "Oslo", "tags": ["a"], "n": {"deep": True}},
}


@pytest.mark.parametrize("name", list(JSON_VALUES))
def test_a_variable_of_every_json_type_is_sent_as_it_is(ip: InteractiveShell, demo: str, name: str) -> None:
    ip.user_ns[name] = JSON_VALUES[name]
    view = run(ip, f"call demo.echo_arguments value=${name}")
    assert view.structured == {"value": JSON_VALUES[name]}  # what the server received


NUMPY_AND_PANDAS = [
    (np.int64(7), 7),
    (np.float32(0.5), 0.5),
    (np.bool_(False), False),
    (np.array([[1, 2], [3, 4]]), [[1, 2], [3, 4]]),
    (pd.Series([1.5, 2.5]), [1.5, 2.5]),
    (pd.Timestamp("2024-05-01T12:30:00"), "2024-05-01T12:30:00"),
    (pd.NA, None),
    (pd.NaT, None),
    (dt.date(2024, 5, 1), "2024-05-01"),
    (pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}), [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]),
]


@pytest.mark.parametrize(("value", "sent"), NUMPY_AND_PANDAS, ids=lambda v: type(v).__name__)
def test_numpy_and_pandas_values_become_plain_json(
    ip: InteractiveShell, demo: str, value: object, sent: object
) -> None:
    ip.user_ns["_anvia_test_value"] = value
    view = run(ip, "call demo.echo_arguments value=$_anvia_test_value")
    assert view.structured == {"value": sent}


def test_numbers_from_numpy_satisfy_a_typed_schema(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_a"] = np.int32(2)
    ip.user_ns["_anvia_test_b"] = np.float64(3.5)
    assert run(ip, "call demo.add a=$_anvia_test_a b=$_anvia_test_b").structured == {"sum": 5.5}


def test_an_undefined_name_is_one_line_and_nothing_is_sent(ip: InteractiveShell, demo: str) -> None:
    with pytest.raises(UsageError) as info:
        run(ip, "call demo.add a=1 b=$_anvia_test_nowhere")
    message = str(info.value)
    assert "demo.add was not called" in message
    assert "'_anvia_test_nowhere'" in message
    assert "\n" not in message
    with pytest.raises(UsageError, match="no variable '_anvia_test_nowhere'"):
        run(ip, "call demo.echo_arguments --args _anvia_test_nowhere")
    assert get_runtime().calls() == []


def test_a_value_json_cannot_carry_is_refused_before_sending(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_nan"] = float("nan")
    ip.user_ns["_anvia_test_bytes"] = b"raw"
    with pytest.raises(UsageError, match="JSON cannot carry"):
        run(ip, "call demo.echo_arguments v=$_anvia_test_nan")
    with pytest.raises(UsageError, match="bytes, which is not JSON"):
        run(ip, "call demo.echo_arguments v=$_anvia_test_bytes")
    assert get_runtime().calls() == []


@pytest.mark.parametrize("typed", ["v='$x'", 'v="$x"', "v=\\$x"])
def test_a_quoted_dollar_is_the_text(ip: InteractiveShell, demo: str, typed: str) -> None:
    ip.user_ns["x"] = "the variable"
    try:
        assert run(ip, f"call demo.echo_arguments {typed}").structured == {"v": "$x"}
    finally:
        del ip.user_ns["x"]


def test_json_text_is_never_read_as_python(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_x"] = "python"
    view = run(ip, 'call demo.echo_arguments {"v": "$_anvia_test_x", "w": "__import__(\'os\')"}')
    assert view.structured == {"v": "$_anvia_test_x", "w": "__import__('os')"}
    assert run(ip, 'call demo.echo_arguments v=["$_anvia_test_x"]').structured == {"v": ["$_anvia_test_x"]}


def test_args_sends_a_dict_variable_and_pairs_add_to_it(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_params"] = {"a": np.int64(1), "b": 2}
    assert run(ip, "call demo.add --args _anvia_test_params").structured == {"sum": 3}
    assert run(ip, "call demo.add --args=$_anvia_test_params b=10").structured == {"sum": 11}
    ip.user_ns["_anvia_test_list"] = [1, 2]
    with pytest.raises(UsageError, match="not a dict"):
        run(ip, "call demo.add --args _anvia_test_list")


def test_the_cell_form_takes_the_same(ip: InteractiveShell, demo: str) -> None:
    ip.user_ns["_anvia_test_a"] = np.int64(4)
    ip.user_ns["_anvia_test_params"] = {"a": 1}
    assert ip.run_cell_magic("mcp", "call demo.add", "a=$_anvia_test_a\nb=1\n").structured == {"sum": 5}
    assert ip.run_cell_magic("mcp", "call demo.add --args _anvia_test_params", "b=$_anvia_test_a").structured == {
        "sum": 5
    }
    assert ip.run_cell_magic("mcp", "call demo.echo_arguments", "v='$x'").structured == {"v": "$x"}
    with pytest.raises(UsageError, match="no variable"):
        ip.run_cell_magic("mcp", "call demo.add", "a=$_anvia_test_missing b=1")


def test_the_parser_keeps_variables_unresolved() -> None:
    command = parse_call("demo.add a=$x b='$y' c=$z.attr")
    assert command.arguments == {"a": Variable("x"), "b": "$y", "c": "$z.attr"}
    words, _json, _index = call_words("a=$x b=\\$x")
    assert [type(w).__name__ for w in words] == ["VariableWord", "str"]
