"""The values a tool's schema allows for one argument, as words to type after ``key=``.

Tab offers them (:mod:`anvia_nb.magic.complete.words`), so each word is written for the line's
own reader (:func:`anvia_nb.magic.parse.arguments.call_words`) to give the value back: a plain
word as it is, a text with a space, a quote or a ``$`` in quotes (``location='New York'``), a
list or an object as compact JSON. The choices are found where a schema puts them: ``enum``,
``const``, a ``oneOf``/``anyOf`` of them (an optional enum is an ``anyOf`` with ``{"type":
"null"}``, whose null is not offered: leaving the argument out says it), a ``$ref`` into the
schema's ``$defs``, and ``true``/``false`` for a boolean.
"""

from __future__ import annotations

import json
import re
from typing import Any

from anvia_nb.magic.parse.arguments import property_schema
from anvia_nb.policy import Limits

__all__ = ["schema_values", "value_word"]

_PLAIN = re.compile(r"[^\s'\"\\$]+")
"""Text the reader keeps as it is, unquoted (no blank, quote, backslash or ``$``)."""


def value_word(value: Any) -> str:  # any: a JSON value from the schema
    """What to type after ``key=`` so that the line reads back as ``value``.

    Parameters
    ----------
    value : Any
        A JSON value: text is typed as it is when it is one plain word, else in quotes (single
        quotes keep it as typed; double quotes, with Python's escapes, when it holds a ``'`` or a
        character that cannot be typed); anything else as compact JSON.

    Returns
    -------
    str
        The word to type, e.g. ``'New York'`` for ``"New York"``.
    """
    if not isinstance(value, str):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if _PLAIN.fullmatch(value):
        return value
    if "'" not in value and value.isprintable():
        return f"'{value}'"
    return '"' + "".join(_escaped(char) for char in value) + '"'


def _escaped(char: str) -> str:
    """One character as Python's escapes write it inside double quotes."""
    if char in '"\\':
        return "\\" + char
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def schema_values(schema: object, key: str) -> list[str]:
    """The words Tab may offer after ``key=``: the values the tool's schema allows, each written
    by :func:`value_word`; nothing when a value cannot be guessed (free text, a number).

    Parameters
    ----------
    schema : object
        The tool's ``inputSchema``.
    key : str
        The argument's name.

    Returns
    -------
    list of str
        One word per allowed value, in the schema's order, without repeats.
    """
    if not isinstance(schema, dict):
        return []
    prop = property_schema(schema, key)
    words: list[str] = []
    for value in _choices(schema, prop, frozenset())[: Limits.choices]:
        word = value_word(value)
        if word not in words:
            words.append(word)
    return words


def _choices(root: dict[str, Any], prop: object, seen: frozenset[str]) -> list[Any]:
    """The values ``prop`` allows, looking through ``$ref`` (each followed once: ``seen``),
    ``allOf``, ``anyOf`` and ``oneOf``."""
    if not isinstance(prop, dict):
        return []
    if isinstance(prop.get("enum"), list):
        return list(prop["enum"])
    if "const" in prop:
        return [prop["const"]]
    found: list[Any] = []
    reference = prop.get("$ref")
    if isinstance(reference, str) and reference not in seen:
        found += _choices(root, _resolve(root, reference), seen | {reference})
    for combined in ("allOf", "anyOf", "oneOf"):
        branches = prop.get(combined)
        for branch in branches if isinstance(branches, list) else []:
            found += _choices(root, branch, seen)
    kinds = prop.get("type")
    if not found and (kinds == "boolean" or (isinstance(kinds, list) and "boolean" in kinds)):
        found = [True, False]
    return found


def _resolve(root: dict[str, Any], reference: str) -> object:
    """The schema a local ``$ref`` (``#/$defs/Unit``) points at, else ``None``."""
    if not reference.startswith("#/"):
        return None
    node: object = root
    for part in reference[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node.get(part) if isinstance(node, dict) else None
    return node
