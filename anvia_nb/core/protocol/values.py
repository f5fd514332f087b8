"""Python values as JSON values: the one rule for what Python data becomes when sent.

Every door that takes Python data goes through :func:`json_value`: ``Tool.call`` arguments,
``%mcp call a=$x`` and ``--args``, and the rows of a map. ``None``, booleans, numbers, strings,
lists, tuples and string-keyed mappings go as they are; NumPy and pandas values become their plain
Python counterparts (``.tolist()``/``.item()``), a DataFrame a list of row objects, dates and times
ISO 8601 text, a ``Decimal`` a number, and pandas' missing markers (``pd.NA``, ``NaT``) ``null``.
A NaN or an infinity is refused (JSON cannot carry it: send a number or null), so is text holding a
lone surrogate (``"\\ud800"``: not Unicode, so no transport can encode it, and the server would
only see a broken connection), and so is anything else, with a one-line
:class:`~anvia_nb.errors.ArgumentError` naming where it stood. Duck-typed: this module imports
neither NumPy nor pandas.
"""

from __future__ import annotations

import copy
import datetime as dt
import decimal
import math
import re
from collections.abc import Mapping
from typing import Any, overload

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject, JsonValue
from anvia_nb.errors import ArgumentError

__all__ = ["json_value", "with_fixed"]

_MISSING_TYPES = ("NAType", "NaTType")
_SURROGATE = re.compile("[\ud800-\udfff]")


@overload
def json_value(value: Mapping[str, object], root: str = "the value", path: str = "") -> JsonObject: ...


@overload
def json_value(value: object, root: str = "the value", path: str = "") -> JsonValue: ...


def json_value(value: object, root: str = "the value", path: str = "") -> JsonValue:
    """``value`` as plain JSON data (see the module's rule).

    An error names ``argument 'path'`` (``a.b``, ``rows[2]``), or ``root`` for the value itself.
    """
    if type(value) is dict and _flat_and_plain(value):
        return dict(value)  # what _convert gives for it, without a call per item: a call's usual arguments
    converted: JsonValue = _convert(value, root, path, 0)
    return converted


_PLAIN_TYPES = frozenset({str, int, bool, type(None)})


def _flat_and_plain(value: dict[Any, Any]) -> bool:
    """Whether every key is a ``str`` and every item a ``str``, ``int``, ``bool``, ``None`` or finite
    ``float`` (exactly those types: a subclass goes through :func:`_convert`)."""
    for key, item in value.items():
        kind = type(item)
        if type(key) is not str or (kind not in _PLAIN_TYPES and not (kind is float and math.isfinite(item))):
            return False
        if not key.isascii() or (kind is str and not item.isascii()):
            return False  # may hold a lone surrogate: the full rule says where
    return True


def _where(root: str, path: str) -> str:
    if path:
        return f"Argument {path!r}"
    return "The" + root[3:] if root.startswith("the ") else root


def _convert(value: Any, root: str, path: str, depth: int) -> Any:
    if depth > limits.VALUE_DEPTH:
        raise ArgumentError(f"{_where(root, path)} is nested more than {limits.VALUE_DEPTH} levels deep (a cycle?).")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return _text(value, root, path)
    if type(value).__name__ in _MISSING_TYPES:
        return None
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        raise ArgumentError(f"{_where(root, path)} is {value!r}, which JSON cannot carry; send a number or null.")
    if isinstance(value, decimal.Decimal):
        number = int(value) if value.is_finite() and value == value.to_integral_value() else float(value)
        return _convert(number, root, path, depth)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, Mapping):
        if not all(isinstance(key, str) for key in value):
            raise ArgumentError(f"{_where(root, path)} must be a JSON object with string keys.")
        for key in value:  # a key is text too; an error names it as its item's path
            _text(key, root, f"{path}.{key}" if path else key)
        return {key: _convert(item, root, f"{path}.{key}" if path else key, depth + 1) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_convert(item, root, f"{path}[{i}]", depth + 1) for i, item in enumerate(value)]
    if hasattr(value, "columns") and callable(getattr(value, "to_dict", None)):  # a DataFrame: its rows
        return _convert(value.to_dict(orient="records"), root, path, depth + 1)
    converted = _plain(value)
    if converted is not value:
        return _convert(converted, root, path, depth + 1)
    kind = type(value).__name__
    hint = "a list" if isinstance(value, set | frozenset) else "a str, number, bool, list or dict"
    raise ArgumentError(f"{_where(root, path)} is a {kind}, which is not JSON; convert it to {hint} first.")


def _text(value: str, root: str, path: str) -> str:
    """``value`` as a plain ``str``, refused if it holds a lone surrogate (UTF-8 cannot encode one)."""
    if not value.isascii():
        found = _SURROGATE.search(value)
        if found is not None:
            raise ArgumentError(
                f"{_where(root, path)} holds a lone surrogate ({found.group()!r} at index {found.start()}), which"
                " is not Unicode text and cannot be sent; decode the text with errors='replace' first."
            )
    return str(value)


def _plain(value: Any) -> Any:
    """A NumPy scalar or array, a pandas Series or Index as Python data; else ``value`` itself."""
    dtype = getattr(value, "dtype", None)
    if dtype is None or isinstance(value, bytes | bytearray | memoryview | set | frozenset):
        return value
    if getattr(dtype, "kind", "") in ("m", "M") and hasattr(value, "astype"):  # datetime64 / timedelta64: text
        return value.astype(str).tolist()
    for method in ("tolist", "item"):  # NumPy arrays and scalars, pandas Series and Index
        convert = getattr(value, method, None)
        if callable(convert):
            try:
                return convert()
            except (TypeError, ValueError):
                continue
    return value


def with_fixed(arguments: Mapping[str, Any] | None, fixed: Mapping[str, Any] | None) -> dict[str, Any]:
    """What is sent for a tool whose author fixed some arguments (``form(..., readonly_arguments=)``):
    ``arguments`` with each fixed one set to its fixed value, whatever was given for it or left out.

    The one rule for a form's fields, its JSON mode and its interactive view's ``tools/call``.

    Parameters
    ----------
    arguments : Mapping or None
        What a person typed, or a view sent (``None``: nothing).
    fixed : Mapping or None
        The fixed arguments (``None`` or empty: none).

    Returns
    -------
    dict
        A new dict; the fixed values are deep copies.
    """
    sent = dict(arguments or {})
    if fixed:
        sent.update(copy.deepcopy(dict(fixed)))
    return sent
