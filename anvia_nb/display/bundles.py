"""Jupyter mime bundles for one tool call: ``text/plain``, ``text/html`` and, when present, JSON.

The bundle opens with anvia_nb's own header (badge, server, tool, status, seconds). Server text never
enters it except the server and tool names, escaped; everything the server sent follows in labelled,
bordered blocks (see ``_blocks``). Error results look like errors; ``input_required`` results are
never rendered as output; everything is bounded and masked by the one
:class:`~anvia_nb.policy.ShowPolicy` the :class:`RenderSettings` and the connection's secrets make.
"""

from __future__ import annotations

import functools
import json
import operator
from collections.abc import Collection, Sequence
from typing import Any

from anvia_nb.core.protocol.content import UNSUPPORTED_KINDS
from anvia_nb.core.protocol.types import CallOutcome, CallRecord, CallStatus, status_of
from anvia_nb.display._blocks import (
    Context,
    Piece,
    bounded_json,
    content_blocks,
    note,
    server_text,
)
from anvia_nb.display._html import Html, Template, element, is_link_url, join, link, template
from anvia_nb.display.settings import RenderSettings
from anvia_nb.errors import (
    UNSUPPORTED_CONTENT_MESSAGE,
    ArgumentValidationError,
    OutputSchemaError,
    ProtocolError,
    ToolCallError,
    ToolResultError,
    UnsupportedContentError,
    UrlElicitationRequiredError,
)
from anvia_nb.policy import HIDDEN_SERVER_ERROR, NOT_MATH_CLASSES

__all__ = ["bundle_from_error", "bundle_from_outcome", "display_status", "filtered_bundle"]

_TONES = {
    "ok": ("header", "status-ok"),
    "unsupported content": ("header-warn", "status-warn"),
    "schema mismatch": ("header-warn", "status-warn"),
    "cancelled": ("header-warn", "status-warn"),
}


def _content(raw: dict[str, Any] | None) -> list[Any]:
    content = None if raw is None else raw.get("content")
    return content if isinstance(content, list) else []


def filtered_bundle(
    bundle: dict[str, Any], include: Collection[str] | None, exclude: Collection[str] | None
) -> dict[str, Any]:
    """``bundle`` keeping only the mime types in ``include`` and none in ``exclude`` (each when given),
    as ``_repr_mimebundle_(include, exclude)`` is asked for them."""
    if include:
        bundle = {k: v for k, v in bundle.items() if k in include}
    if exclude:
        bundle = {k: v for k, v in bundle.items() if k not in exclude}
    return bundle


def display_status(outcome: CallOutcome | CallRecord) -> CallStatus:
    """The status shown in the header or a history row: unsupported content is never shown as ok
    (see :attr:`CallOutcome.shown_status`)."""
    return outcome.shown_status


def _status_from_error(error: BaseException) -> CallStatus:
    """:func:`status_of`, except that any ``TimeoutError`` shows as ``"timeout"`` and a cancelled
    task as ``"failed"``, as the view of a failure with no outcome has always shown them."""
    if isinstance(error, TimeoutError):
        return "timeout"
    status = status_of(error)
    return "failed" if status == "cancelled" else status


def links_only(raw: dict[str, Any] | None, error: BaseException | None) -> int:
    """How many resource links a result holds when they are all that keeps it from mapping: a
    valid result whose only refusal is the mapping's (``UnsupportedContentError``: Anvia maps no
    ``resource_link``). ``0`` for any other result."""
    if raw is None or raw.get("isError") is True or raw.get("resultType") == "input_required":
        return 0
    if error is not None and not isinstance(error, UnsupportedContentError):
        return 0
    refused = [i for i in _content(raw) if isinstance(i, dict) and i.get("type") in UNSUPPORTED_KINDS]
    if not refused or any(i.get("type") != "resource_link" for i in refused):
        return 0
    return len(refused)


def _links_note(count: int) -> Piece:
    """The mapping's refusal of resource links, said as a note under what the server sent."""
    return note(
        f"{UNSUPPORTED_CONTENT_MESSAGE}: resource_link. Anvia's mapping refuses it, so .output is None and "
        f"tool.call() raises UnsupportedContentError; the link{'s are' if count != 1 else ' is'} in .links "
        "and .raw, and read only when you ask."
    )


def header(
    ctx: Context, status: CallStatus, seconds: float | None, origin: str | None = None, *, label: str = ""
) -> Piece:
    """anvia_nb's own chrome: a fixed element whose only server-given text is the two names, escaped.
    ``origin`` says where a result came from when not from a live server ("replayed from FILE");
    ``label`` (our words) is shown instead of the status, in the header's neutral tone."""
    box_style, status_style = ("header", "status-ok") if label else _TONES.get(status, ("header-error", "status-error"))
    shown: str = label or status
    tool = ctx.policy.name(ctx.tool)
    plain = f"[MCP {ctx.server_label} · {tool}] {shown}"
    said: list[str] = []
    if seconds is not None:
        said.append(f"{seconds:.2f} s")
    if origin:
        said.append(ctx.policy.line(origin, ctx.policy.limits.line_chars))
    frame = _header(ctx.server_label, tool, shown, status_style, box_style, seconds is not None, bool(origin))
    return Piece(frame.fill(*said), " · ".join([plain, *said]) if said else plain)


