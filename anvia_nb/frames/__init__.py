"""DataFrames in and out of tool calls: ``tool.map(df)``, ``tool.map_sync(df)`` and ``r.frame()``.

This package is where pandas (and, when installed, Dask) meet the adapter. It sits above core,
runtime and display and below the widgets and the magic: it may import core, runtime, display,
``policy`` and pandas. Core and display never import it: importing it hands them its functions
(:mod:`anvia_nb.core.api.dataframes`), and the top package imports it on first use (``Tool.map``
of a DataFrame, ``Tool.map_sync``, ``ResultView.frame``), so ``import anvia_nb`` and the core never
load pandas. The engine of a map is core's (:mod:`anvia_nb.core.api.batch`, sequences of argument
dicts); here a frame becomes rows and the outcomes become a frame again. See docs/dataframes.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from anvia_nb.core.api import dataframes
from anvia_nb.frames._map import map_frame, map_sync
from anvia_nb.frames._result import result_frame
from anvia_nb.frames.audit import findings_frame
from anvia_nb.frames.server_frame import ServerFrame

if TYPE_CHECKING:
    from anvia_nb.core.api.batch import MapOptions, RowOutcome
    from anvia_nb.core.api.dataframes import DataFrameLike, FrameTool
    from anvia_nb.core.audit.report import Reviewed

__all__ = ["PandasFrames", "ServerFrame", "map_frame", "map_sync", "result_frame"]


class PandasFrames:
    """This layer's side of :class:`~anvia_nb.core.api.dataframes.FrameSupport`: pandas and Dask."""

    map_frame = staticmethod(map_frame)
    result_frame = staticmethod(result_frame)

    @staticmethod
    def map_sync(tool: FrameTool, data: object, options: MapOptions, /) -> list[RowOutcome] | DataFrameLike:
        return map_sync(tool, data, options)

    @staticmethod
    def findings_frame(reviewed: Sequence[Reviewed], /) -> DataFrameLike:
        return findings_frame(reviewed)


dataframes.provide(PandasFrames())
