"""``ResultView``: one call's outcome as a value a notebook displays safely and code reads exactly.

Jupyter calls ``_repr_mimebundle_`` to show it (masked, bounded, escaped); code reads ``.output``
and ``.raw``, which stay exactly what the server sent and the result mapping made of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from anvia_nb._passthrough import Passthrough
from anvia_nb.core.api.dataframes import DataFrameLike, frames
from anvia_nb.core.protocol.content import resource_links
from anvia_nb.core.protocol.readings import ResourceRead
from anvia_nb.core.protocol.types import CallOutcome, CallStatus, JsonObject, JsonValue, MappedOutput
from anvia_nb.display.bundles import (
    bundle_from_outcome,
    display_status,
    filtered_bundle,
    tree_bundle_from_outcome,
)
from anvia_nb.display.model_context import model_context_from_outcome
from anvia_nb.display.settings import RenderSettings
from anvia_nb.errors import AnviaError, InvalidValueError

if TYPE_CHECKING:
    from anvia_nb.display.reading_views import ReadView

__all__ = ["JsonTree", "LinkReader", "ResultView"]

LinkReader = Callable[[CallOutcome, int], ResourceRead]
"""``reader(outcome, i)`` reads the result's ``i``-th resource link over its connection."""


class JsonTree:
    """structuredContent as its own output, so JupyterLab shows a collapsible JSON tree."""

    def __init__(self, bundle: dict[str, Any]) -> None:
        self.bundle = bundle

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict[str, Any]:
        return filtered_bundle(dict(self.bundle), include, exclude)


class ResultView:
    """A displayable wrapper of a :class:`CallOutcome`; no IPython needed to render it.

    Shown as a cell's last value: a provenance header, the result (masked, bounded, server text
    escaped), errors styled. Its properties give the data exactly as sent.

    Parameters
    ----------
    outcome : CallOutcome
        The call's outcome (``tool.call_outcome(...)``).
    settings : RenderSettings, optional
        How it renders; ``None``: the defaults.
    reader : callable, optional
        ``reader(outcome, i)`` reads the ``i``-th resource link over its connection (the magic and
        the widgets give one); ``None``: ``read_link`` cannot read.
    """

    output = Passthrough[MappedOutput | None](
        "outcome.output", "The mapped output (docs/mapping.md; ``None`` when the call failed); exact, not masked."
    )
    raw = Passthrough[JsonObject | None](
        "outcome.raw", "The result as the server sent it (wire keys), or ``None``; exact, not masked."
    )
    structured = Passthrough[JsonValue](
        "outcome.structured", "``structuredContent`` as sent, or ``None``; exact, not masked."
    )
    is_error = Passthrough[bool]("outcome.is_error", "Whether the call failed (``error`` is set).")
    error = Passthrough[AnviaError | None](
        "outcome.error", "The call's error (an ``AnviaError``), or ``None`` when it succeeded."
    )
    server = Passthrough[str]("outcome.server", "The connection's name.")
    tool = Passthrough[str]("outcome.tool", "The tool's name.")
    seconds = Passthrough[float]("outcome.seconds", "How long the call took, in seconds.")
    arguments = Passthrough[JsonObject | None]("outcome.arguments", "The arguments sent, or ``None``.")

    def __init__(
        self, outcome: CallOutcome, settings: RenderSettings | None = None, *, reader: LinkReader | None = None
    ) -> None:
        self.outcome = outcome
        self.settings = settings if settings is not None else RenderSettings()
        self.reader = reader
        """Reads a resource link when asked (the magic and the widgets give one); never by itself."""

    @property
    def status(self) -> CallStatus:
        """How the call ended as shown: ``"ok"``, ``"tool error"``, ``"schema mismatch"``, ``"timeout"``..."""
        return display_status(self.outcome)

    @property
    def links(self) -> list[JsonObject]:
        """The result's resource links as sent, numbered as :meth:`read_link` takes them."""
        content = None if self.outcome.raw is None else self.outcome.raw.get("content")
        return resource_links(content if isinstance(content, list) else [])

    def read_link(self, index: int = 0) -> ReadView:
        """Read the ``index``-th resource link, because you ask: over the same connection, shown as
        "read on request from server NAME". Nothing reads a link by itself.

        Parameters
        ----------
        index : int, optional
            Which link, from 0 (the default), numbered as ``links`` lists them.

        Returns
        -------
        ReadView
            The read, displayable.

        Raises
        ------
        InvalidValueError
            The view has no reader (use ``await server.read_link(outcome, i)``), or the result has no
            link at ``index``.
        """
        from anvia_nb.display.reading_views import ReadView

        if self.reader is None:
            raise InvalidValueError(
                "This result view has no connection to read with: use await server.read_link(outcome, i)."
            )
        return ReadView(self.reader(self.outcome, index), self.settings)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict[str, Any]:
        return filtered_bundle(bundle_from_outcome(self.outcome, self.settings), include, exclude)

    def tree(self) -> JsonTree | None:
        """structuredContent (masked, bounded) as a JSON tree output.

        Kept out of the result's own bundle: JupyterLab prefers application/json to text/html
        and would hide the provenance header and the error styling behind the tree.

        Returns
        -------
        JsonTree or None
            ``None`` when there is no structured content.
        """
        bundle = tree_bundle_from_outcome(self.outcome, self.settings)
        return JsonTree(bundle) if bundle is not None else None

    def frame(self) -> DataFrameLike:
        """The structured content as a pandas DataFrame: a list of objects, or an object holding one
        list of objects, columns in the order and with the types of the tool's outputSchema.

        The values are data, as sent (like :attr:`structured`); pandas is imported on first use.

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        NotTabularError
            The structured content is not a table.
        """
        return frames().result_frame(self.outcome)

    def model_context(self) -> str:
        """This result as untrusted, attributed data for a model.

        Returns
        -------
        str
            Text that says where the data came from and that it is not instructions.
        """
        return model_context_from_outcome(self.outcome, self.settings)

    def __repr__(self) -> str:
        name = self.settings.policy(self.outcome.secrets).name(f"{self.outcome.server}.{self.outcome.tool}")
        return f"<ResultView {name!r} {self.status} {self.outcome.seconds:.2f} s>"
