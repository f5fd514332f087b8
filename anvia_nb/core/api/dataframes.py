"""DataFrames for the core and the display, lent by the layer that has pandas.

The core maps plain argument rows itself (:mod:`anvia_nb.core.api.batch`). A DataFrame given to
``tool.map``, every ``tool.map_sync`` (it needs the runtime's loop and a progress line) and
``ResultView.frame()`` belong to the DataFrame layer, :mod:`anvia_nb.frames`, which sits above core
and display: they never import it. It hands them its functions here when it is imported
(:func:`provide`), and the top package says how to import it on first use (:func:`load_with`),
so ``import anvia_nb`` loads no pandas and nothing below reaches up.

Nothing heavy at run time: the top package imports this module when it is imported.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from anvia_nb.core.api.map_options import MapOptions
from anvia_nb.errors import AnviaError

if TYPE_CHECKING:
    from anvia_nb.core.protocol.types import CallOutcome

__all__ = ["FrameSupport", "frames", "load_with", "provide"]


class FrameSupport(NamedTuple):
    """What the DataFrame layer lends: a map of a frame, a blocking map of anything, a result's table.

    The first argument of the maps is the :class:`~anvia_nb.core.api.tool.Tool` (typed ``Any``
    here, since ``tool`` imports this module)."""

    map_frame: Callable[[Any, Any, MapOptions], Awaitable[Any]]
    """``await tool.map(df)``: a pandas (or Dask) DataFrame of results."""
    map_sync: Callable[[Any, Any, MapOptions], Any]
    """``tool.map_sync(rows or df)``: blocks on the runtime's loop, interruptibly."""
    result_frame: Callable[[CallOutcome], Any]
    """``ResultView.frame()``: a result's structured content as a DataFrame."""


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
