"""``python -m anvia_nb audit``: audit the servers of a configuration file from a shell or CI.

::

    python -m anvia_nb audit --config FILE [--lock FILE] [--sarif FILE] [--json FILE] [--fail-on high]

Every server of the ``mcpServers`` file (the format ``%mcp connect --config`` reads) is connected,
audited together with the others (docs/audit.md), compared with the lock file's pins
(``mcp-lock.json`` in the working directory by default), and closed. One line per finding is
printed (server text made visible, masked and cut by the policy). The exit status is 1 when an
unaccepted finding at ``--fail-on`` or above exists or a pinned definition changed, 2 when the
command line, the file, the lock file or a server cannot be used, 0 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from anvia_nb.core.api.audit import audit_servers
from anvia_nb.core.api.server import McpServer, connect_mcp
from anvia_nb.core.audit.definitions import SEVERITIES, Severity
from anvia_nb.core.audit.exports import json_report, sarif_log
from anvia_nb.core.audit.pins import LOCK_FILE_NAME, write_whole
from anvia_nb.core.audit.report import Reviewed, fails
from anvia_nb.errors import AnviaError
from anvia_nb.magic.commands.config_files import servers_from_config_file
from anvia_nb.policy import ShowPolicy

__all__ = ["EXIT_FAILED", "EXIT_FINDINGS", "EXIT_OK", "main"]

EXIT_OK = 0
EXIT_FINDINGS = 1
"""A finding at the level or above, or a pinned definition that changed."""
EXIT_FAILED = 2
"""The command line, the configuration, the lock file or a server could not be used."""


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m anvia_nb", description="anvia_nb from a shell.")
    commands = parser.add_subparsers(dest="command", required=True)
    audit = commands.add_parser("audit", help="audit the servers of an mcpServers file (docs/audit.md)")
    audit.add_argument("--config", required=True, help="an mcpServers file (Claude, Cursor, VS Code)")
    audit.add_argument("--lock", default=LOCK_FILE_NAME, help=f"the lock file of pins (default {LOCK_FILE_NAME})")
    audit.add_argument("--sarif", help="write the findings as SARIF 2.1.0 to this file")
    audit.add_argument("--json", help="write the findings as JSON to this file")
    audit.add_argument("--fail-on", choices=SEVERITIES, default="high", help="the least severity that fails (high)")
    return parser.parse_args(argv)


def _line(r: Reviewed, policy: ShowPolicy) -> str:
    f, shown = r.finding, policy
    state = f" (accepted: {shown.line(r.accepted)})" if r.accepted is not None else ""
    return (
        f"{f.severity:<6} {shown.name(f.server)} {f.kind} {shown.name(f.item)}: {f.check}{state}: "
        f"{shown.line(f.evidence, shown.limits.line_chars)}"
    )


async def _audit(options: argparse.Namespace) -> tuple[list[Reviewed], list[str]]:
    found = servers_from_config_file(options.config)
    for note in found.notes:
        print(f"note: {note}", file=sys.stderr)
    servers: list[McpServer] = []
    secrets: list[str] = []
    try:
        for connection in found.connections.values():
            secrets += connection.secrets()
            servers.append(await connect_mcp(connection))
        return await audit_servers(servers, lock=options.lock), secrets
    finally:
        for server in servers:
            await server.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (``None``: the process's); the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        ``["audit", "--config", FILE, ...]``.

    Returns
    -------
    int
        0: nothing fails; 1: a finding at ``--fail-on`` or above, or a changed pin; 2: could not audit.
    """
    options = _arguments(argv)
    try:
        reviewed, secrets = asyncio.run(_audit(options))
    except AnviaError as exc:  # a config, lock file or server that cannot be used: one line
        print(f"anvia_nb audit: {ShowPolicy().error_line(exc)}", file=sys.stderr)
        return EXIT_FAILED
    policy = ShowPolicy().with_secrets(secrets)
    for r in reviewed:
        print(_line(r, policy))
    artifact = Path(options.config).as_posix()
    if options.sarif:
        write_whole(
            Path(options.sarif), json.dumps(sarif_log(reviewed, artifact=artifact, mask=policy.mask), indent=2) + "\n"
        )
    if options.json:
        write_whole(
            Path(options.json), json.dumps(json_report(reviewed, mask=policy.mask), indent=2, ensure_ascii=False) + "\n"
        )
    level: Severity = options.fail_on
    failed = fails(reviewed, level)
    open_findings = sum(r.accepted is None for r in reviewed)
    print(f"{len(reviewed)} findings ({open_findings} not accepted); fail on {level}: {'FAIL' if failed else 'ok'}")
    return EXIT_FINDINGS if failed else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
