"""Bounded copies of what a call produced, for what outlives the call (a history, the log, a view's
request): JSON with long strings cut, long lists and objects shortened and deep nesting elided; an
error with its message cut and no result; and whether a value's JSON fits a size without building it
when it is huge. The bounds are in :mod:`anvia_nb.core.protocol.limits`."""

from __future__ import annotations

import json
from typing import Any, overload

from anvia_nb.core.protocol import limits
from anvia_nb.errors import AnviaError

__all__ = ["bounded_error", "bounded_json", "json_fits"]


@overload
def bounded_json(value: dict[str, Any]) -> dict[str, Any]: ...


@overload
def bounded_json(value: object, depth: int = 0) -> object: ...


def bounded_json(value: object, depth: int = 0) -> object:
    """``value`` with long strings cut, long lists and objects shortened and deep nesting elided
    (an object stays an object); a value of no JSON type is given back as it is."""
    chars, items = limits.KEPT_JSON_CHARS, limits.KEPT_JSON_ITEMS
    if isinstance(value, str):
        return value if len(value) <= chars else f"{value[:chars]}… ({len(value) - chars} more)"
    if depth >= limits.KEPT_JSON_DEPTH and isinstance(value, dict | list):
        return "…"
    if isinstance(value, dict):
        kept = {}
        for k, v in value.items() if len(value) <= items else list(value.items())[:items]:
            key = k if k.__class__ is str and len(k) <= chars else str(k)[:chars]
            # a number, a bool, None or a short string is kept as it is, without a call for it
            short = v.__class__ in _LEAVES or (v.__class__ is str and len(v) <= chars)
            kept[key] = v if short else bounded_json(v, depth + 1)
        if len(value) > items:
            kept["…"] = f"{len(value) - items} more"
        return kept
    if isinstance(value, list):
        shortened = [bounded_json(v, depth + 1) for v in value[:items]]
        return [*shortened, f"… {len(value) - items} more"] if len(value) > items else shortened
    return value


_LEAVES = frozenset({int, float, bool, type(None)})
"""The types :func:`bounded_json` gives back as they are."""


def json_fits(value: object, limit: int) -> bool:
    """Whether ``value``'s JSON (``ensure_ascii=False``) takes at most ``limit`` characters."""
    if isinstance(value, str) and 6 * len(value) + 2 <= limit:  # even if every character were escaped
        return True
    return _least_json_chars(value, limit) <= limit and len(json.dumps(value, ensure_ascii=False, default=str)) <= limit


def _least_json_chars(value: object, limit: int) -> int:
    """At least how many characters ``value``'s JSON takes, counted until it passes ``limit``:
    deciding that a 20 MB result is too large to keep must not serialize it."""
    if isinstance(value, str):
        return len(value) + 2
    if isinstance(value, dict):
        total = 2
        for key, item in value.items():  # "key": value, then ", " before the next
            total += (2 if total > 2 else 0) + len(str(key)) + 4 + _least_json_chars(item, limit - total)
            if total > limit:
                break
        return total
    if isinstance(value, list | tuple):
        total = 2
        for item in value:
            total += (2 if total > 2 else 0) + _least_json_chars(item, limit - total)
            if total > limit:
                break
        return total
    return 1


def bounded_error(error: AnviaError) -> AnviaError:
    """A copy of ``error`` with its message cut and no result, server data or traceback."""
    kept: AnviaError = type(error).__new__(type(error))
    kept.__dict__.update(error.__dict__)
    message = str(error.args[0]) if error.args else ""
    chars = 2 * limits.KEPT_JSON_CHARS
    kept.args = (message if len(message) <= chars else f"{message[:chars]}…",)
    for name, value in list(vars(kept).items()):
        if name in ("raw", "data", "log"):
            setattr(kept, name, None)
        elif isinstance(value, str) and len(value) > chars:
            setattr(kept, name, value[:chars])
        elif isinstance(value, list) and len(value) > limits.KEPT_JSON_ITEMS:
            setattr(kept, name, value[: limits.KEPT_JSON_ITEMS])
    return kept
