"""DataFrames in and out of tool calls: ``tool.map(df)``, ``tool.map_sync(df)`` and ``r.frame()``.

This package is where pandas (and, when installed, Dask) meet the adapter. It sits beside the
magic: it may import core, runtime, display, ``policy`` and pandas; core and display reach it only
by name, on first use (``Tool.map``, ``ResultView.frame``), so ``import anvia_nb`` and the core
never load pandas. The engine of a map is core's (:mod:`anvia_nb.core.api.batch`, sequences of argument
dicts); here a frame becomes rows and the outcomes become a frame again. See docs/dataframes.md.
"""

from __future__ import annotations

from anvia_nb.frames._map import map_frame, map_sync
from anvia_nb.frames._result import result_frame

__all__ = ["map_frame", "map_sync", "result_frame"]