@functools.lru_cache(maxsize=256)
def _header(
    server_label: str, tool: str, shown: str, status_style: str, box_style: str, timed: bool, from_origin: bool
) -> Template:
    """The header around its seconds and origin (its slots): the same few per connection, built
    once (issue 41). Its inputs are already masked and bounded names, so the cache holds nothing a
    header does not show."""

    def build(*said: Html) -> Html:
        names = [
            element("span", "MCP", cls="anvia-badge", style="badge"),
            element("b", server_label, cls="anvia-server-name"),
            element("span", "·", style="muted"),
            element("code", tool, cls="anvia-tool-name"),
            element("span", shown, cls="anvia-status", style=status_style),
        ]
        classes = ["anvia-seconds"] * timed + ["anvia-origin"] * from_origin
        extra = [element("span", text, cls=cls, style="muted") for cls, text in zip(classes, said, strict=True)]
        return element("div", join(names), *extra, cls="anvia-header", style=box_style)

    return template(build, timed + from_origin)


def error_block(error: BaseException, ctx: Context, *, list_problems: bool = True) -> list[Piece]:
    """The error with provenance: our message, then the server's own text set apart, or hidden."""
    kind = type(error).__name__
    if ctx.policy.hides(error):  # for viewers: what happened in plain words, none of the server's
        return [server_text("error", ctx.policy.viewer_line(error, ctx.server), ctx, error=True)]
    server_words = getattr(error, "server_text", "") if isinstance(error, (ToolCallError, ProtocolError)) else ""
    message = str(error)
    label = f"error from server {ctx.server_label}" if isinstance(error, ToolResultError) else "error"
    pieces = [server_text(label, f"{kind}: {message}" if message else kind, ctx, error=True)]
    if isinstance(server_words, str) and server_words and server_words not in message:
        pieces.append(server_text(f"error text from server {ctx.server_label}", server_words, ctx, error=True))
    if isinstance(error, UrlElicitationRequiredError) and error.url:
        pieces.append(_url_piece(error.url, ctx))
    problems = getattr(error, "problems", None)
    if list_problems and isinstance(error, (ArgumentValidationError, OutputSchemaError)) and problems:
        pieces.append(server_text("problems", "\n".join(map(str, problems)), ctx, error=True))
    return pieces


def _url_piece(url: str, ctx: Context) -> Piece:
    """The URL a server asks the person to open (-32042): as text, and as a link when it is a
    whole, plain http(s) URL. Masked; nothing opens it but the person."""
    shown = ctx.policy.line(url, ctx.policy.limits.text_chars)
    label = f"URL from server {ctx.server_label}: open it yourself if you trust it (nothing was opened)"
    body: Html | str = link(shown, shown) if shown == ctx.policy.mask(url) and is_link_url(shown) else shown
    box = element(
        "div",
        element("div", label, cls="anvia-label", style="label"),
        element("div", body, cls="anvia-url", style="pre"),
        cls="anvia-server-block",
        style="server-box",
    )
    return Piece(box, f"--- {label} ---\n{shown}")


def structured_block(
    value: Any, problems: list[str] | None, ctx: Context, *, label: str = "structured content", verdict: bool = True
) -> list[Piece]:
    """structuredContent as pretty JSON with the outputSchema verdict; invalid data is still shown."""
    copy, _cut = bounded_json(value, max(0, ctx.budget.remaining), ctx.policy)
    pretty = json.dumps(copy, indent=2, ensure_ascii=False)
    pieces: list[Piece] = []
    if not verdict:
        pass
    elif problems is None:
        pieces = [note("No outputSchema declared: structuredContent is not validated.")]
    elif not problems:
        pieces = [note("structuredContent matches the tool's outputSchema.")]
    else:
        pieces = [
            note(
                f"structuredContent does NOT match the tool's outputSchema "
                f"({len(problems)} problem{'' if len(problems) == 1 else 's'}):"
            ),
            server_text("schema problems", "\n".join(map(str, problems)), ctx, error=True),
        ]
    pieces.append(server_text(f"{label} from server {ctx.server_label}", pretty, ctx))
    return pieces


