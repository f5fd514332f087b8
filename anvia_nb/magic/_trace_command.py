"""``%mcp trace NAME [--last N] [--call N]``: parsing (pure) and running (with the magic).

``--last N`` keeps the last N messages; ``--call N`` the messages one call made, N being its row
in ``%mcp history`` (``-1``: the last call): its request (a request per round when the server
answered ``input_required``), the progress and log messages meanwhile, a cancellation, what the
server asked of the client, and the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from anvia_nb.core.exchange.trace import TraceEntry, call_entries
from anvia_nb.errors import CommandLineError, InvalidValueError
from anvia_nb.magic._parser import split

if TYPE_CHECKING:
    from anvia_nb.magic._host import MagicHost

__all__ = ["TRACE_OPTIONS", "TraceCommand", "parse_trace", "run_trace"]

TRACE_OPTIONS = ("--last", "--call")
_USAGE = "Usage: %mcp trace NAME [--last N] [--call N]"


@dataclass(frozen=True)
class TraceCommand:
    name: str
    last: int | None = None
    call: int | None = None
    """A row of ``%mcp history`` (negative counts from the end)."""


def _number(option: str, value: str, *, positive: bool) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0 if positive else None  # type: ignore[assignment]
    if number is None or (positive and number <= 0):
        kind = "a positive whole number" if positive else "a whole number (a row of %mcp history; -1: the last)"
        raise CommandLineError(f"{option} takes {kind}, not {value!r}.")
    return number


def parse_trace(rest: str, _cell: str | None = None) -> TraceCommand:
    words = split(rest)
    name = ""
    last: int | None = None
    call: int | None = None
    index = 0
    while index < len(words):
        word = words[index]
        option, equals, value = word.partition("=")
        if option in TRACE_OPTIONS:
            if not equals:
                index += 1
                value = words[index] if index < len(words) else ""
            if option == "--last":
                last = _number(option, value, positive=True)
            else:
                call = _number(option, value, positive=False)
        elif word.startswith("-"):
            raise CommandLineError(f"Unknown option {word!r}. {_USAGE}")
        elif name:
            raise CommandLineError(f"{_USAGE} (one connection at a time).")
        else:
            name = word
        index += 1
    if not name:
        raise CommandLineError(_USAGE)
    return TraceCommand(name, last, call)


def _call_messages(magics: MagicHost, command: TraceCommand, entries: list[TraceEntry]) -> list[TraceEntry]:
    calls = magics.runtime.calls()
    assert command.call is not None
    try:
        outcome = calls[command.call]
    except IndexError:
        raise InvalidValueError(
            f"There is no call {command.call} in %mcp history ({len(calls)} calls kept); -1 is the last one."
        ) from None
    if outcome.server != command.name:
        raise InvalidValueError(
            f"Call {command.call} of %mcp history went to {outcome.server!r}, not {command.name!r}: "
            f"use %mcp trace {outcome.server} --call {command.call}."
        )
    if outcome.requested_by is not None:
        print(f"note: call {command.call} was asked for by a tool's interactive view ({outcome.requested_by}), "
              "not by a cell; it went through the same connection.")
    if outcome.trace_span is None:
        return []
    first, last = outcome.trace_span
    if entries and entries[0].seq > first:
        print(f"note: {command.name}: the first messages of this call were dropped from the trace (it is bounded).")
    picked = call_entries(entries, first, last, outcome.tool)
    logs = [e for e in entries if first <= e.seq <= last and e.method == "notifications/message"]
    return sorted({e.seq: e for e in (*picked, *logs)}.values(), key=lambda e: e.seq)


_NOTED_REQUESTS = 10


def _note_app_calls(magics: MagicHost, name: str, entries: list[TraceEntry]) -> None:
    """One note naming the shown ``tools/call`` requests that a tool's interactive view asked for."""
    if not entries:
        return
    asked: list[int] = []
    for record in magics.runtime.calls():
        if record.server != name or record.requested_by is None or record.trace_span is None:
            continue
        first, last = record.trace_span
        for entry in call_entries(entries, first, last, record.tool):
            if entry.kind == "request" and entry.direction == "sent" and entry.method == "tools/call":
                asked.append(entry.seq)
    if asked:
        shown = ", ".join(str(seq) for seq in sorted(asked)[:_NOTED_REQUESTS])
        more = f" and {len(asked) - _NOTED_REQUESTS} more" if len(asked) > _NOTED_REQUESTS else ""
        print(f"note: {name}: the calls in messages {shown}{more} were asked for by a tool's interactive view "
              "(%mcp history: requested_by).")


def run_trace(magics: MagicHost, command: TraceCommand) -> Any:
    from anvia_nb.magic.exchange import trace_frame

    server = magics.runtime.server(command.name)
    trace = server.trace
    if server.connection.transport == "memory":
        print(f"note: {command.name} is an in-memory connection: no messages go over a wire, so none are traced.")
    elif server.client.origin is not None:
        print(f"note: {command.name} is {server.client.origin}: a recording holds no messages, so none are traced.")
    entries = trace.entries()
    if command.call is not None:
        entries = _call_messages(magics, command, entries)
    elif trace.dropped and command.last is None:
        print(
            f"note: {command.name}: {trace.dropped} earlier messages were dropped from the trace "
            f"(it keeps at most {trace.max_messages} messages, {trace.max_total_chars:,} characters)."
        )
    if command.last is not None:
        entries = entries[-command.last :]
    if command.call is None:
        _note_app_calls(magics, command.name, entries)
    return trace_frame(entries, trace, magics.show_policy())
