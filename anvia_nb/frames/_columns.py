"""Columns of result frames: the types an outputSchema declares, and the fields of structured content."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TypeAlias

import pandas as pd

__all__ = ["ColumnType", "declared_fields", "schema_dtype", "typed_column"]

ColumnType: TypeAlias = Literal["Int64", "Float64", "boolean", "string", "object"]
"""The pandas dtypes a column of structured content can have."""

_DTYPES: dict[str, ColumnType] = {"integer": "Int64", "number": "Float64", "boolean": "boolean", "string": "string"}


def schema_dtype(prop: object) -> ColumnType:
    """The pandas dtype of one property schema: nullable ``Int64``, ``Float64``, ``boolean``,
    ``string``; ``object`` for anything else (objects, arrays, unions beyond ``[T, "null"]``)."""
    if not isinstance(prop, dict):
        return "object"
    kind = prop.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    return _DTYPES.get(kind, "object") if isinstance(kind, str) else "object"


def declared_fields(schema: object) -> dict[str, object]:
    """The properties an object schema declares, in its order (``{}`` when it declares none)."""
    if not isinstance(schema, dict):
        return {}
    properties = schema.get("properties")
    return dict(properties) if isinstance(properties, dict) else {}


def typed_column(values: Iterable[object], index: pd.Index, prop: object) -> pd.Series:
    """One column holding ``values``, typed as ``prop`` declares (as pandas infers, without ``prop``);
    values that do not fit stay as sent (an ``object`` column), never coerced into something else."""
    column: pd.Series = pd.Series(list(values), index=index, dtype=object)
    if prop is None:  # not declared: the type pandas infers (int64 for whole numbers...)
        inferred: pd.Series = column.infer_objects()
        return inferred
    dtype = schema_dtype(prop)
    if dtype == "object":
        return column
    try:
        typed: pd.Series = column.astype(dtype)
    except (TypeError, ValueError):
        return column
    return typed
