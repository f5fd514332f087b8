"""A tool over the rows of a DataFrame: rows out of the frame, the map, and the frame of results.

Each row's columns named like the tool's arguments are its arguments (every column, when the
inputSchema names none); an empty cell (``NaN``, ``None``, ``pd.NA``) leaves that argument out;
``constants`` fill the arguments no column gives. The result keeps the frame's index and columns
and adds, per row, ``status``, ``error``, ``seconds``, ``output`` (the mapped output) and one
column per field of the structured content (in the outputSchema's order and types when declared).
A new column whose name the frame already uses is called ``result_<name>``.

``map_sync`` blocks on the runtime's background loop and shows one progress line, updated a few
times a second; the stop button cancels every call in flight (the server is told) and returns the
rows done so far, the others marked ``cancelled`` or ``not run``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import math
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from anvia_nb.core.api.batch import MapOptions, MapRun, RowOutcome, is_rows
from anvia_nb.errors import InvalidTypeError, InvalidValueError, LoopMisuseError
from anvia_nb.frames._columns import declared_fields, typed_column
from anvia_nb.frames._progress import ProgressLine, progress_wanted
from anvia_nb.frames.server_frame import ServerFrame
from anvia_nb.policy import ShowPolicy

if TYPE_CHECKING:
    from anvia_nb.core.api.server import Tool

__all__ = ["RESULT_COLUMNS", "frame_rows", "map_frame", "map_sync", "result_of_map"]

RESULT_COLUMNS = ("status", "error", "seconds", "output")
_TICK_SECONDS = 0.25
_CANCEL_WAIT_SECONDS = 10.0


def _missing(value: Any) -> bool:
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(value, float) and math.isnan(value)


def frame_rows(tool: Tool, frame: pd.DataFrame, constants: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The argument rows of ``frame`` for ``tool`` (see the module's rule)."""
    if not isinstance(frame, pd.DataFrame):
        raise InvalidTypeError(
            f"map takes a pandas or Dask DataFrame or a list of argument dicts, not a {type(frame).__name__}."
        )
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
    tool: Tool,
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


def _is_dask(data: object) -> bool:
    return type(data).__module__.split(".")[0] == "dask" and hasattr(data, "map_partitions")


def _prepare(tool: Tool, data: Any, options: MapOptions) -> tuple[MapRun, pd.DataFrame | None]:
    """The map's run, and the frame its results go back into (``None`` for plain rows)."""
    if is_rows(data):
        return MapRun(tool, data, options), None
    rows = frame_rows(tool, data, options.constants)
    return MapRun(tool, rows, options), data


def _finish(
    run: MapRun, frame: pd.DataFrame | None, tool: Tool, options: MapOptions
) -> pd.DataFrame | list[RowOutcome]:
    outcomes = run.outcomes()
    return outcomes if frame is None else result_of_map(frame, outcomes, tool, options.policy)


async def map_frame(tool: Tool, data: Any, options: MapOptions) -> Any:
    """``await tool.map(df)``: a DataFrame of results, in row order (a Dask DataFrame for a Dask one)."""
    if _is_dask(data):
        from anvia_nb.frames._dask import map_dask

        return map_dask(tool, data, options)
    run, frame = _prepare(tool, data, options)
    target = f"{tool.server.name}.{tool.name}"
    line = ProgressLine(target, options.policy) if progress_wanted(options.progress) else None

    async def tick() -> None:
        while line is not None:
            await asyncio.sleep(_TICK_SECONDS)
            line.update(run)

    ticker = asyncio.ensure_future(tick())
    try:
        await run.run()
    finally:
        ticker.cancel()
        if line is not None:
            line.update(run, final=True)
    return _finish(run, frame, tool, options)


def _caller_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def map_sync(tool: Tool, data: Any, options: MapOptions) -> Any:
    """``tool.map_sync(df)``: :func:`map_frame` for synchronous code, interruptible (see the module)."""
    if _is_dask(data):
        from anvia_nb.frames._dask import map_dask

        return map_dask(tool, data, options)
    owner = tool.server.client.loop
    if owner is not None and owner is _caller_loop():
        raise LoopMisuseError(
            f"{tool.server.name} was opened on this thread's running loop, which map_sync would block: "
            "use `await tool.map(...)` instead."
        )
    from anvia_nb.runtime import get_runtime

    run, frame = _prepare(tool, data, options)
    target = f"{tool.server.name}.{tool.name}"
    line = ProgressLine(target, options.policy) if progress_wanted(options.progress) else None
    background = get_runtime().loop
    work = run.run()
    interrupted = False
    try:
        future = background.submit(work)  # inside the try: an interrupt from the moment the loop has it cancels it
        while True:
            try:
                future.result(timeout=_TICK_SECONDS)
                break
            except concurrent.futures.TimeoutError:
                if line is not None:
                    line.update(run)
    except KeyboardInterrupt:
        interrupted = True
        # done once the calls in flight were cancelled on the server (bounded here)
        concurrent.futures.wait([background.cancel(work)], timeout=_CANCEL_WAIT_SECONDS)
    finally:
        if line is not None:
            with contextlib.suppress(Exception):
                line.update(run, final=True, stopped=interrupted)
    if interrupted:
        print(
            f"{(options.policy or ShowPolicy()).name(target)}: interrupted after {run.answered} of {run.total} rows; "
            "the calls in flight were cancelled on the server.",
            file=sys.stderr,
        )
    return _finish(run, frame, tool, options)
