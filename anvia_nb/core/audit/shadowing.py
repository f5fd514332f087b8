"""Shadowing: one server's definitions reaching for another's tools.

- ``shadowing-reference``: an item's text names a tool of another connected server (or that server)
  where its own server has no such tool. Only a name spelled as one counts: an identifier
  (``send_email``, ``sendEmail``), a quoted name followed by "tool" (```echo` tool``), or
  ``server.tool`` of a tool that server has: high in a sentence that tells the model what to do
  ("always", "instead", "before", "must"), medium otherwise. A plain word followed by "tool" ("the
  search tool") or a server's plain name followed by "server" is low; a plain word in prose ("Use
  search to find ...", "check the time zone"), a word inside a path, URL or JSON pointer
  (``$defs/Scale``, ``memory.json``) and a pronoun ("use this first") are nothing. A tool named
  with "call ... first" or "instead of the ... tool" that no connected server has is low. Naming
  the item's own server's tools is documentation ("You must call list_files before read_file").
- ``confusable-name``: a tool whose name looks like another's (``reаd_file`` with a Cyrillic
  ``а``): high for the name that is not plain ASCII, medium for digits passing for letters, low for
  the same name on two servers or one differing only in case or separators; a word of a name
  mixing Latin, Cyrillic or Greek letters with no other to imitate is medium (``get_погода``, a
  word in each, and ``get_天気`` are not).

Looks across all connected servers at once; one pass over each text, one dictionary lookup a word.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from anvia_nb.core.audit.confusables import as_read, scripts_of, skeleton
from anvia_nb.core.audit.definitions import Definition, Finding, Severity
from anvia_nb.core.audit.evidence import excerpt, spelled
from anvia_nb.core.audit.found import Hit, finding
from anvia_nb.core.audit.texts import Text, texts_of

__all__ = ["ADVICE", "SHADOWING_CHECKS", "check_confusable_names", "check_references"]

ADVICE = {
    "shadowing-reference": "An item that speaks of another server's tools can steer how the model uses them: "
    "read the sentence; accept with a reason if the servers are meant to work together.",
    "confusable-name": "A name that looks like another tool's can be called in its place: "
    "disconnect the server that imitates; accept with a reason if both are yours.",
}
"""Each check's one line of advice: why it matters, and how to accept it."""

SHADOWING_CHECKS = tuple(ADVICE)
"""The ids of the checks of this module."""

_WORD = re.compile(r"[A-Za-z_][\w.\-/:]*")
_DIGIT_FOR_LETTER = re.compile(r"[A-Za-z][01]|[01][A-Za-z]")
_PARTS = re.compile(r"[a-z_][\w-]*")
"""The words of lower-cased text, a qualified name (``mail.send_email``) in its parts: the quick test."""
_IDENTIFIER = re.compile(r"[_.\-/]|\d|[a-z][A-Z]")
"""What makes a word look like an identifier, not a word of prose: ``send_email``, ``sendEmail``."""
_STEER = re.compile(
    r"\b(?:must|always|never|instead|before|after|first|whenever|do\s+not|don'?t|should|required|ensure"
    r"|make\s+sure|only|rather|prefer)\b",
    re.IGNORECASE,
)
_SERVER_SHAPED = re.compile(r"[_.\-/]|\d")
"""A server's name spelled as a name (``brave-search``, ``mcp_git``), not a brand (``GitHub``)."""
_AS_TOOL = re.compile(r"\s*tools?\b", re.IGNORECASE)
_AS_SERVER = re.compile(r"\s*(?:server|mcp)\b", re.IGNORECASE)
_QUOTES = "`'\""
_IN_PATH = "$#/.@~\\-%&=?+:"
"""A character before a word that makes it part of a path, a URL, a JSON pointer (``#/$defs/x``)
or a query: never a name to the model."""
_QUALIFIED = re.compile(r"[./:]|__")
_UNKNOWN = re.compile(
    r"\b(?:call|use|invoke|run)\s+(?:the\s+)?[`'\"]?(?P<called>[A-Za-z_][\w.-]{2,63})[`'\"]?\s+(?:tool\s+)?"
    r"(?:first|before|instead)\b|\b(?:instead\s+of|rather\s+than)\s+(?:the\s+)?[`'\"]?(?P<replaced>[A-Za-z_][\w.-]{2,63})"
    r"[`'\"]?\s+tool\b",
    re.IGNORECASE,
)
_NOT_NAMES = frozenset(
    ("this", "that", "these", "those", "them", "they", "one", "other", "another", "each", "either", "both", "which")
)
"""Words "call ... first" takes that point at a tool rather than name one."""


