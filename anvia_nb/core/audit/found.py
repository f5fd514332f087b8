"""What the checks share to report: a :class:`Hit` (one place in one item, at one severity) and
:func:`finding`, which makes one :class:`~anvia_nb.core.audit.definitions.Finding` of an item's hits
for one check (the worst severity, the first places quoted, the rest counted)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from anvia_nb.core.audit.definitions import SEVERITIES, Definition, Finding, Severity
from anvia_nb.policy import Limits

__all__ = ["RANK", "Hit", "finding", "worst"]

_LIMITS = Limits()

RANK: dict[str, int] = {severity: rank for rank, severity in enumerate(SEVERITIES)}
"""A severity's place, most severe first (``high`` is 0)."""


@dataclass(frozen=True)
class Hit:
    """One place a check found something in one item.

    Attributes
    ----------
    severity : {"high", "medium", "low", "info"}
        How bad this one is.
    field : str
        Where in the definition (a :class:`~anvia_nb.core.audit.texts.Text`'s ``field``).
    evidence : str
        What was found there, made visible (:func:`~anvia_nb.core.audit.evidence.visible`).
    """

    severity: Severity
    field: str
    evidence: str


def worst(severities: Sequence[Severity]) -> Severity:
    """The most severe of ``severities`` (``info`` when there are none)."""
    return min(severities, key=RANK.__getitem__, default="info")


def finding(definition: Definition, check: str, hits: Sequence[Hit], advice: str, *, more: bool = False) -> Finding:
    """One finding of ``check`` on ``definition``: the worst of ``hits``' severities, the first
    places quoted (worst first, the policy's ``evidence_places``), how many more were found
    (``more``: the check stopped looking at more places than it kept, so it says "and more")."""
    ordered = sorted(hits, key=lambda hit: RANK[hit.severity])
    shown = ordered[: _LIMITS.evidence_places]
    evidence = "; ".join(f"{hit.field}: {hit.evidence}" for hit in shown)
    if len(ordered) > len(shown):
        evidence += f" (and {len(ordered) - len(shown)} more{' at least' if more else ''})"
    elif more:
        evidence += " (and more)"
    return Finding(
        server=definition.server,
        kind=definition.kind,
        item=definition.name,
        check=check,
        severity=worst([hit.severity for hit in hits]),
        evidence=evidence,
        advice=advice,
        digest=definition.digest,
    )
