"""DataFrames for the core and the display, lent by the layer that has pandas.

The core maps plain argument rows itself (:mod:`anvia_nb.core.api.batch`). A DataFrame given to
``tool.map``, every ``tool.map_sync`` (it needs the runtime's loop and a progress line) and
``ResultView.frame()`` belong to the DataFrame layer, :mod:`anvia_nb.frames`, which sits above core
and display: they never import it. It hands them its functions here when it is imported
(:func:`provide`), and the top package says how to import it on first use (:func:`load_with`),
so ``import anvia_nb`` loads no pandas and nothing below reaches up.

What is lent is typed here: :class:`FrameSupport` says the three functions' signatures,
:class:`FrameTool` what they read of the tool they are given (a
:class:`~anvia_nb.core.api.tool.Tool` is one: named here as a Protocol, not imported, since the
tool imports this module), and :class:`DataFrameLike` is what the core knows of a pandas (or Dask)
DataFrame without importing pandas (a ``pandas.DataFrame`` is one; the DataFrame layer narrows to
it with ``isinstance``).

Nothing heavy at run time: the top package imports this module when it is imported.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from anvia_nb.core.api.batch import MapOptions, MappedTool, RowOutcome
from anvia_nb.errors import AnviaError

if TYPE_CHECKING:
    import asyncio

    from anvia_nb.core.audit.report import Reviewed
    from anvia_nb.core.protocol.types import CallOutcome, JsonObject, ToolInfo

__all__ = [
    "DataFrameLike",
    "FrameClient",
    "FrameServer",
    "FrameSupport",
    "FrameTool",
    "frames",
    "load_with",
    "provide",
]


class DataFrameLike(Protocol):
    """A table with named columns and a length: a pandas or Dask DataFrame, as the core sees it."""

    @property
    def columns(self) -> Iterable[Hashable]: ...

    def __len__(self) -> int: ...


class FrameClient(Protocol):
    """What a map of a frame reads of its server's client: the loop it was opened on."""

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None: ...


class FrameServer(Protocol):
    """What the DataFrame layer reads of a tool's server: its name and secret values (for the
    results' masks and messages), its connection (what a Dask worker opens again) and its client."""

    @property
    def name(self) -> str: ...

    @property
    def secrets(self) -> Sequence[str]: ...

    @property
    def connection(self) -> object:
        """Its :class:`~anvia_nb.core.api.connections.McpConnection`, which a Dask map pickles for
        its workers (named ``object`` here: importing the connections would load the SDK)."""
        ...

    @property
    def client(self) -> FrameClient: ...


class FrameTool(MappedTool, Protocol):
    """What the DataFrame layer reads of a tool (a :class:`~anvia_nb.core.api.tool.Tool`): what a
    map calls (:class:`~anvia_nb.core.api.batch.MappedTool`), its name, listing and outputSchema,
    and its server."""

    @property
    def name(self) -> str: ...

    info: ToolInfo

    @property
    def output_schema(self) -> JsonObject | None: ...

    @property
    def server(self) -> FrameServer: ...


class FrameSupport(Protocol):
    """What the DataFrame layer lends: a map of a frame, a blocking map of anything, a result's table."""

    def map_frame(self, tool: FrameTool, frame: object, options: MapOptions, /) -> Awaitable[DataFrameLike]:
        """``await tool.map(df)``: a pandas (or Dask) DataFrame of results. ``frame`` is what the map
        was given that is not rows: a DataFrame, or anything else, refused with ``InvalidTypeError``."""
        ...

    def map_sync(self, tool: FrameTool, rows: object, options: MapOptions, /) -> list[RowOutcome] | DataFrameLike:
        """``tool.map_sync(rows or df)``: blocks on the runtime's loop, interruptibly (anything but rows
        or a DataFrame is refused with ``InvalidTypeError``)."""
        ...

    def result_frame(self, outcome: CallOutcome, /) -> DataFrameLike:
        """``ResultView.frame()``: a result's structured content as a DataFrame."""
        ...

    def findings_frame(self, reviewed: Sequence[Reviewed], /) -> DataFrameLike:
        """``await server.audit()``: one row per finding, every server string through the policy."""
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