def _result_pieces(
    raw: dict[str, Any],
    outcome_error: BaseException | None,
    problems: list[str] | None,
    ctx: Context,
    *,
    refusal: bool = True,
) -> list[Piece]:
    """Pieces for a result that arrived."""
    if raw.get("resultType") == "input_required":
        return [
            note(
                "The server asked for more input (resultType input_required). That request is not "
                "output and is not shown here; it is in `.raw`."
            )
        ]
    pieces: list[Piece] = []
    is_error = raw.get("isError") is True or isinstance(outcome_error, ToolResultError)
    content = _content(raw)
    if is_error:
        if ctx.policy.hides():  # isError content is server text, all of it
            return error_block(outcome_error or ToolResultError(HIDDEN_SERVER_ERROR), ctx)
        pieces.append(note("The tool reported an error (isError: true). Its text is the server's, shown below."))
        if not content and outcome_error is not None:
            pieces.extend(error_block(outcome_error, ctx))
    elif outcome_error is not None:
        pieces.extend(error_block(outcome_error, ctx, list_problems=problems is None))
    pieces.extend(content_blocks(content, ctx, error=is_error))
    if "toolResult" in raw and not content:
        value = raw["toolResult"]
        if isinstance(value, str):
            pieces.append(server_text(f"toolResult from server {ctx.server_label}", value, ctx))
        else:
            pieces.extend(structured_block(value, None, ctx, label="toolResult", verdict=False))
    if raw.get("structuredContent") is not None:
        pieces.extend(structured_block(raw["structuredContent"], problems, ctx))
    elif problems:
        pieces.append(server_text("schema problems", "\n".join(map(str, problems)), ctx, error=True))
    if not content and "toolResult" not in raw and raw.get("structuredContent") is None:
        pieces.append(note("The result has no content."))
    if refusal and outcome_error is None:
        for item in content:  # a loop, not any(...) over a generator: once per result (issue 41)
            if isinstance(item, dict) and item.get("type") in UNSUPPORTED_KINDS:
                pieces.append(note(UNSUPPORTED_CONTENT_MESSAGE))
                break
    return pieces


def _bundle(pieces: list[Piece], ctx: Context) -> dict[str, Any]:
    """text/plain and text/html only: JupyterLab ranks application/json above text/html, so a
    JSON tree in the same bundle would hide the header, the status and the error styling."""
    html = element("div", *map(_HTML_OF, pieces), cls=_RESULT_CLASSES)
    return {
        "text/plain": ctx.policy.mask("\n".join(map(_PLAIN_OF, pieces))),
        "text/html": html.markup,
    }


_RESULT_CLASSES = f"anvia-result {NOT_MATH_CLASSES}"
_HTML_OF, _PLAIN_OF = operator.attrgetter("html"), operator.attrgetter("plain")  # no Python call per piece


def tree_bundle_from_outcome(
    outcome: CallOutcome,
    settings: RenderSettings = RenderSettings(),  # noqa: B008
) -> dict[str, Any] | None:
    """structuredContent alone as ``application/json`` (JupyterLab's collapsible tree), bounded and
    masked; ``None`` when there is none. Shown as its own output, never beside the result's HTML."""
    if outcome.raw is None or outcome.raw.get("structuredContent") is None:
        return None
    policy = settings.policy(outcome.secrets)
    copy, _cut = bounded_json(outcome.raw["structuredContent"], policy.limits.output_chars, policy)
    masked = policy.mask_json(copy)
    plain = json.dumps(masked, indent=2, ensure_ascii=False)
    return {"application/json": masked, "text/plain": plain}


def _context(server: str, tool: str, secrets: Sequence[str], settings: RenderSettings) -> Context:
    return Context(server, tool, settings.policy(secrets))


def bundle_from_outcome(outcome: CallOutcome, settings: RenderSettings = RenderSettings()) -> dict[str, Any]:  # noqa: B008
    """The mime bundle for one call: text/plain and text/html (structuredContent shown inside, with
    its outputSchema verdict; :func:`tree_bundle_from_outcome` gives the JSON tree on its own)."""
    ctx = _context(outcome.server, outcome.tool, outcome.secrets, settings)
    links = links_only(outcome.raw, outcome.error)
    if links and outcome.raw is not None:  # it leads with what the server sent; the refusal is a note
        label = f"{links} resource link{'s' if links != 1 else ''}"
        pieces = [header(ctx, outcome.shown_status, outcome.seconds, outcome.origin, label=label)]
        ctx.refusal_in_note = True
        pieces.extend(_result_pieces(outcome.raw, None, outcome.schema_problems, ctx, refusal=False))
        pieces.append(_links_note(links))
        return _bundle(pieces, ctx)
    pieces = [header(ctx, outcome.shown_status, outcome.seconds, outcome.origin)]
    if outcome.raw is None:
        if outcome.error is not None:
            pieces.extend(error_block(outcome.error, ctx))
        else:
            pieces.append(note("No result arrived."))
    else:
        pieces.extend(_result_pieces(outcome.raw, outcome.error, outcome.schema_problems, ctx))
    return _bundle(pieces, ctx)


def bundle_from_error(
    server: str,
    tool: str,
    error: BaseException,
    secrets: Sequence[str] = (),
    settings: RenderSettings = RenderSettings(),  # noqa: B008
) -> dict[str, Any]:
    """The mime bundle for a failure with no CallOutcome (connection lost, bad arguments...)."""
    ctx = _context(server, tool, secrets, settings)
    pieces = [header(ctx, _status_from_error(error), None)]
    raw = error.raw if isinstance(error, ToolCallError) else None
    if isinstance(raw, dict):
        problems = error.problems if isinstance(error, OutputSchemaError) else None
        pieces.extend(_result_pieces(raw, error, problems, ctx))
    else:
        pieces.extend(error_block(error, ctx))
    return _bundle(pieces, ctx)
