"""``tool.map(ddf)``: a map over a Dask DataFrame, on the cluster the person already has.

Each partition is mapped on a worker, which opens its own connection from the connection's
description and closes it when the partition is done. The description travels pickled, and a
connection pickles without its secrets (:mod:`anvia_nb.core.api.portable`): a worker reads them from
its own environment, and a connection whose secrets cannot travel that way is refused before
anything is sent. The result is a Dask DataFrame with the columns of a pandas map; since they must
be known before any partition runs, the structured content's fields are those the outputSchema
declares (without one, the structured content is one ``structured`` column).

Dask is an optional extra (``pip install 'anvia_nb[dask]'``); this module is loaded only for a
Dask DataFrame.
"""

from __future__ import annotations

import asyncio
import pickle
from dataclasses import replace
from typing import Any

import pandas as pd

from anvia_nb.core.api.batch import MapOptions, MapRun
from anvia_nb.core.api.dataframes import DataFrameLike, FrameTool
from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.frames._rows import frame_rows, result_of_map

__all__ = ["map_dask", "worker_description"]


class _InfoOnly:
    """Enough of a tool for :func:`result_of_map` to build the empty frame Dask needs as ``meta``."""

    def __init__(self, info: ToolInfo) -> None:
        self.info = info
        self.output_schema = info.output_schema
        self.server = _NoServer()


class _NoServer:
    secrets: tuple[str, ...] = ()


def _mapped_partition(part: pd.DataFrame, description: bytes, tool_name: str, options: MapOptions) -> pd.DataFrame:
    """One partition, on a worker: connect, map, close."""
    from anvia_nb.core.api.server import connect_mcp

    async def mapped() -> pd.DataFrame:
        connection = pickle.loads(description)  # secrets read from this worker's environment
        server = await connect_mcp(connection)
        try:
            tool = server.tool(tool_name)
            outcomes = await MapRun(tool, frame_rows(tool, part, options.constants), options).run()
            plain: pd.DataFrame = pd.DataFrame(result_of_map(part, outcomes, tool, fixed_fields=True))
            return plain
        finally:
            await server.close()

    result: pd.DataFrame = asyncio.run(mapped())
    return result


def worker_description(connection: object) -> bytes:
    """What each worker receives to open its own connection: the connection pickled, which leaves
    its secret values out (read back from the worker's environment) or refuses, here in the notebook."""
    return pickle.dumps(connection)


def map_dask(tool: FrameTool, frame: Any, options: MapOptions) -> DataFrameLike:  # any: dask ships no types
    """A lazy Dask DataFrame of results, one partition per partition of ``frame``."""
    description = worker_description(tool.server.connection)
    empty = frame._meta
    frame_rows(tool, empty, options.constants)  # a column/constant clash fails now, not per partition
    meta = pd.DataFrame(result_of_map(empty, [], _InfoOnly(tool.info), fixed_fields=True))
    constants = dict(options.constants) if options.constants else None
    sent = replace(options, constants=constants, progress=False, policy=None)  # what a worker needs
    mapped: DataFrameLike = frame.map_partitions(
        _mapped_partition, description, tool.name, sent, meta=meta, align_dataframes=False
    )
    return mapped
