"""DataFrames for the core and the display, lent by the layer that has pandas.

The core maps plain argument rows itself (:mod:`anvia_nb.core.api.batch`). A DataFrame given to
``tool.map``, every ``tool.map_sync`` (it needs the runtime's loop and a progress line) and
``ResultView.frame()`` belong to the DataFrame layer, :mod:`anvia_nb.frames`, which sits above core
and display: they never import it. It hands them its functions here when it is imported
(:func:`provide`), and the top package says how to import it on first use (:func:`load_with`),
so ``import anvia_nb`` loads no pandas and nothing below reaches up.

What is lent is typed here: :class:`FrameSupport` says the three functions' signatures, and
:class:`DataFrameLike` is what the core knows of a pandas (or Dask) DataFrame without importing
pandas (a ``pandas.DataFrame`` is one; the DataFrame layer narrows to it with ``isinstance``).

Nothing heavy at run time: the top package imports this module when it is imported.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Protocol

from anvia_nb.errors import AnviaError

if TYPE_CHECKING:
    from anvia_nb.core.api.batch import MapOptions, RowOutcome
    from anvia_nb.core.api.tool import Tool
    from anvia_nb.core.protocol.types import CallOutcome

__all__ = ["DataFrameLike", "FrameSupport", "frames", "load_with", "provide"]


class DataFrameLike(Protocol):
    """A table with named columns and a length: a pandas or Dask DataFrame, as the core sees it."""

    @property
    def columns(self) -> Iterable[Hashable]: ...

    def __len__(self) -> int: ...


class FrameSupport(Protocol):
    """What the DataFrame layer lends: a map of a frame, a blocking map of anything, a result's table."""

    def map_frame(self, tool: Tool, frame: object, options: MapOptions, /) -> Awaitable[DataFrameLike]:
        """``await tool.map(df)``: a pandas (or Dask) DataFrame of results. ``frame`` is what the map
        was given that is not rows: a DataFrame, or anything else, refused with ``InvalidTypeError``."""
        ...

    def map_sync(self, tool: Tool, rows: object, options: MapOptions, /) -> list[RowOutcome] | DataFrameLike:
        """``tool.map_sync(rows or df)``: blocks on the runtime's loop, interruptibly (anything but rows
        or a DataFrame is refused with ``InvalidTypeError``)."""
        ...

    def result_frame(self, outcome: CallOutcome, /) -> DataFrameLike:
        """``ResultView.frame()``: a result's structured content as a DataFrame."""
        ...


class _Lent:
    provided: FrameSupport | None = None
    loader: Callable[[], object] | None = None


def provide(support: FrameSupport) -> None:
    """Called by :mod:`anvia_nb.frames` when it is imported."""
    _Lent.provided = support


def load_with(loader: Callable[[], object]) -> None:
    """How to import the DataFrame layer when first needed (the top package's call)."""
    _Lent.loader = loader


def frames() -> FrameSupport:
    """The DataFrame layer's functions, importing it on first use (which imports pandas)."""
    if _Lent.provided is None and _Lent.loader is not None:
        _Lent.loader()
    if _Lent.provided is None:  # only when anvia_nb.frames was never imported nor loadable
        raise AnviaError("DataFrame support is not loaded: import anvia_nb.frames first.")
    return _Lent.provided
