"""Kernel variables in ``%mcp`` lines: the one rule for ``$name``.

``key=$name`` sends the value of the kernel variable ``name``; ``--args name`` (or ``--args
$name``) sends a dict variable as the whole arguments. Only a bare ``$`` followed by a Python
identifier, written unquoted, as a whole value, is a variable: nothing is evaluated (no
attribute, index or expression; assign it to a variable first), and JSON text is never read as
Python. A literal dollar stays reachable by quoting: ``a='$x'``, ``a="$x"`` or ``a=\\$x`` send the
text ``$x``. ``{x}`` is not used because braces are JSON objects.

Values become JSON by :func:`anvia_nb.core.protocol.values.json_value` (NumPy and pandas included). A name
that is not defined is a one-line error before anything is sent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from anvia_nb.core.protocol.types import JsonValue
from anvia_nb.core.protocol.values import json_value
from anvia_nb.errors import CommandLineError

__all__ = ["VARIABLE_PAIR", "Variable", "VariableWord", "resolve_arguments", "resolve_variable", "variable_name"]

_IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"

VARIABLE_PAIR = re.compile(rf"([^\s='\"\\$-][^\s='\"\\]*)=\$({_IDENTIFIER})(?=\s|$)")
"""A ``key=$name`` word as typed (unquoted), in the raw text of a line."""

_NAME = re.compile(rf"\$?({_IDENTIFIER})")


@dataclass(frozen=True)
class Variable:
    """A reference to a kernel variable, resolved when the command runs (never when parsed)."""

    name: str

    def __str__(self) -> str:
        return f"${self.name}"


class VariableWord(str):
    """A ``key=$name`` word of a line, told apart from the quoted text ``key='$name'``."""

    __slots__ = ()

    @property
    def variable(self) -> Variable:
        return Variable(self.partition("=$")[2])


def variable_name(text: str, option: str) -> str:
    """The variable named by ``--args NAME`` or ``--args $NAME``."""
    match = _NAME.fullmatch(text)
    if match is None:
        raise CommandLineError(f"{option} takes the name of a dict variable (e.g. {option} params), not {text!r}.")
    return match.group(1)


def resolve_variable(name: str, namespace: Mapping[str, Any], target: str, role: str) -> JsonValue:
    """The JSON value of the kernel variable ``name`` (``role`` says what it is for: an argument,
    ``--args``); an undefined name is a one-line error saying ``target`` was not called."""
    if name not in namespace:
        raise CommandLineError(
            f"{target} was not called: there is no variable {name!r} in the kernel (for {role}); define it "
            f"first, or quote it ('${name}') to send the text ${name}."
        )
    value: object = namespace[name]  # a kernel variable: anything, made JSON or refused
    return json_value(value, f"{target} was not called: ${name} (for {role})")


def resolve_arguments(
    arguments: Mapping[str, Any] | None, args_variable: str | None, namespace: Mapping[str, Any], target: str
) -> dict[str, Any] | None:
    """The arguments to send: the ``--args`` dict (if any), updated by ``arguments``, each
    :class:`Variable` replaced by its variable's JSON value. Nothing is sent when this raises."""
    resolved: dict[str, Any] | None = None
    if args_variable is not None:
        base = resolve_variable(args_variable, namespace, target, "--args")
        if not isinstance(base, dict):
            raise CommandLineError(
                f"{target} was not called: --args {args_variable} is a {type(namespace[args_variable]).__name__}, "
                "not a dict of arguments."
            )
        resolved = base
    if arguments is not None:  # a new dict; nested values stay shared: the call copies what it sends
        given = {
            key: resolve_variable(value.name, namespace, target, key) if isinstance(value, Variable) else value
            for key, value in arguments.items()
        }
        resolved = given if resolved is None else {**resolved, **given}
    return resolved
