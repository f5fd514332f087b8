"""An audit's findings as a person reviews them: the checks' findings and the pins' (an item
changed, added or removed since it was pinned), each with the reason it was accepted, if it was,
in one order; and whether they should fail a CI run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from anvia_nb.core.audit.checks import CHANGED_SINCE_PINNED, order_findings
from anvia_nb.core.audit.definitions import SEVERITIES, Definition, Finding, Severity
from anvia_nb.core.audit.diff import DefinitionChange
from anvia_nb.core.audit.pins import Lock

__all__ = ["PIN_CHECKS", "Reviewed", "fails", "pin_findings", "review", "with_digests"]

PIN_CHECKS: dict[str, tuple[str, Severity, str]] = {
    "changed": (
        CHANGED_SINCE_PINNED,
        "high",
        "Its definition changed since it was pinned: read the difference, then %mcp pin NAME to accept it.",
    ),
    "added": (
        "added-since-pinned",
        "medium",
        "New since the pins: audit it, then %mcp pin NAME to accept it.",
    ),
    "removed": (
        "removed-since-pinned",
        "low",
        "Pinned but no longer defined: %mcp pin NAME to accept that it is gone.",
    ),
}
"""A pin's change: its check id, severity and advice."""


@dataclass(frozen=True)
class Reviewed:
    """A finding and, when a person accepted it (and the item is unchanged since), their reason."""

    finding: Finding
    accepted: str | None = None


def pin_findings(server: str, changes: Iterable[DefinitionChange]) -> list[Finding]:
    """The pins' changes of ``server`` as findings, the difference as their evidence.

    Parameters
    ----------
    server : str
        The connection.
    changes : iterable of DefinitionChange
        What :meth:`Lock.changes` found.

    Returns
    -------
    list of Finding
    """
    found = []
    for change in changes:
        check, severity, advice = PIN_CHECKS[change.change]
        digest = change.after or change.before
        found.append(Finding(server, change.kind, change.item, check, severity, change.difference, advice, digest))
    return found


def with_digests(findings: Iterable[Finding], definitions: Iterable[Definition]) -> list[Finding]:
    """``findings`` each with its item's definition hash (a check may leave it empty)."""
    digests = {(d.server, d.kind, d.name): d.digest for d in definitions}
    out = []
    for f in findings:
        digest = f.digest or digests.get((f.server, f.kind, f.item), "")
        out.append(f if digest == f.digest else Finding(**{**f.__dict__, "digest": digest}))
    return out


def review(findings: Iterable[Finding], lock: Lock | None = None) -> list[Reviewed]:
    """``findings`` most severe first (then by server, kind, item and check), each with its
    acceptance from ``lock``.

    Parameters
    ----------
    findings : iterable of Finding
        The checks' and the pins' findings.
    lock : Lock, optional
        The lock file holding the accepted findings.

    Returns
    -------
    list of Reviewed
    """
    return [Reviewed(f, None if lock is None else lock.accepted_reason(f)) for f in order_findings(list(findings))]


def fails(reviewed: Sequence[Reviewed], level: Severity) -> bool:
    """Whether a CI run fails: an unaccepted finding at ``level`` or above, or any pin that changed.

    Parameters
    ----------
    reviewed : sequence of Reviewed
        The audit's findings as reviewed.
    level : {"high", "medium", "low", "info"}
        The least severity that fails.

    Returns
    -------
    bool
    """
    worst = SEVERITIES.index(level)
    changed = PIN_CHECKS["changed"][0]
    return any(
        r.finding.check == changed or (r.accepted is None and SEVERITIES.index(r.finding.severity) <= worst)
        for r in reviewed
    )
