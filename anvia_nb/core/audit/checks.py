"""The audit: every check over every connected server's definitions at once, since shadowing,
look-alike names and capability flows look across servers. :func:`audit_definitions` is the one
entry point (the magic, the API, the CLI and the exports build on it); :data:`CHECKS` lists every
check id, each a section of ``docs/audit.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from anvia_nb.core.audit.addressed import CHECK as ADDRESSED
from anvia_nb.core.audit.addressed import check_addressed
from anvia_nb.core.audit.annotations import CHECK as ANNOTATIONS
from anvia_nb.core.audit.annotations import check_annotations
from anvia_nb.core.audit.definitions import KINDS, Definition, Finding
from anvia_nb.core.audit.exfiltration import CHECK as EXFILTRATION
from anvia_nb.core.audit.exfiltration import check_exfiltration
from anvia_nb.core.audit.flows import CHECK as FLOWS
from anvia_nb.core.audit.flows import check_flows
from anvia_nb.core.audit.found import RANK
from anvia_nb.core.audit.hidden import HIDDEN_CHECKS, check_hidden
from anvia_nb.core.audit.shadowing import SHADOWING_CHECKS, check_confusable_names, check_references
from anvia_nb.core.audit.texts import texts_of

__all__ = ["CHANGED_SINCE_PINNED", "CHECKS", "audit_definitions", "order_findings"]

CHANGED_SINCE_PINNED = "changed-since-pinned"
"""The id of the pins' finding: a definition differs from the one a person pinned (made by the pins,
not by :func:`audit_definitions`, as are ``added-since-pinned`` and ``removed-since-pinned``)."""

CHECKS: tuple[str, ...] = (
    *HIDDEN_CHECKS,
    ADDRESSED,
    *SHADOWING_CHECKS,
    ANNOTATIONS,
    EXFILTRATION,
    FLOWS,
    CHANGED_SINCE_PINNED,
    "added-since-pinned",
    "removed-since-pinned",
)
"""Every check id, in the order ``docs/audit.md`` tells them."""

_KIND_RANK = {kind: rank for rank, kind in enumerate(KINDS)}
_CHECK_RANK = {check: rank for rank, check in enumerate(CHECKS)}


def order_findings(findings: Sequence[Finding]) -> list[Finding]:
    """``findings`` most severe first, then by server, kind (server, tool, prompt, resource,
    template), item and check (in :data:`CHECKS`' order)."""
    return sorted(
        findings,
        key=lambda f: (
            RANK[f.severity],
            f.server,
            _KIND_RANK.get(f.kind, len(KINDS)),
            f.item,
            _CHECK_RANK.get(f.check, len(CHECKS)),
            f.check,
        ),
    )


def audit_definitions(definitions: Sequence[Definition]) -> list[Finding]:
    """Every check over ``definitions`` (all connected servers' items together).

    Parameters
    ----------
    definitions : sequence of Definition
        Each server's items (:func:`~anvia_nb.core.audit.definitions.definitions_of`), all servers
        at once: shadowing, look-alike names and capability flows look across them.

    Returns
    -------
    list of Finding
        Ordered by severity (``high`` first), then server, kind, item and check; each finding's
        ``digest`` is its item's definition hash (a flow's, the hash of its tools' hashes). Time
        is linear in the definitions' text: every pattern is bounded.
    """
    found: list[Finding] = []
    texts = [texts_of(definition) for definition in definitions]  # read once, for every check
    for definition, read in zip(definitions, texts, strict=True):
        found += check_hidden(definition, read)
        found += check_addressed(definition, read)
        found += check_annotations(definition)
        found += check_exfiltration(definition, read)
    found += check_references(definitions, texts)
    found += check_confusable_names(definitions)
    found += check_flows(definitions)
    return order_findings(found)
