"""``Tool.map`` and ``Tool.map_sync``: a tool called once per row of argument dicts or of a DataFrame.

:class:`MapsRows` is what :class:`~anvia_nb.core.api.tool.Tool` has of mapping: the overloads say what
comes back for what goes in (argument rows: a list of :class:`~anvia_nb.core.api.batch.RowOutcome`; a
DataFrame: a DataFrame); the map itself runs in :mod:`anvia_nb.core.api.batch` (rows) or the
DataFrame layer (:mod:`anvia_nb.core.api.dataframes`). Its methods read of the tool only what
:class:`~anvia_nb.core.api.dataframes.FrameTool` names, so this module does not import the tool: to
mypy, ``MapsRows`` is a FrameTool (so the class inheriting it must be one), at run time a plain base,
so ``Tool.map?`` shows a plain ``self``.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, overload

from anvia_nb._docs import refuse_unknown, shared_keywords
from anvia_nb.core.api import dataframes
from anvia_nb.core.api.batch import MapOptions, MapRun, RowOutcome, Rows, is_rows
from anvia_nb.core.api.dataframes import DataFrameLike, FrameTool
from anvia_nb.core.api.map_options import MapKeywords

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing's own from Python 3.11; 3.10 is supported

__all__ = ["MapsRows"]

_DEFAULTS = {option.name: option.default for option in fields(MapOptions)}
"""What each of :class:`MapKeywords` defaults to: :class:`MapOptions`' own defaults."""

if TYPE_CHECKING:
    _Mapped = FrameTool  # mypy holds the class that inherits the maps (Tool) to be a FrameTool
else:
    _Mapped = object  # at run time a plain base: no Protocol in Tool's MRO, no annotated self in map?


class MapsRows(_Mapped):
    """A tool's maps: :meth:`map` (awaited) and :meth:`map_sync` (blocking, with a stop button)."""

    @overload
    async def map(self, rows: Rows, **options: Unpack[MapKeywords]) -> list[RowOutcome]: ...

    @overload
    async def map(self, rows: DataFrameLike, **options: Unpack[MapKeywords]) -> DataFrameLike: ...

    @shared_keywords(MapKeywords, _DEFAULTS)
    async def map(self, rows: Rows | DataFrameLike, **options: Unpack[MapKeywords]) -> list[RowOutcome] | DataFrameLike:
        """Call the tool once per row, concurrently on this session; results in row order.

        Parameters
        ----------
        rows : sequence of mapping, or DataFrame
            Argument dicts, a pandas DataFrame (its columns are the arguments) or a Dask DataFrame
            (mapped on its cluster's workers); see docs/dataframes.md.
        constants : mapping, optional
            Arguments every row gets where it leaves them out.
        concurrency : int, optional
            Rows in flight at once (default 8; not held to ``max_calls_in_flight``).
        stop_on_error : bool, optional
            Cancel the rest at the first failed row (default ``False``).
        timeout_seconds, max_time_seconds : float or None, optional
            Bound each call as ``Tool.call_outcome`` does (``None``: no limit).
        progress : bool, optional
            Show a progress line for a DataFrame map; ``None``: only inside a Jupyter kernel.
        policy : ShowPolicy, optional
            How the frame of results shows server text.

        Returns
        -------
        list of RowOutcome or DataFrame
            For argument rows, one ``RowOutcome`` per row; for a
            DataFrame, a DataFrame with the outcomes beside the rows.

        Raises
        ------
        InvalidValueError
            ``concurrency`` is not a whole number of at least 1.
        """
        refuse_unknown("tool.map", options, MapKeywords)
        run = MapOptions(**options)
        if is_rows(rows):
            return await MapRun(self, rows, run).run()
        return await dataframes.frames().map_frame(self, rows, run)

    @overload
    def map_sync(self, rows: Rows, **options: Unpack[MapKeywords]) -> list[RowOutcome]: ...

    @overload
    def map_sync(self, rows: DataFrameLike, **options: Unpack[MapKeywords]) -> DataFrameLike: ...

    @shared_keywords(MapKeywords, _DEFAULTS)
    def map_sync(self, rows: Rows | DataFrameLike, **options: Unpack[MapKeywords]) -> list[RowOutcome] | DataFrameLike:
        """:meth:`map` for synchronous code; the stop button returns the rows done so far, marked.

        Parameters
        ----------
        rows, constants, concurrency, stop_on_error, timeout_seconds, progress, policy, max_time_seconds
            As for ``map``.

        Returns
        -------
        list of RowOutcome or DataFrame
            As for ``map``.

        Raises
        ------
        InvalidValueError
            ``concurrency`` is not a whole number of at least 1.
        LoopMisuseError
            The connection was opened on this thread's running loop, which it would block (await ``map``).
        """
        refuse_unknown("tool.map_sync", options, MapKeywords)
        return dataframes.frames().map_sync(self, rows, MapOptions(**options))
