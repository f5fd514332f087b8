"""An audit written for machines: SARIF 2.1.0 (code scanning, CI) and plain JSON.

SARIF: one rule per check (its id, the most severe level it reported, and its section of
docs/audit.md as help), one result per finding, located by a ``logicalLocations`` entry naming the
server and the item (``server/kind/item``) and a physical location whose artifact is the file the
servers were configured in (the CLI's ``--config``), else the lock file, else the notebook's
folder. An accepted finding carries a ``suppressions`` entry with its reason; every result a
``partialFingerprints`` entry with the item's definition hash.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from anvia_nb._version import __version__
from anvia_nb.core.audit.definitions import SEVERITIES
from anvia_nb.core.audit.report import Reviewed
from anvia_nb.core.protocol.types import JsonObject

__all__ = ["DOCS_URL", "LEVELS", "Mask", "json_report", "sarif_log"]

DOCS_URL = "https://github.com/anvia/anvia_nb/blob/main/docs/audit.md"
"""Where each check is explained (a rule's ``helpUri`` adds the check's anchor)."""

LEVELS = {"high": "error", "medium": "warning", "low": "note", "info": "note"}
"""SARIF's level for each severity."""

Mask = Callable[[str], str]
"""What hides secrets in a server's text before it is written (``ShowPolicy.mask``)."""

_LOGICAL_KINDS = {
    "server": "module",
    "tool": "function",
    "prompt": "member",
    "resource": "resource",
    "template": "resource",
}


def _uri(path: str | Path | None) -> str:
    if path is None:
        return "."
    return Path(path).as_posix()


def _rules(reviewed: Sequence[Reviewed]) -> tuple[list[JsonObject], dict[str, int]]:
    worst: dict[str, int] = {}
    for r in reviewed:
        level = SEVERITIES.index(r.finding.severity)
        worst[r.finding.check] = min(level, worst.get(r.finding.check, level))
    checks = sorted(worst)
    rules: list[JsonObject] = [
        {
            "id": check,
            "name": check,
            "shortDescription": {"text": f"anvia_nb audit check {check}"},
            "helpUri": f"{DOCS_URL}#{check}",
            "defaultConfiguration": {"level": LEVELS[SEVERITIES[worst[check]]]},
        }
        for check in checks
    ]
    return rules, {check: n for n, check in enumerate(checks)}


def _same(text: str) -> str:
    return text


def _masked(r: Reviewed, mask: Mask) -> Reviewed:
    f = r.finding
    shown = replace(f, item=mask(f.item), evidence=mask(f.evidence), advice=mask(f.advice))
    return Reviewed(shown, None if r.accepted is None else mask(r.accepted))


def _result(r: Reviewed, index: int, artifact: str) -> JsonObject:
    f = r.finding
    result: JsonObject = {
        "ruleId": f.check,
        "ruleIndex": index,
        "level": LEVELS[f.severity],
        "message": {"text": f"{f.kind} {f.item} of {f.server}: {f.advice}\n{f.evidence}".strip()},
        "locations": [
            {
                "physicalLocation": {"artifactLocation": {"uri": artifact}},
                "logicalLocations": [
                    {
                        "name": f.item,
                        "fullyQualifiedName": f"{f.server}/{f.kind}/{f.item}",
                        "kind": _LOGICAL_KINDS[f.kind],
                    }
                ],
            }
        ],
        "properties": {"server": f.server, "kind": f.kind, "item": f.item, "severity": f.severity},
    }
    if f.digest:
        result["partialFingerprints"] = {"definitionHash/v1": f.digest}
    if r.accepted is not None:
        result["suppressions"] = [{"kind": "external", "status": "accepted", "justification": r.accepted}]
    return result


def sarif_log(reviewed: Sequence[Reviewed], *, artifact: str | Path | None = None, mask: Mask = _same) -> JsonObject:
    """The findings as a SARIF 2.1.0 log with one run.

    Parameters
    ----------
    reviewed : sequence of Reviewed
        The audit's findings with their acceptance.
    artifact : str or path, optional
        The file the servers were configured in (or the lock file): every result's artifact.
    mask : callable, optional
        Applied to every server text (the policy's ``mask``: a secret a server echoes stays out).

    Returns
    -------
    dict
        The log, ready for ``json.dump``.
    """
    reviewed = [_masked(r, mask) for r in reviewed]
    rules, index = _rules(reviewed)
    uri = _uri(artifact)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "anvia_nb audit",
                        "version": __version__,
                        "informationUri": DOCS_URL,
                        "rules": rules,
                    }
                },
                "results": [_result(r, index[r.finding.check], uri) for r in reviewed],
            }
        ],
    }


def json_report(reviewed: Sequence[Reviewed], *, mask: Mask = _same) -> JsonObject:
    """The findings as plain JSON: ``{"findings": [{server, kind, item, check, severity, evidence,
    advice, hash, accepted}]}`` (``accepted``: the reason, or ``null``).

    Parameters
    ----------
    reviewed : sequence of Reviewed
        The audit's findings with their acceptance.
    mask : callable, optional
        Applied to every server text (the policy's ``mask``).

    Returns
    -------
    dict
    """
    reviewed = [_masked(r, mask) for r in reviewed]
    return {
        "findings": [
            {
                "server": r.finding.server,
                "kind": r.finding.kind,
                "item": r.finding.item,
                "check": r.finding.check,
                "severity": r.finding.severity,
                "evidence": r.finding.evidence,
                "advice": r.finding.advice,
                "hash": r.finding.digest,
                "accepted": r.accepted,
            }
            for r in reviewed
        ]
    }
