"""Rows out of a DataFrame and the frame of a map's results (shared by the local map and each
Dask worker): see :mod:`anvia_nb.frames._map` for the rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import pandas as pd

from anvia_nb.core.api.batch import RowOutcome
from anvia_nb.errors import InvalidTypeError, InvalidValueError
from anvia_nb.frames._columns import declared_fields, typed_column
from anvia_nb.frames.server_frame import ServerFrame
from anvia_nb.policy import ShowPolicy

if TYPE_CHECKING:
    from anvia_nb.core.api.dataframes import FrameTool

__all__ = ["RESULT_COLUMNS", "MapSource", "frame_rows", "pandas_frame", "result_of_map"]

RESULT_COLUMNS = ("status", "error", "seconds", "output")


class _Secrets(Protocol):
    @property
    def secrets(self) -> Sequence[str]: ...


class MapSource(Protocol):
    """What the frame of a map's results reads of its tool: the outputSchema and the server's secrets
    (a :class:`~anvia_nb.core.api.tool.Tool`, or only its info when Dask needs the empty frame)."""

    @property
    def output_schema(self) -> Mapping[str, Any] | None: ...

    @property
    def server(self) -> _Secrets: ...


def _missing(value: Any) -> bool:
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(value, float) and math.isnan(value)


def pandas_frame(data: object) -> pd.DataFrame:
    """``data`` when it is a pandas DataFrame, else the one-line error of a map given something else."""
    if not isinstance(data, pd.DataFrame):
        raise InvalidTypeError(
            f"map takes a pandas or Dask DataFrame or a list of argument dicts, not a {type(data).__name__}."
        )
    return data


def frame_rows(tool: FrameTool, frame: pd.DataFrame, constants: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The argument rows of ``frame`` for ``tool`` (see the module's rule)."""
    names = tool.info.argument_names
    columns = [c for c in frame.columns if c in names] if names else [c for c in frame.columns if isinstance(c, str)]
    clash = sorted(set(constants or {}) & set(columns))
    if clash:
        raise InvalidValueError(
            f"{clash[0]!r} is both a column of the frame and a constant; drop one of them (rename the column)."
        )
    given = set(columns) | set(constants or {})
    missing = [r for r in tool.info.required if r not in given]
    if names and missing and not set(columns):
        raise InvalidValueError(
            f"No column of the frame is an argument of {tool.server.name}.{tool.name}: it takes "
            f"{', '.join(names)}; the frame has {', '.join(map(str, frame.columns)) or 'no columns'}."
        )
    rows: list[dict[str, Any]] = []
    for values in frame[columns].itertuples(index=False, name=None):
        rows.append({c: v for c, v in zip(columns, values, strict=True) if not _missing(v)})
    return rows


def _name(wanted: str, taken: set[str]) -> str:
    name = wanted
    while name in taken:
        name = f"result_{name}"
    taken.add(name)
    return name


def _error_text(row: RowOutcome, policy: ShowPolicy) -> str | None:
    if row.outcome is not None and row.outcome.error is not None:
        return policy.error_line(row.outcome.error)
    return None if row.error is None else policy.line(row.error, policy.limits.text_chars)


def result_of_map(
    frame: pd.DataFrame,
    outcomes: Sequence[RowOutcome],
    tool: MapSource,
    policy: ShowPolicy | None = None,
    *,
    fixed_fields: bool = False,
) -> pd.DataFrame:
    """``frame`` with the map's columns added (see the module's rule).

    ``fixed_fields``: only the fields the outputSchema declares (a Dask partition, whose columns
    must be known before it runs); without an outputSchema the structured content is then one
    ``structured`` column.
    """
    shown = (policy or ShowPolicy()).with_secrets(tool.server.secrets)
    result: pd.DataFrame = ServerFrame(frame.copy())
    taken = {str(c) for c in result.columns}
    index = result.index
    result[_name("status", taken)] = pd.Series([o.status for o in outcomes], index=index, dtype=object)
    result[_name("error", taken)] = pd.Series([_error_text(o, shown) for o in outcomes], index=index, dtype=object)
    result[_name("seconds", taken)] = pd.Series([o.seconds for o in outcomes], index=index, dtype="float64")
    outputs = [None if o.outcome is None else o.outcome.output for o in outcomes]
    result[_name("output", taken)] = pd.Series(outputs, index=index, dtype=object)
    structured = [None if o.outcome is None else o.outcome.structured for o in outcomes]
    declared = declared_fields(tool.output_schema)
    if fixed_fields and not declared:
        result[_name("structured", taken)] = pd.Series(structured, index=index, dtype=object)
        return result
    fields = list(declared)
    if not fixed_fields:
        for value in structured:
            if isinstance(value, dict):
                fields.extend(k for k in value if k not in fields)
    for field in fields:
        values = (v.get(field) if isinstance(v, dict) else None for v in structured)
        result[_name(field, taken)] = typed_column(values, index, declared.get(field))
    return result
