"""What the audit says of one tool, for where people (and models) meet the tool: the panel's mark
and the warning line of a result's ``model_context()``.

:func:`tool_flags` runs the checks that read a tool's own definition (hidden characters, words to
the model, annotations, links) on it alone; the checks that need every connection (shadowing,
look-alike names, capability flows) are the whole audit's (``%mcp audit``). :func:`flag_line`
names the flags at ``medium`` or above in one line of check ids and severities: our own words,
no server text.
"""

from __future__ import annotations

from collections.abc import Iterable

from anvia_nb.core.audit.checks import audit_definitions
from anvia_nb.core.audit.definitions import Finding, definitions_of
from anvia_nb.core.audit.found import RANK
from anvia_nb.core.protocol.types import ToolInfo

__all__ = ["WARNED", "flag_line", "tool_flags"]

WARNED = "medium"
"""The least severity a model is warned of (and a tool in the panel marked for)."""


def tool_flags(server: str, info: ToolInfo) -> tuple[Finding, ...]:
    """The findings on tool ``info`` of ``server`` of the checks that read its definition alone.

    Parameters
    ----------
    server : str
        The connection's name.
    info : ToolInfo
        The tool as listed.

    Returns
    -------
    tuple of Finding
        Most severe first; time linear in the definition's text (the checks are bounded).
    """
    found = audit_definitions(definitions_of(server, tools=[info]))
    return tuple(f for f in found if f.kind == "tool" and f.item == info.name)


def flag_line(findings: Iterable[Finding]) -> str:
    """The flags at ``medium`` or above as one line: ``hidden-tags (high), addressed-to-model (high)``.

    Parameters
    ----------
    findings : iterable of Finding
        One tool's findings.

    Returns
    -------
    str
        Check ids and severities (no server text), most severe first; empty when none is at ``medium`` or above.
    """
    warned = sorted((f for f in findings if RANK[f.severity] <= RANK[WARNED]), key=lambda f: RANK[f.severity])
    seen: dict[str, str] = {}
    for f in warned:
        seen.setdefault(f.check, f.severity)
    return ", ".join(f"{check} ({severity})" for check, severity in seen.items())
