"""``annotation-contradiction``: a tool's hints that its own words deny.

A client may run a tool marked ``readOnlyHint: true`` without asking; one whose name or
description says it deletes, sends or writes is then run unasked. Read from the name's first verb
(``delete_file``, ``github_create_issue``, ``sendEmail``; a name starting with a reading verb such
as ``get_post`` is a reading) and the description's first words ("Deletes ...", "Permanently
removes ...", "Send ..."):

- high: read-only, and the name deletes or sends, or the description starts by deleting or sending;
- medium: read-only, and the name or the description's start writes; ``readOnlyHint`` and
  ``destructiveHint`` both true; ``destructiveHint: false`` on a name that deletes; a name that
  deletes or sends under a description that opens by reading ("send_preview: Previews ...").

A description that opens by reading ("Shows", "Checks", "Returns") is what a name that writes, or
whose verb is a noun too, means: ``commit_log`` ("Shows the commit log"), ``update_check``
("Checks whether an update is available"), ``start_time`` ("Returns the start time") are nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from anvia_nb.core.audit.definitions import Definition, Finding, Severity
from anvia_nb.core.audit.evidence import visible
from anvia_nb.core.audit.found import Hit, finding

__all__ = ["ADVICE", "CHECK", "VERBS", "check_annotations", "opening_verb", "verb_of"]

CHECK = "annotation-contradiction"
ADVICE = (
    "A client may run a read-only tool without asking, so a hint its own words deny lets it act unasked: "
    "treat the tool as acting; accept with a reason if the words are wrong and the hint right."
)

VERBS: dict[str, tuple[str, ...]] = {
    "deletes": (
        *("delete", "del", "remove", "rm", "drop", "destroy", "erase", "purge", "wipe", "truncate", "kill"),
        *("terminate", "overwrite", "reset", "revoke", "uninstall", "shutdown", "unlink", "rmdir", "clear"),
    ),
    "sends": (
        *("send", "email", "mail", "post", "publish", "upload", "tweet", "sms", "notify", "forward", "reply"),
        *("share", "invite", "transfer", "pay", "push", "submit", "broadcast", "message", "dm", "webhook"),
    ),
    "writes": (
        *("write", "create", "insert", "update", "modify", "edit", "patch", "move", "mv", "rename", "append"),
        *("save", "store", "set", "put", "deploy", "install", "commit", "merge", "archive", "replace"),
        *("upsert", "mkdir", "touch", "restart", "stop", "start", "cancel", "enable", "disable"),
    ),
    "reads": (
        *("get", "list", "read", "fetch", "search", "find", "query", "show", "describe", "view", "count", "lookup"),
        *("check", "inspect", "preview", "download", "browse", "scan", "watch", "stat", "ls", "cat", "explain"),
        *("validate", "diff", "compare", "summarize", "analyze", "estimate", "calculate", "convert", "print"),
    ),
}
"""What a tool's first verb says it does, by the word (a name's or a description's first verb)."""

_NOUNS_TOO = frozenset(
    (
        *("email", "mail", "message", "post", "sms", "dm", "webhook", "archive", "set", "store", "start", "stop"),
        *("share", "tweet", "reply", "forward", "push", "commit", "clear", "list", "check", "diff", "print", "count"),
    )
)
"""Verbs that are nouns too (``email_search``, "Set of ..."): a name's reading verb beside one wins,
and a description starting with one says nothing."""

_ACTION = {verb: what for what, verbs in VERBS.items() for verb in verbs}
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_OPENING = re.compile(
    r"^\s*(?:this\s+tool\s+|tool\s+to\s+|use\s+this\s+to\s+|(?:will|can|it)\s+)?"
    r"(?:(?:permanently|irreversibly|immediately|quickly|safely|also|automatically|recursively)\s+)?"
    r"(?P<verb>[A-Za-z]{2,20})\b",
    re.IGNORECASE,
)


def _base(word: str) -> str:
    """A verb's plain form: ``deletes`` ``delete``, ``sends`` ``send``, ``pushes`` ``push``,
    ``copies`` ``copy``."""
    word = word.casefold()
    if word in _ACTION:
        return word
    for suffix, replacement in (("ies", "y"), ("es", ""), ("s", "")):
        if word.endswith(suffix) and word[: -len(suffix)] + replacement in _ACTION:
            return word[: -len(suffix)] + replacement
    return word


def verb_of(name: str) -> tuple[str, str] | None:
    """``(verb, what)`` for the first word of a tool's name that is a known verb (``what`` is
    ``deletes``, ``sends``, ``writes`` or ``reads``), or ``None`` when no word of it is one."""
    verbs = [verb for verb in map(_base, _NAME_WORDS.findall(name)) if verb in _ACTION]
    if not verbs:
        return None
    first = verbs[0]
    if first in _NOUNS_TOO:
        reading = [verb for verb in verbs if _ACTION[verb] == "reads"]
        first = reading[0] if reading else first
    return first, _ACTION[first]


def opening_verb(description: str) -> tuple[str, str] | None:
    """``(verb, what)`` for the verb a description opens with ("Deletes ...", "Permanently removes
    ...", "Use this to send ..."), or ``None`` (a verb that is a noun too says nothing here)."""
    match = _OPENING.match(description[:200])
    if match is None:
        return None
    verb = _base(match.group("verb"))
    return (verb, _ACTION[verb]) if verb in _ACTION and verb not in _NOUNS_TOO else None


def _opens_reading(description: str) -> bool:
    """Whether ``description`` opens by reading or by saying what it gives back ("Shows ...",
    "Checks ...", a verb that is a noun too included; "Returns ...")."""
    match = _OPENING.match(description[:200])
    verb = _base(match.group("verb")) if match is not None else ""
    return _ACTION.get(verb) == "reads" or verb in ("return", "returns")


def _hits(name: str, description: str, hints: Mapping[str, object]) -> Iterable[Hit]:
    read_only, destructive = hints.get("readOnlyHint"), hints.get("destructiveHint")
    if read_only is not True and destructive is not False:
        return
    named = verb_of(name)
    if read_only is True:
        opening = opening_verb(description)
        said = [("name", named, name), ("description", opening, description[:120])]
        for field, found, text in said:
            if found is None or found[1] == "reads":
                continue
            verb, what = found
            severity: Severity = "high" if what == "deletes" or (what == "sends" and field == "name") else "medium"
            if field == "name" and _opens_reading(
                description
            ):  # "commit_log: Shows the commit log", "update_check: Checks ..."
                if what == "writes" or verb in _NOUNS_TOO:
                    continue
                severity = "medium"  # "send_preview: Previews what would be sent": the words disagree
            yield Hit(severity, field, f"readOnlyHint is true, but it {what} ({verb}): {visible(text)}")
        if destructive is True:
            yield Hit("medium", "annotations", "readOnlyHint and destructiveHint are both true")
    if destructive is False and named is not None and named[1] == "deletes":
        yield Hit("medium", "name", f"destructiveHint is false, but it deletes ({named[0]}): {visible(name)}")


def check_annotations(definition: Definition) -> list[Finding]:
    """``annotation-contradiction`` on one tool (nothing for other kinds or a tool without hints)."""
    hints = definition.body.get("annotations")
    if definition.kind != "tool" or not isinstance(hints, dict):
        return []
    description = definition.body.get("description")
    hits = list(_hits(definition.name, description if isinstance(description, str) else "", hints))
    return [finding(definition, CHECK, hits, ADVICE)] if hits else []
