"""``capability-flow``: what the connected servers can do together.

A model that can read private data, is fed content someone else wrote, and can send data out can
be told by that content to send the private data out: each tool alone is fine, the three together
are an exfiltration path. Each tool is given the roles its name, hints and description's first
sentence say:

- reads private data: a reading verb and a private thing (files, mail, messages, a database,
  secrets, a repository, contacts, notes ...);
- takes untrusted content: the web, URLs, pages, feeds, issues, comments, inboxes, or
  ``openWorldHint`` on a tool that reads;
- sends data out: a sending verb (send, post, upload, publish, email ...), a webhook, or
  ``openWorldHint`` on a tool that writes.

When every role is filled, across all connected servers, one ``low`` finding names the tools of
each role (the first few, the rest counted). Its digest is the hash of their digests: accepted, it
stays accepted until one of the tools it names changes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anvia_nb.core.audit.annotations import opening_verb, verb_of
from anvia_nb.core.audit.definitions import Definition, Finding, canonical_hash
from anvia_nb.core.audit.evidence import spelled
from anvia_nb.policy import Limits

__all__ = ["ADVICE", "CHECK", "ROLES", "check_flows", "roles_of"]

CHECK = "capability-flow"
ADVICE = (
    "Content someone else wrote can tell a model to send your private data out through these tools: "
    "connect fewer servers at once or confirm each send; accept with a reason if you review every call."
)

ROLES = ("reads private data", "takes untrusted content", "sends data out")
"""The three roles of a flow, in the order it is told."""

_LIMITS = Limits()
_PRIVATE = re.compile(
    r"\b(?:files?|director(?:y|ies)|folders?|documents?|e-?mails?|inbox|mailbox|messages?|chats?|database|db|sql"
    r"|tables?|records?|secrets?|credentials?|passwords?|keys?|contacts?|calendar|notes?|drive|repositor(?:y|ies)"
    r"|repos?|history|accounts?|bank|transactions?|customers?|personal|private|clipboard|memor(?:y|ies)|logs?)\b",
    re.IGNORECASE,
)
_UNTRUSTED = re.compile(
    r"\b(?:fetch(?:es)?|urls?|web|websites?|web\s*pages?|pages?|browse|browser|scrape|crawl|https?|internet"
    r"|rss|feeds?|issues?|comments?|inbox|tweets?|reviews?|pull\s+requests?|posts?|external|online)\b",
    re.IGNORECASE,
)
_SENDS = re.compile(r"\b(?:webhook|smtp|outbox)\b", re.IGNORECASE)
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _first_sentence(description: object) -> str:
    if not isinstance(description, str):
        return ""
    head = description[:300]
    stops = [i for i in (head.find(mark) for mark in (". ", "\n")) if i >= 0]
    return head[: min(stops, default=len(head))]


def roles_of(tool: Definition) -> set[str]:
    """The roles of :data:`ROLES` ``tool`` has, from its name, hints and first sentence."""
    hints = tool.body.get("annotations")
    hints = hints if isinstance(hints, dict) else {}
    opening = _first_sentence(tool.body.get("description"))
    words = " ".join(_WORDS.findall(tool.name)) + " " + opening
    verb = verb_of(tool.name) or opening_verb(opening)
    action = verb[1] if verb else ""
    open_world = hints.get("openWorldHint") is True
    roles = set()
    if action == "reads" and _PRIVATE.search(words):
        roles.add(ROLES[0])
    if (action == "reads" and _UNTRUSTED.search(words)) or (open_world and hints.get("readOnlyHint") is True):
        roles.add(ROLES[1])
    if action == "sends" or _SENDS.search(" ".join(_WORDS.findall(tool.name))) or (open_world and action == "writes"):
        roles.add(ROLES[2])
    return roles


def check_flows(definitions: Sequence[Definition]) -> list[Finding]:
    """One ``capability-flow`` finding when the tools of ``definitions`` (all servers) fill every
    role of :data:`ROLES`, else none."""
    by_role: dict[str, list[Definition]] = {role: [] for role in ROLES}
    for tool in definitions:
        if tool.kind == "tool":
            for role in roles_of(tool):
                by_role[role].append(tool)
    if not all(by_role.values()):
        return []
    shown = _LIMITS.evidence_places
    parts = []
    for role in ROLES:
        tools = by_role[role]
        named = ", ".join(f"{t.server}/{spelled(t.name)}" for t in tools[:shown])
        parts.append(f"{role}: {named}" + (f" (and {len(tools) - shown} more)" if len(tools) > shown else ""))
    involved = [by_role[role][0] for role in ROLES]
    servers = sorted({t.server for t in involved}, key=[t.server for t in involved].index)
    return [
        Finding(
            server="+".join(servers),
            kind="server",
            item=" → ".join(spelled(t.name) for t in involved),
            check=CHECK,
            severity="low",  # a configuration to know of, not a fault of any one definition
            evidence="; ".join(parts),
            advice=ADVICE,
            digest=canonical_hash({"flow": sorted({t.digest for role in ROLES for t in by_role[role][:shown]})}),
        )
    ]
