"""Running the lines about what went on with a server: ``%mcp log``, ``%mcp trace`` and ``%mcp history``.

``%mcp trace NAME --last N`` keeps the last N messages; ``--call N`` the messages one call made, N
being its row in ``%mcp history`` (``-1``: the last call): its request (a request per round when
the server answered ``input_required``), the progress and log messages meanwhile, a cancellation,
what the server asked of the client, and the answer; for a call that became a task, the task's
polls, status notifications and result too. ``%mcp history --to-pytest FILE`` writes the history
as a pytest module (:func:`anvia_nb.runtime.to_pytest.pytest_module`) that connects to the named
connections (all of the history's, by default) as they are open now, repeats the calls and checks
what was seen.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from anvia_nb.core.exchange.trace import TraceEntry, call_entries
from anvia_nb.errors import CommandLineError, InvalidValueError
from anvia_nb.magic.parse.commands import HistoryCommand, LogCommand
from anvia_nb.magic.parse.exchange import TraceCommand

if TYPE_CHECKING:
    from collections.abc import Mapping

    import pandas as pd

    from anvia_nb.core.protocol.types import CallRecord
    from anvia_nb.magic.commands.host import MagicHost

__all__ = ["run_history", "run_log", "run_trace"]


def run_log(magics: MagicHost, command: LogCommand) -> pd.DataFrame:
    from anvia_nb.magic.output.exchange import log_frame

    log = magics.runtime.log(command.name)
    if log.transport == "replay":
        origin = magics.runtime.server(command.name).client.origin
        print(f"note: {command.name} is {origin}: a recording holds no server log, only anvia_nb's own notes.")
    return log_frame(log, command.lines, magics.show_policy())


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
        raise InvalidValueError(_other_server_hint(magics, command.name, command.call, outcome.server, calls))
    if outcome.requested_by is not None:
        print(
            f"note: call {command.call} was asked for by a tool's interactive view ({outcome.requested_by}), "
            "not by a cell; it went through the same connection."
        )
    if outcome.trace_span is None:
        return []
    first, last = outcome.trace_span
    if entries and entries[0].seq > first:
        print(f"note: {command.name}: the first messages of this call were dropped from the trace (it is bounded).")
    picked = call_entries(entries, first, last, outcome.tool)
    logs = [e for e in entries if first <= e.seq <= last and e.method == "notifications/message"]
    return sorted({e.seq: e for e in (*picked, *logs)}.values(), key=lambda e: e.seq)


def _other_server_hint(magics: MagicHost, name: str, call: int, went_to: str, calls: list[CallRecord]) -> str:
    """Call ``call`` went to ``went_to``, not ``name``: the trace to read, never a closed connection's."""
    said = f"Call {call} of %mcp history went to {went_to!r}, not {name!r}"
    if went_to in magics.runtime.names():
        return f"{said}: use %mcp trace {went_to} --call {call}."
    ours = [index - len(calls) for index, record in enumerate(calls) if record.server == name]
    if ours:  # the last call that went to `name`, counted from the end as --call -1 is
        return f"{said} (closed since, its trace gone): the last call to {name} is %mcp trace {name} --call {ours[-1]}."
    return f"{said} (closed since, its trace gone), and none went to {name!r}: %mcp trace {name} shows its messages."


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
        noted = magics.show_policy().limits.noted_requests
        shown = ", ".join(str(seq) for seq in sorted(asked)[:noted])
        more = f" and {len(asked) - noted} more" if len(asked) > noted else ""
        print(
            f"note: {name}: the calls in messages {shown}{more} were asked for by a tool's interactive view "
            "(%mcp history: requested_by)."
        )


def run_trace(magics: MagicHost, command: TraceCommand) -> pd.DataFrame:
    from anvia_nb.magic.output.exchange import trace_frame

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


def run_history(magics: MagicHost, command: HistoryCommand) -> pd.DataFrame | None:
    from anvia_nb.magic.output.tables import history_frame

    runtime = magics.runtime
    if command.to_pytest is None:
        return history_frame(runtime.calls(), magics.show_policy())
    from anvia_nb.runtime.to_pytest import pytest_module, pytest_note, run_command

    calls = [c for c in runtime.calls() if not command.names or c.server in command.names]
    unknown = [n for n in command.names if n not in {c.server for c in runtime.calls()}]
    if unknown:
        raise CommandLineError(
            f"The history has no calls to {unknown[0]!r}. Names in it: "
            f"{', '.join(dict.fromkeys(c.server for c in runtime.calls())) or 'none'}."
        )
    connections = {name: runtime.server(name).connection for name in runtime.names()}
    secrets = {name: runtime.server(name).secrets for name in runtime.names()}  # refreshed tokens too
    calls, left_out = _of_open_connections(calls, connections)
    words = ["%mcp history --to-pytest", command.to_pytest, *command.names]
    if command.loose:
        words += ["--loose", ",".join(command.loose)]
    source = pytest_module(
        calls, connections, loose=command.loose, command=" ".join(words), secrets=secrets, path=command.to_pytest
    )
    path = Path(command.to_pytest)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    except OSError as exc:
        raise CommandLineError(f"Cannot write {path}: {exc.strerror or exc}.") from exc
    print(f"wrote {path}: {len(calls)} call{'s' if len(calls) != 1 else ''} as tests; run it with: {run_command(path)}")
    if left_out:
        print(f"note: {left_out}")
    note = pytest_note()
    if note:
        print(note)
    return None


def _of_open_connections(calls: list[CallRecord], connections: Mapping[str, object]) -> tuple[list[CallRecord], str]:
    """The calls a test file can repeat (their connection is open: how to reach it is known), and
    a sentence naming those left out and why; every call left out is a one-line error."""
    closed = list(dict.fromkeys(c.server for c in calls if c.server not in connections))
    if not closed:
        return calls, ""
    kept = [c for c in calls if c.server in connections]
    left = len(calls) - len(kept)
    names = ", ".join(closed)
    one = len(closed) == 1
    why = f"{names} {'is' if one else 'are'} closed, so how to reach {'it' if one else 'them'} is unknown"
    if not kept:
        raise CommandLineError(f"No call can be written: {why}. Connect again as before, then write the file.")
    return kept, (
        f"left out {left} call{'s' if left != 1 else ''} to {names}: {why}; connect again as before and write "
        "the file again to test them too."
    )
