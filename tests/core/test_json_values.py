"""Python values as JSON (anvia_nb.core.protocol.values): plain JSON takes a quick path, and that path must
give exactly what the full rule gives, value for value and error for error."""

from __future__ import annotations

import datetime as dt
import decimal
import enum
from typing import Any

import pytest

from anvia_nb.core.protocol import values
from anvia_nb.core.protocol.values import json_value
from anvia_nb.errors import ArgumentError


class Level(enum.IntEnum):
    HIGH = 3


class Name(str):
    pass


def nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"a": [value]}
    return value


SAMPLES: list[Any] = [
    None,
    True,
    0,
    -7,
    2**70,
    1.5,
    "",
    "text with $ and \u00e9",
    [],
    {},
    (1, "two", None),
    {"a": {"b": [1, 2.5, {"c": False}]}, "d": ()},
    Level.HIGH,  # an int subclass: sent as its int
    Name("x"),  # a str subclass: sent as a plain str
    {"when": dt.date(2026, 12, 1), "d": decimal.Decimal("2.0"), "span": dt.timedelta(seconds=90)},
    [1, {"deep": [dt.time(12, 30)]}],
    nested(49),  # 98 levels: allowed
]

REFUSED: list[Any] = [
    float("nan"),
    {"a": [1, float("inf")]},
    {1: "a key that is not a string"},
    {"a": {"b": {1, 2}}},
    [b"bytes"],
    nested(51),  # 102 levels: refused as too deep
    "caf\udce9",  # a lone surrogate (bytes decoded with errors="surrogateescape"): no transport can encode it
    {"a": ["ok", "\ud83d"]},  # half of an emoji's pair
    {"k\udc80": 1},  # in a key
]


def full_rule(value: Any) -> Any:
    return values._convert(value, "the arguments", "", 0)


@pytest.mark.parametrize("value", SAMPLES, ids=repr)
def test_the_quick_path_gives_what_the_full_rule_gives(value: Any) -> None:
    sent = json_value(value, "the arguments")
    assert sent == full_rule(value)
    assert type(sent) is type(full_rule(value))


@pytest.mark.parametrize("value", REFUSED, ids=lambda v: repr(v)[:40])
def test_a_value_json_cannot_carry_gets_the_full_rules_error(value: Any) -> None:
    with pytest.raises(ArgumentError) as quick:
        json_value(value, "the arguments")
    with pytest.raises(ArgumentError) as full:
        full_rule(value)
    assert str(quick.value) == str(full.value)


def test_numpy_values_deep_inside_plain_json_are_converted() -> None:
    import numpy as np  # a dependency of anvia_nb (and of pandas)

    sent = json_value({"rows": [{"n": np.int64(2)}, {"n": 3}], "x": np.float64(0.25)})
    assert sent == {"rows": [{"n": 2}, {"n": 3}], "x": 0.25}
    assert type(sent["rows"][0]["n"]) is int


def test_what_is_sent_is_a_copy_the_caller_can_change_afterwards() -> None:
    arguments: dict[str, Any] = {"items": [1, 2], "meta": {"k": "v"}}
    sent = json_value(arguments)
    arguments["items"].append(3)
    arguments["meta"]["k"] = "changed"
    assert sent == {"items": [1, 2], "meta": {"k": "v"}}
