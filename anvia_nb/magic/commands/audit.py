"""Running ``%mcp audit``, ``%mcp pin`` and ``%mcp diff``, and the pins' word after a connect
(docs/audit.md). Their entries in the one table (:mod:`anvia_nb.magic.subcommands`) point here.

The lock file is the ``lock_file`` setting (``mcp-lock.json`` beside the notebook by default) or
the line's ``--lock FILE``. Their imports of core load on first use (the MCP SDK is not loaded
by ``%load_ext``: tests/package/test_import_cost.py). In viewer mode nothing is written:
pinning, accepting and exporting are refused in one line. Accepted findings stay in the
audit's DataFrame with their reason in ``accepted``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from anvia_nb.errors import AnviaError, InvalidValueError, UnknownConnectionError
from anvia_nb.magic.output.connect_text import NOTHING_CONNECTED
from anvia_nb.magic.parse.audit import AuditCommand, DiffCommand, PinCommand

if TYPE_CHECKING:
    import pandas as pd

    from anvia_nb.core.api.server import McpServer
    from anvia_nb.core.audit.definitions import Definition
    from anvia_nb.core.audit.diff import DefinitionChange
    from anvia_nb.core.audit.pins import Lock
    from anvia_nb.magic.commands.host import MagicHost
    from anvia_nb.policy import ShowPolicy

__all__ = ["note_pins", "pin_lines", "run_audit", "run_diff", "run_pin"]


def _servers(magics: MagicHost, names: tuple[str, ...]) -> list[McpServer]:
    runtime = magics.runtime
    if not names and not runtime.names():
        raise UnknownConnectionError(NOTHING_CONNECTED)
    return [runtime.server(name) for name in names or runtime.names()]


def _writes(magics: MagicHost, what: str) -> None:
    if magics.show_policy().for_viewers:
        raise InvalidValueError(f"Viewer mode writes no file: {what} is for the notebook's author.")


def _policy(magics: MagicHost, servers: list[McpServer]) -> ShowPolicy:
    return magics.show_policy(tuple(s for server in servers for s in server.secrets))


def run_audit(magics: MagicHost, command: AuditCommand) -> pd.DataFrame:
    """``%mcp audit``: the findings of the connections together, accepted rows marked, exported."""
    from anvia_nb.core.api.audit import audit_servers
    from anvia_nb.core.audit.exports import json_report, sarif_log
    from anvia_nb.core.audit.pins import accept_findings, write_whole
    from anvia_nb.core.audit.report import review
    from anvia_nb.frames.audit import findings_frame

    servers = _servers(magics, command.names)
    lock = command.lock or magics.lock_file
    if command.accept or command.sarif or command.json:
        _writes(magics, "--accept" if command.accept else "exporting")
    reviewed = magics.runtime.run(audit_servers(servers, lock=lock))
    if command.accept:
        beyond = [row for row in command.accept if row >= len(reviewed)]
        if beyond:
            raise InvalidValueError(f"The audit has rows 0 to {len(reviewed) - 1}; no row {beyond[0]}.")
        held, added = accept_findings(lock, [reviewed[row].finding for row in command.accept], command.reason)
        reviewed = review([r.finding for r in reviewed], held)
        print(f"accepted {len(added)} finding{'s' * (len(added) != 1)} in {held.path}")
    policy = _policy(magics, servers)
    if command.sarif:
        log = sarif_log(reviewed, artifact=lock, mask=policy.mask)
        write_whole(Path(command.sarif), json.dumps(log, indent=2) + "\n")
        print(f"wrote SARIF 2.1.0 to {command.sarif}")
    if command.json:
        report = json_report(reviewed, mask=policy.mask)
        write_whole(Path(command.json), json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        print(f"wrote JSON to {command.json}")
    return findings_frame(reviewed, policy)


def pin_lines(name: str, changes: list[DefinitionChange], lock: Path, policy: ShowPolicy) -> list[str]:
    """What a connect says of ``changes`` since pinned: one line each, then a changed item's difference."""
    lines = []
    for change in changes:
        refused = f"; calls are refused until %mcp pin {name}" if change.kind == "tool" else ""
        accept = "" if refused else f"; %mcp pin {name} accepts it"
        lines.append(
            f"pins: {name}: {change.kind} {policy.name(change.item)} {change.change} since pinned in "
            f"{lock.name}{refused if change.change == 'changed' else accept}"
        )
        if change.change == "changed" and not policy.for_viewers:
            lines += ["    " + line for line in policy.text(change.difference).splitlines()]
    return lines


