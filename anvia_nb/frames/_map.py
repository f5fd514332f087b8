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
import sys
from typing import overload

import pandas as pd

from anvia_nb.core.api.batch import MapOptions, MapRun, RowOutcome, is_rows
from anvia_nb.core.api.dataframes import DataFrameLike, FrameTool
from anvia_nb.core.protocol.limits import MAP_CANCEL_WAIT_SECONDS, MAP_TICK_SECONDS
from anvia_nb.errors import LoopMisuseError
from anvia_nb.frames._dask import map_dask
from anvia_nb.frames._progress import ProgressLine, progress_wanted
from anvia_nb.frames._rows import frame_rows, pandas_frame, result_of_map
from anvia_nb.policy import ShowPolicy

__all__ = ["map_frame", "map_sync"]


def _is_dask(data: object) -> bool:
    return type(data).__module__.split(".")[0] == "dask" and hasattr(data, "map_partitions")


def _prepare(tool: FrameTool, data: object, options: MapOptions) -> tuple[MapRun, pd.DataFrame | None]:
    """The map's run, and the frame its results go back into (``None`` for plain rows)."""
    if is_rows(data):
        return MapRun(tool, data, options), None
    frame = pandas_frame(data)
    return MapRun(tool, frame_rows(tool, frame, options.constants), options), frame


def _finish(
    run: MapRun, frame: pd.DataFrame | None, tool: FrameTool, options: MapOptions
) -> pd.DataFrame | list[RowOutcome]:
    outcomes = run.outcomes()
    return outcomes if frame is None else result_of_map(frame, outcomes, tool, options.policy)


async def map_frame(tool: FrameTool, data: object, options: MapOptions) -> DataFrameLike:
    """``await tool.map(df)``: a DataFrame of results, in row order (a Dask DataFrame for a Dask one)."""
    if _is_dask(data):
        return map_dask(tool, data, options)
    frame = pandas_frame(data)
    run = MapRun(tool, frame_rows(tool, frame, options.constants), options)
    target = f"{tool.server.name}.{tool.name}"
    line = ProgressLine(target, options.policy) if progress_wanted(options.progress) else None

    async def tick() -> None:
        while line is not None:
            await asyncio.sleep(MAP_TICK_SECONDS)
            line.update(run)

    ticker = asyncio.ensure_future(tick())
    try:
        await run.run()
    finally:
        ticker.cancel()
        if line is not None:
            line.update(run, final=True)
    return result_of_map(frame, run.outcomes(), tool, options.policy)


def _caller_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


@overload
def map_sync(tool: FrameTool, data: pd.DataFrame, options: MapOptions) -> pd.DataFrame: ...


@overload
def map_sync(tool: FrameTool, data: object, options: MapOptions) -> list[RowOutcome] | DataFrameLike: ...


def map_sync(tool: FrameTool, data: object, options: MapOptions) -> list[RowOutcome] | DataFrameLike:
    """``tool.map_sync(df)``: :func:`map_frame` for synchronous code, interruptible (see the module)."""
    if _is_dask(data):
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
                future.result(timeout=MAP_TICK_SECONDS)
                break
            except concurrent.futures.TimeoutError:
                if line is not None:
                    line.update(run)
    except KeyboardInterrupt:
        interrupted = True
        # done once the calls in flight were cancelled on the server (bounded here)
        concurrent.futures.wait([background.cancel(work)], timeout=MAP_CANCEL_WAIT_SECONDS)
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