def _looks_named(read: str, start: int, end: int, word: str) -> bool:
    """Whether ``word`` at ``read[start:end]`` is spelled as a name, not a word of prose: it looks
    like an identifier (``send_email``, ``sendEmail``, ``v2``), or is quoted and followed by "tool"
    (```search` tool``). A plain word called in code (``fetch()``, ``print()``) is not one."""
    if _IDENTIFIER.search(word):
        return True
    quoted = read[start - 1 : start] in tuple(_QUOTES)
    return quoted and _AS_TOOL.match(read, end + 1) is not None


def _sentence_steers(read: str, start: int, end: int) -> bool:
    left = read[max(0, start - 160) : start]  # the sentence's reach, as in addressed.py
    left = left[max(left.rfind(m) for m in ".!?\n") + 1 :]
    right = read[end : end + 160]
    stops = [i for i in (right.find(m) for m in ".!?\n") if i >= 0]
    return _STEER.search(left + " " + right[: min(stops, default=len(right))]) is not None


def check_references(definitions: Sequence[Definition], texts: Sequence[Sequence[Text]] | None = None) -> list[Finding]:
    """``shadowing-reference`` over every item of every server in ``definitions`` (``texts``:
    each one's :func:`~anvia_nb.core.audit.texts.texts_of`, in the same order, when already read)."""
    owners: dict[str, set[str]] = defaultdict(set)
    own: dict[str, set[str]] = defaultdict(set)
    for definition in definitions:
        own[definition.server].add(definition.name.casefold())
        if definition.kind == "tool":
            owners[definition.name.casefold()].add(definition.server)
    servers = {d.server.casefold(): d.server for d in definitions}
    foreign = {  # the words that could name another server's tool, or that server, by server
        server: {name for name, where in owners.items() if where - {server}} - own[server] | set(servers) - {home}
        for home, server in ((s.casefold(), s) for s in own)
    }
    found = []
    for number, definition in enumerate(definitions):
        read = texts_of(definition) if texts is None else texts[number]
        lookup = _Lookup(owners, own[definition.server], servers, foreign[definition.server])
        hits = list(_reference_hits(definition, read, lookup))
        if hits:
            found.append(finding(definition, "shadowing-reference", hits, ADVICE["shadowing-reference"]))
    return found


@dataclass(frozen=True)
class _Lookup:
    owners: dict[str, set[str]]
    """Each tool name (case folded), the servers that have it."""
    own: set[str]
    """The item's own server's names (case folded)."""
    servers: dict[str, str]
    """Each server's name, by its case-folded name."""
    foreign: set[str]
    """Every word that could name another server's tool or that server (the quick test)."""


def _reference_hits(definition: Definition, texts: Sequence[Text], lookup: _Lookup) -> Iterable[Hit]:
    for text in texts:
        if text.field.endswith("name") or text.field.startswith("serverInfo") or text.field == "uri":
            continue  # an item's own name, its server's, a URI: not words to the model
        read = as_read(text.value)
        low = read.lower()
        if lookup.foreign and not lookup.foreign.isdisjoint(_PARTS.findall(low)):
            yield from _named_hits(definition, text.field, read, lookup)
        if "first" in low or "before" in low or "instead" in low or "rather" in low:
            for match in _UNKNOWN.finditer(read):
                word = (match.group("called") or match.group("replaced")).casefold()
                spelled_as_name = _IDENTIFIER.search(word) or "tool" in match.group().lower()
                if word in _NOT_NAMES or not (spelled_as_name or any(q in match.group() for q in _QUOTES)):
                    continue  # "use this before ...", "use it first": not a name
                if word not in lookup.own and word not in lookup.owners:
                    shown = excerpt(read, match.start(), match.end())
                    yield Hit("low", text.field, f"names a tool no connected server has, {word}: {shown}")


