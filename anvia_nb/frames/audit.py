"""Audits as DataFrames: ``anvia_nb.audit(...)``, ``await server.audit()``, ``%mcp audit`` and
``%mcp diff``; and pinning and accepting from Python (``anvia_nb.pin``, ``anvia_nb.accept``).

Every server string goes through the :class:`~anvia_nb.policy.ShowPolicy` (masked, hidden
characters made visible, bounded) and each frame is a :class:`ServerFrame` (escaped, never
typeset). For viewers (viewer mode) the evidence, the server's own words, is left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from anvia_nb._docs import fill_docstring
from anvia_nb.core.api.audit import LockPath, audit_servers, pin_servers
from anvia_nb.core.audit.definitions import KINDS, SEVERITIES, Finding
from anvia_nb.core.audit.diff import DefinitionChange
from anvia_nb.core.audit.pins import LOCK_FILE_NAME, WRITTEN, Accepted, Lock, accept_findings
from anvia_nb.core.audit.report import Reviewed
from anvia_nb.errors import InvalidTypeError, InvalidValueError
from anvia_nb.frames.server_frame import ServerFrame
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime, get_runtime

if TYPE_CHECKING:
    from anvia_nb.core.api.server import McpServer

__all__ = [
    "DIFF_COLUMNS",
    "FINDING_COLUMNS",
    "accept",
    "audit",
    "diff_frame",
    "findings_frame",
    "findings_of",
    "pin",
    "servers_of",
]

FINDING_COLUMNS = ["server", "kind", "item", "check", "severity", "evidence", "advice", "accepted", "hash"]
"""The columns of an audit: ``accepted`` holds the reason a finding was accepted (else ``None``)."""
DIFF_COLUMNS = ["kind", "item", "change", "difference", "before", "after"]
"""The columns of ``%mcp diff``: ``before`` and ``after`` are the item's hash on each side."""


def findings_frame(reviewed: Sequence[Reviewed], policy: ShowPolicy | None = None) -> pd.DataFrame:
    """One row per finding, in the audit's order (its index is what ``--accept ROW`` names).

    Parameters
    ----------
    reviewed : sequence of Reviewed
        The findings with their acceptance.
    policy : ShowPolicy, optional
        What may be shown (the notebook's settings); secrets are masked by it.

    Returns
    -------
    DataFrame
    """
    shown = policy or ShowPolicy()
    rows = []
    for r in reviewed:
        f = r.finding
        rows.append(
            {
                "server": shown.name(f.server),
                "kind": f.kind,
                "item": shown.name(f.item),
                "check": shown.name(f.check),
                "severity": f.severity,
                "evidence": None if shown.for_viewers else shown.text(f.evidence),
                "advice": shown.line(f.advice),
                "accepted": None if r.accepted is None else shown.line(r.accepted),
                "hash": f.digest,
            }
        )
    frame: pd.DataFrame = ServerFrame(rows, columns=FINDING_COLUMNS)
    frame["kind"] = pd.Categorical(frame["kind"], categories=KINDS)
    frame["severity"] = pd.Categorical(frame["severity"], categories=SEVERITIES, ordered=True)
    frame.attrs["findings"] = [r.finding for r in reviewed]  # as found, unmasked: what accept() writes
    return frame


def diff_frame(changes: Iterable[DefinitionChange], policy: ShowPolicy | None = None) -> pd.DataFrame:
    """One row per item added, removed or changed, with the difference (``%mcp diff``).

    Parameters
    ----------
    changes : iterable of DefinitionChange
        What :func:`~anvia_nb.core.audit.diff.compare_definitions` found.
    policy : ShowPolicy, optional
        What may be shown.

    Returns
    -------
    DataFrame
    """
    shown = policy or ShowPolicy()
    rows = [
        {
            "kind": c.kind,
            "item": shown.name(c.item),
            "change": c.change,
            "difference": None if shown.for_viewers else shown.text(c.difference),
            "before": c.before or None,
            "after": c.after or None,
        }
        for c in changes
    ]
    frame: pd.DataFrame = ServerFrame(rows, columns=DIFF_COLUMNS)
    return frame


