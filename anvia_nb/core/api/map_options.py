"""How one map runs: its options, declared once (:class:`MapOptions`).

Apart from :mod:`anvia_nb.core.api.batch`, which runs a map, so that the DataFrame hook
(:mod:`anvia_nb.core.api.dataframes`, imported with ``anvia_nb``) can name it without loading the map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from anvia_nb.core.protocol import limits
from anvia_nb.errors import InvalidValueError

if TYPE_CHECKING:
    from anvia_nb.policy import ShowPolicy

__all__ = ["MapKeywords", "MapOptions"]


@dataclass(frozen=True, kw_only=True)
class MapOptions:
    """How one map runs: the one place its options are declared. ``tool.map``, ``tool.map_sync``,
    ``%mcp map``, the DataFrame side and each Dask worker all take one of these.

    ``constants`` fill the arguments a row leaves out; ``concurrency`` rows are in flight at once
    (the map's calls are not held to the connection's ``max_calls_in_flight``); ``stop_on_error``
    cancels the rest at the first failed row; ``timeout_seconds`` and ``max_time_seconds`` bound each
    call as they bound one call (:meth:`~anvia_nb.core.api.tool.Tool.call_outcome`; by default as every call;
    ``None``: no limit); ``progress`` shows a progress line for a DataFrame map (by default only
    inside a Jupyter kernel); ``policy`` is how the frame of results shows server text.
    """

    constants: Mapping[str, Any] | None = None
    concurrency: int = limits.DEFAULT_MAP_CONCURRENCY
    stop_on_error: bool = False
    timeout_seconds: float | limits.Default | None = limits.DEFAULT
    max_time_seconds: float | limits.Default | None = limits.DEFAULT
    progress: bool | None = None
    policy: ShowPolicy | None = None

    def __post_init__(self) -> None:
        concurrency = self.concurrency
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise InvalidValueError(f"concurrency must be a whole number of at least 1, not {concurrency!r}.")


class MapKeywords(TypedDict, total=False):
    """The keywords ``tool.map`` and ``tool.map_sync`` take: :class:`MapOptions`' fields (what each
    does is said there). Both take ``**options: Unpack[MapKeywords]``, and their signatures show each
    keyword with :class:`MapOptions`' default (``anvia_nb._docs.shared_keywords``), so ``tool.map?``
    names them all."""

    constants: Mapping[str, Any] | None
    concurrency: int
    stop_on_error: bool
    timeout_seconds: float | limits.Default | None
    max_time_seconds: float | limits.Default | None
    progress: bool | None
    policy: ShowPolicy | None