def _named_hits(definition: Definition, field: str, read: str, lookup: _Lookup) -> Iterable[Hit]:
    """Each place ``read`` names another server's tool or that server: high or medium (by the
    sentence) for a name spelled as one (:func:`_looks_named`, or ``server.tool`` of a tool that
    server has), low for a plain word followed by "tool" or "server" ("the search tool")."""
    home = definition.server.casefold()
    for match in _WORD.finditer(read):
        word = match.group().rstrip(".-/:")
        start, end = match.start(), match.start() + len(word)
        before = read[start - 1 : start]
        if before and (before.isalnum() or before in _IN_PATH):
            continue  # inside a path, a URL, a JSON pointer ($defs/Scale) or a word
        key = word.casefold()
        parts = _QUALIFIED.split(key, maxsplit=1)
        qualifier = lookup.servers.get(parts[0]) if len(parts) == 2 and parts[0] != home else None
        qualified = qualifier is not None and qualifier in lookup.owners.get(parts[1], set())  # other.tool
        name = parts[1] if qualified else key
        others = lookup.owners.get(name, set()) - {definition.server}
        named = qualified or _looks_named(read, start, end, word)
        if others and name not in lookup.own and (named or _AS_TOOL.match(read, end)):
            what = f"names {', '.join(sorted(others))}'s tool {word}"
        elif qualified:
            what = f"names the server {qualifier}"
        elif key in lookup.servers and key != home and _AS_SERVER.match(read, end):
            what = f"names the server {lookup.servers[key]}"  # a brand (GitHub) is not an identifier
            named = _SERVER_SHAPED.search(word) is not None or read[start - 1 : start] in tuple(_QUOTES)
        else:
            continue
        severity: Severity = "low" if not named else "high" if _sentence_steers(read, start, end) else "medium"
        yield Hit(severity, field, f"{what}: {excerpt(read, start, end)}")


def check_confusable_names(definitions: Sequence[Definition]) -> list[Finding]:
    """``confusable-name`` over the tools of every server in ``definitions``."""
    tools = [d for d in definitions if d.kind == "tool"]
    groups: dict[str, list[Definition]] = defaultdict(list)
    for tool in tools:
        groups[skeleton(tool.name)].append(tool)
    found = []
    for tool in tools:
        hits = [*_lookalike_hits(tool, groups[skeleton(tool.name)]), *_mixed_script_hits(tool)]
        if hits:
            found.append(finding(tool, "confusable-name", hits, ADVICE["confusable-name"]))
    return found


def _lookalike_hits(tool: Definition, group: list[Definition]) -> Iterable[Hit]:
    """The names of ``group`` (one skeleton) ``tool``'s name imitates: a name plainer than its
    look-alike is the one imitated, and is not flagged for it."""
    for other in group:
        if other is tool or (other.server == tool.server and other.name == tool.name):
            continue
        if other.name == tool.name:
            yield Hit("low", "name", f"the same name as {other.server}'s tool: a model may call the wrong one")
            continue
        severity: Severity
        if not tool.name.isascii():
            severity = "high"
        elif not other.name.isascii():
            continue  # the other imitates this one
        elif _disguised(tool.name) and not _disguised(other.name):
            severity = "medium"  # digits passing for letters
        elif _disguised(other.name) and not _disguised(tool.name):
            continue
        else:
            severity = "low"  # the same name but for case or separators
        yield Hit(severity, "name", f"{spelled(tool.name)} looks like {other.server}'s tool {spelled(other.name)}")


def _disguised(name: str) -> bool:
    """Whether ``name`` has a ``0`` or a ``1`` beside a letter, passing for ``o``, ``l`` or ``i``."""
    return _DIGIT_FOR_LETTER.search(name) is not None


def _plain(name: str) -> str:
    return name.casefold().replace("-", "_").replace(".", "_")


_LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC"})
"""Scripts with letters that pass for each other's: a word mixing two of them is how a look-alike
is made. ``get_天気`` (Latin and CJK) and ``ファイル一覧`` (Katakana and CJK, as Japanese is written)
mix scripts no one confuses; ``get_погода`` has a word of each, as a localized name does."""
_LETTERS = re.compile(r"[^\W\d_]+")
"""A name's words: its runs of letters (``get``, ``погода``)."""


def _mixed_script_hits(tool: Definition) -> Iterable[Hit]:
    if tool.name.isascii():
        return
    scripts: set[str] = set()
    for word in _LETTERS.findall(tool.name):
        mixed = scripts_of(word) & _LOOKALIKE_SCRIPTS
        if len(mixed) > 1:
            scripts |= mixed
    if scripts:
        yield Hit("medium", "name", f"{spelled(tool.name)} mixes letters of {', '.join(sorted(scripts))}")