def servers_of(runtime: Runtime, names_or_servers: Sequence[str | McpServer]) -> list[McpServer]:
    """The runtime's connections named (all when none), or the servers given, on the runtime's loop."""
    if not names_or_servers:
        return [runtime.server(name) for name in runtime.names()]
    found = []
    for given in names_or_servers:
        if isinstance(given, str):
            found.append(runtime.server(given))
            continue
        if not hasattr(given, "client") or not hasattr(given, "tools"):
            raise InvalidTypeError(f"audit takes connection names or servers, not {type(given).__name__}.")
        if given.client.loop is not runtime.loop.loop():
            raise InvalidValueError(
                f"{given.name!r} was opened with connect_mcp, outside %mcp: use `await server.audit()` for it."
            )
        found.append(given)
    return found


def audit(*names_or_servers: str | McpServer, lock: LockPath | None = LOCK_FILE_NAME) -> pd.DataFrame:
    """Audit connections together: one row per finding (docs/audit.md).

    Parameters
    ----------
    *names_or_servers : str or McpServer
        Connections of ``%mcp`` by name (or their servers); none: every open connection.
    lock : str or path or None, optional
        The lock file (``mcp-lock.json`` here by default): what changed since it was pinned is
        reported and accepted findings carry their reason; ``None``: pins are not read.

    Returns
    -------
    DataFrame
        ``server``, ``kind``, ``item``, ``check``, ``severity``, ``evidence``, ``advice``,
        ``accepted`` and ``hash``.

    Raises
    ------
    UnknownConnectionError
        No open connection of a name.
    LockFileError
        The lock file does not parse or does not match its hashes.
    """
    runtime = get_runtime()
    servers = servers_of(runtime, names_or_servers)
    policy = ShowPolicy().with_secrets(s for server in servers for s in server.secrets)
    return findings_frame(runtime.run(audit_servers(servers, lock=lock)), policy)


@fill_docstring(WRITTEN)
def pin(*names_or_servers: str | McpServer, lock: LockPath = LOCK_FILE_NAME) -> Lock:
    """Pin every item of these connections in the lock file (``%mcp pin NAME``).

    Parameters
    ----------
    *names_or_servers : str or McpServer
        Connections of ``%mcp`` by name (or their servers); none: every open connection.
    lock : str or path, optional
        The lock file (``mcp-lock.json`` here by default).

    {written}
    """
    runtime = get_runtime()
    return runtime.run(pin_servers(servers_of(runtime, names_or_servers), lock))


def findings_of(rows: Any) -> list[Finding]:  # any: rows of an audit's DataFrame (a frame or one Series)
    """The findings (as found, before the policy) of rows of an audit's DataFrame, by their index.

    Parameters
    ----------
    rows : DataFrame or Series
        Rows of what :func:`audit` (or ``%mcp audit``) returned: ``df.loc[[0, 2]]``, ``df.loc[0]``.

    Returns
    -------
    list of Finding

    Raises
    ------
    InvalidTypeError
        Not rows of an audit's DataFrame.
    """
    labels = [rows.name] if isinstance(rows, pd.Series) else list(getattr(rows, "index", []))
    found = getattr(rows, "attrs", {}).get("findings")
    if not isinstance(found, list) or not isinstance(rows, pd.DataFrame | pd.Series):
        raise InvalidTypeError("accept takes rows of an audit's DataFrame: df.loc[[0, 2]] of df = anvia_nb.audit().")
    picked = [label for label in labels if isinstance(label, int) and 0 <= label < len(found)]
    if len(picked) != len(labels):
        raise InvalidValueError(f"Rows {labels} are not all rows of the audit (0 to {len(found) - 1}).")
    return [found[label] for label in picked]


def accept(rows: Any, reason: str, *, lock: LockPath = LOCK_FILE_NAME) -> list[Accepted]:  # any: DataFrame rows
    """Accept findings: they stay accepted, with ``reason``, until their item's definition changes.

    Parameters
    ----------
    rows : DataFrame or Series
        Rows of an audit's DataFrame (``df.loc[[0, 2]]``).
    reason : str
        Why they are acceptable (not empty).
    lock : str or path, optional
        The lock file they are written in (``mcp-lock.json`` here by default).

    Returns
    -------
    list of Accepted
        What was added to the lock file.

    Raises
    ------
    InvalidValueError
        No reason.
    LockFileError
        The file there does not parse or does not match its hashes: it is left as it is.
    """
    return accept_findings(lock, findings_of(rows), reason)[1]