def _watch(server: McpServer, lock: Path) -> None:
    """Compare with the pins after every ``list_changed``: changed tools refused, a log line each."""
    from anvia_nb.core.api.audit import watch_pins

    watch_pins(server, lock)


def note_pins(magics: MagicHost, name: str) -> None:
    """After ``%mcp connect NAME``: compare with the pins, print what changed (one line each,
    the difference below), refuse changed tools, and watch for ``list_changed`` from now on."""
    from anvia_nb.core.api.audit import check_pins

    lock = Path(magics.lock_file)
    server = magics.runtime.server(name)
    try:
        changes = magics.runtime.run(check_pins(server, lock))
    except AnviaError as exc:  # a lock file that cannot be trusted, a listing that failed: the connect stands
        print(f"pins: {magics.show_policy(server.secrets).error_line(exc)}")
        return
    if changes is None:
        return
    for line in pin_lines(name, changes, lock, _policy(magics, [server])):
        print(line)
    _watch(server, lock)


def run_pin(magics: MagicHost, command: PinCommand) -> None:
    """``%mcp pin NAME ...``: every item's definition and hash in the lock file."""
    from anvia_nb.core.api.audit import pin_servers

    _writes(magics, "pinning")
    servers = _servers(magics, command.names)
    lock = Path(command.lock or magics.lock_file)
    held = magics.runtime.run(pin_servers(servers, lock))
    for server in servers:
        pinned = held.pinned(server.name) or []
        print(f"pinned {len(pinned)} items of {server.name} in {lock}")
        _watch(server, lock)


def _recorded(magics: MagicHost, name: str, path: str) -> list[Definition]:
    from anvia_nb.core.api.audit import server_definitions
    from anvia_nb.core.api.factories import mcp
    from anvia_nb.core.api.server import connect_mcp

    async def read() -> list[Definition]:
        server = await connect_mcp(mcp.replay(name=name, path=path))
        try:
            return await server_definitions(server)
        finally:
            await server.close()

    return magics.runtime.run(read())


def run_diff(magics: MagicHost, command: DiffCommand) -> pd.DataFrame:
    """``%mcp diff``: items added, removed and changed, with the difference."""
    from anvia_nb.core.api.audit import server_definitions
    from anvia_nb.core.audit.diff import compare_definitions
    from anvia_nb.core.audit.pins import read_lock
    from anvia_nb.frames.audit import diff_frame

    runtime = magics.runtime
    server = runtime.server(command.name)
    live = runtime.run(server_definitions(server))
    servers = [server]
    if command.other is not None:
        other = runtime.server(command.other)
        servers.append(other)
        before, old = live, command.name
        live, new = runtime.run(server_definitions(other)), command.other
    elif command.recording is not None:
        before, old, new = _recorded(magics, command.name, command.recording), command.recording, command.name
    else:
        lock = Path(command.lock or magics.lock_file)
        pinned = _pins(read_lock(lock), command.name, lock)
        before, old, new = pinned, f"pinned ({lock.name})", command.name
    return diff_frame(compare_definitions(before, live, old=old, new=new), _policy(magics, servers))


def _pins(lock: Lock, name: str, path: Path) -> list[Definition]:
    pinned = lock.pinned(name)
    if pinned is None:
        raise InvalidValueError(f"{name} is not pinned in {path}: %mcp pin {name} first.")
    return pinned
