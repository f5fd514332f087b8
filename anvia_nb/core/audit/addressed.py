"""``addressed-to-model``: text that speaks to the model instead of describing the item.

Found anywhere a model reads (every text of a definition, :mod:`~anvia_nb.core.audit.texts`), in
the text as a model reads it (:func:`~anvia_nb.core.audit.confusables.as_read`: tag characters
decoded, invisible ones dropped, look-alike letters folded). The families, each a bounded pattern
(a trigger word, a window of at most a sentence's tail, a target word: linear time):

- high: telling it to ignore its instructions; to hide something from the user; to read secrets or
  files (``~/.ssh``, ``.env``, ``id_rsa``, the conversation) with a verb that takes them; to pass
  such data through a parameter named for something else;
- medium: ``<IMPORTANT>``-style blocks and ``[SYSTEM]``; two medium families in one item are high;
- low: words to "the AI" or "the assistant" ("Claude should call this when ..." is common and
  harmless by itself), urgency ("very important", "otherwise it will not work"), a secret file
  named with nothing taking it ("uses ~/.ssh/id_rsa by default", "Reads the .env file": what the
  tool does, not what the model should).

Not counted: display advice ("Don't show the user raw IDs") and a thing of the user's ("hide
archived pages from the user list"); a setting ("override the default system prompt"); a thing
about the data rather than the data ("the conversation ID", "system prompt tokens", "the page
token in the cursor parameter", "the message content in the text field"); secret data as a value
the tool takes ("an optional system prompt") or in the description of a parameter meant for it (a
sampling tool's ``messages``); ``[IMPORTANT]`` as a heading.

Ordinary imperative documentation ("Do not use for tables over 10 GB", "Important: exports are
slow", "Always pass an absolute path") matches none of them. Telling the model to call a tool
first is :mod:`~anvia_nb.core.audit.shadowing`'s (fine for the item's own server's tools).
"""

from __future__ import annotations

import dataclasses
import re
import string
from collections.abc import Iterable, Sequence

from anvia_nb.core.audit.confusables import as_read
from anvia_nb.core.audit.definitions import Definition, Finding, Severity
from anvia_nb.core.audit.evidence import excerpt
from anvia_nb.core.audit.found import Hit, finding
from anvia_nb.core.audit.texts import Text, texts_of
from anvia_nb.policy import Limits

__all__ = ["ADVICE", "CHECK", "check_addressed"]

CHECK = "addressed-to-model"
ADVICE = (
    "Text addressed to a model steers it with the server's words, not the user's: do not connect a model "
    "to this server until it is gone; accept with a reason only if you wrote it and it is harmless."
)

_TAIL = r"[^.!?\n]"
"""One character of the same sentence (windows of these are bounded below)."""

# Each pattern runs on the lower-cased text, and each of its branches starts with a literal word
# (no group, no leading ``\b``): the regex engine then skips to the branches' first letters, ten
# times faster than trying every position. A match inside a word is dropped afterwards.


def _each(leads: str, rest: str = "") -> str:
    """Branches ``lead + rest`` for each ``|``-separated lead: a group of leads, spelled out."""
    return "|".join(lead + rest for lead in leads.split("|"))


_INSTRUCTIONS = (
    r"\b(?:instructions?|rules|prompts?|directions?|guidelines|guardrails|constraints|polic(?:y|ies)|context)\b"
)
_ABOVE = r"|\s+(?:everything\s+|all\s+)?(?:(?:the|that|what)\s+)?(?:above|(?:was\s+|you\s+were\s+)?said\s+before)\b)"
_OVERRIDE = re.compile(
    _each(
        "ignore|disregard|forget",
        rf"(?:\b{_TAIL}{{0,40}}?\b(?:previous|prior|above|earlier|preceding|all|any|other|your|system|safety|original)"
        rf"\b{_TAIL}{{0,30}}?{_INSTRUCTIONS}{_ABOVE}",
    )
    + "|"
    + _each(  # not "override the default system prompt": a setting of a tool that calls a model
        "override|bypass",
        rf"(?:\b{_TAIL}{{0,40}}?\b(?:previous|prior|above|earlier|preceding|all|your|safety|original)"
        rf"\b{_TAIL}{{0,30}}?{_INSTRUCTIONS}{_ABOVE}",
    )
)
_USER = (
    r"user\b(?!'s|’s|[-_]|\s+(?:lists?|names?|ids?|profiles?|interface|ui|views?|tables?|accounts?|groups?|roles?"
    r"|records?|settings|agent)\b)"
)
"""The user, not a thing of theirs ("the user's profile", "the user list")."""
_NOT = r"do\s+not|don't|dont|never|must\s+not|should\s+not|shouldn't|without"
_CONCEAL = re.compile(
    "|".join(
        (
            _each(
                _NOT,
                r"\s+(?:\w+\s+){0,3}?(?:tell|telling|inform|informing|mention|mentioning|reveal|revealing|notify"
                rf"|notifying|alert|alerting|disclose|disclosing|(?:show|showing)\s+(?:this|it|that|them)\b)"
                rf"{_TAIL}{{0,30}}?\b(?:the\s+)?{_USER}",
            ),
            _each(_NOT, r"\s+let\s+(?:the\s+)?user\s+(?:know|see|notice|find\s+out)\b"),
            rf"hide\b{_TAIL}{{0,40}}?\bfrom\s+(?:the\s+)?{_USER}",
            r"user\s+(?:must|should|need)\s*(?:not|n't|never)\s+(?:know|see|notice|find\s+out|be\s+told)\b",
            _each(r"secretly|covertly|behind\s+the\s+user'?s\s+back", r"\b"),
            r"keep\s+(?:this|it)\s+(?:a\s+)?secret\b",
        )
    )
)
_SECRET_FILE = re.compile(
    r"~/\.ssh\b|\.ssh/|id[_ ](?:rsa|dsa|ecdsa|ed25519)\b|\.env\b(?![\w-])|/etc/(?:passwd|shadow)\b"
    r"|\.aws/credentials|\.npmrc\b|\.netrc\b|\.pgpass\b|\.git-credentials|\.docker/config\.json|\.kube/config"
    r"|mcp\.json\b|claude_desktop_config|~/\.cursor\b|wallet\.dat\b|keychain\b"
)
_ABOUT = r"(?!\s+(?:ids?|names?|titles?|counts?|length|size|tokens?|templates?|formats?|fingerprints?|types?)\b)"
"""Not a thing about the data ("the conversation ID", "system prompt tokens"): the data itself."""
_SECRET_DATA = re.compile(
    "|".join(
        (
            _each(
                r"system\s+prompt|conversation\s+history|chat\s+history|previous\s+messages|entire\s+conversation"
                r"|whole\s+conversation|full\s+conversation|private\s+key|seed\s+phrase",
                r"s?\b" + _ABOUT,
            ),
            _each(
                "all|every|any",
                r"\s+(?:of\s+)?(?:the\s+|your\s+)?(?:api\s+keys?|passwords?|credentials|tokens|secrets"
                r"|environment\s+variables)\b",
            ),
        )
    )
)
_TAKES = re.compile(  # not "reads": "Reads the .env file" says what the tool does, not what the model should
    r"\b(?:read|reading|cat|open|load|include|send|pass|provide|upload|attach|copy|print|output|append|insert|put"
    r"|embed|encode|forward|leak|extract|collect|gather|dump|paste|contents?\s+of)\b"
)
_PARAMETER = re.compile(r"(?:parameter|param|argument|arg|field)\b")
"""The word data is put "in the ``x`` parameter" with; :data:`_PARAMETER_HEAD` reads back from it."""
_PARAMETER_HEAD = re.compile(
    r"\b(?:in|into|as|through|via|inside|within|using)\s+(?:the\s+)?[`'\"]?([a-z_][\w-]{0,63})[`'\"]?\s+\Z"
)
_PUTS = re.compile(r"\b(?:pass|put|send|include|add|insert|place|provide|write|copy|append|store|encode|embed)\b")
_DATA = re.compile(
    r"\b(?:(?:its|their|file'?s?)\s+contents?|conversation|history|previous\s+messages|secrets?|passwords?"
    r"|credentials?|(?<!page\s)(?<!next\s)(?<!continuation\s)(?<!pagination\s)(?<!sync\s)tokens?|api\s+keys?"
    r"|ssh|private\s+keys?|env|environment|system\s+prompt|everything)\b" + _ABOUT + r"|\bid_rsa\b"
)
_BLOCK = re.compile(
    r"<\s*/?\s*(?:important|system|instructions?|admin|secret|hidden|critical|mandatory|directive|assistant|ai"
    r"|llm|system[-_ ]?prompt)\b[^<>\n]{0,40}>|\[\s*(?:system|instructions?)\s*\]"
)
_TO_MODEL = re.compile(
    "|".join(
        (
            _each(
                r"ai|assistant|llm|language\s+model|chatbot|ai\s+agent|claude|chatgpt|gemini|copilot",
                r"\s+(?:must|should|shall|needs?\s+to|has\s+to|is\s+(?:required|instructed)\s+to|will\s+(?:now|always))\b",
            ),
            r"you\s+are\s+(?:now\s+)?(?:an?\s+|the\s+)?(?:ai|assistant|language\s+model|llm)\b|as\s+an\s+ai\b",
            r"from\s+now\s+on\b|new\s+instructions?\s*:",
            _each("system|developer", r"\s+(?:message|prompt|instructions?)\s*:"),
        )
    )
)
_URGENCY = re.compile(
    "|".join(
        (
            _each(r"very|extremely|critically|vitally", r"\s+important\b"),
            r"this\s+is\s+(?:mandatory|crucial|critical)\b",
            _each(
                r"otherwise|or\s+else",
                rf"\b{_TAIL}{{0,40}}?\b(?:will\s+(?:not\s+work|fail|crash|break)|stop\s+working)\b",
            ),
        )
    )
)
_STOPS = ".!?\n"
_LIMITS = Limits()


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]`` (to a stop or a line break, at most a few hundred
    characters either side)."""
    reach = 200  # a long sentence's worth either side: the window of a bounded pattern, not a limit
    left = text[max(0, start - reach) : start]
    right = text[end : end + reach]
    cut_left = max(left.rfind(mark) for mark in _STOPS)
    cuts_right = [i for i in (right.find(mark) for mark in _STOPS) if i >= 0]
    return left[cut_left + 1 :] + text[start:end] + right[: min(cuts_right, default=len(right))]


def _words(pattern: re.Pattern[str], low: str) -> Iterable[re.Match[str]]:
    """``pattern``'s matches in ``low`` that start a word (``.env`` and ``~/.ssh`` start one anywhere
    but after a letter, a digit, ``_``, ``.`` or ``-``)."""
    for match in pattern.finditer(low):
        before = low[match.start() - 1 : match.start()]
        if not before or not (before.isalnum() or before in "_.-"):
            yield match


def _severity(family: str, low: str, match: re.Match[str]) -> Severity | None:
    """The severity of one place of ``family`` (``None``: not a finding after all)."""
    if family == "read secrets":
        if match.re is _SECRET_DATA and _A_VALUE.search(low, max(0, match.start() - 12), match.start()):
            return None  # "an optional system prompt to include": a value the tool takes, not the model's
        taken = _TAKES.search(_sentence(low, match.start(), match.end())) is not None
        return "high" if taken else ("low" if match.re is _SECRET_FILE else None)
    if family == "data through a parameter":
        head = _PARAMETER_HEAD.search(low, max(0, match.start() - 100), match.start())
        if head is None:
            return None
        before = _sentence(low[: head.start()], head.start(), head.start())  # up to "in the x parameter"
        puts = [put.end() for put in _PUTS.finditer(before)]
        if not puts:
            return None
        param = head.group(1)
        data = [d.group() for d in _DATA.finditer(before[puts[-1] :])]  # what is put there
        return "high" if any(word.split()[0].rstrip("s") not in param for word in data) else None
    return _FAMILIES[family][1]


_FAMILIES: dict[str, tuple[tuple[re.Pattern[str], ...], Severity]] = {
    "ignore instructions": ((_OVERRIDE,), "high"),
    "hide from the user": ((_CONCEAL,), "high"),
    "read secrets": ((_SECRET_FILE, _SECRET_DATA), "high"),
    "data through a parameter": ((_PARAMETER,), "high"),
    "a block addressed to a model": ((_BLOCK,), "medium"),
    "words to the model": ((_TO_MODEL,), "low"),
    "urgency": ((_URGENCY,), "low"),
}
"""Each family: its patterns, and its severity when nothing else decides it (see :func:`_severity`)."""

_GATES: dict[str, frozenset[str]] = {
    family: frozenset(words.split())
    for family, words in {
        "ignore instructions": "ignore disregard forget override bypass",
        "hide from the user": "user secretly covertly secret",
        "read secrets": "prompt history messages conversation key keys phrase password passwords credentials tokens "
        "secrets variables",
        "data through a parameter": "parameter param argument arg field",
        "words to the model": "ai assistant llm model chatbot agent claude chatgpt gemini copilot now instruction "
        "instructions prompt message",
        "urgency": "important mandatory crucial critical otherwise else",
        "secret files": "ssh rsa dsa ecdsa ed25519 env passwd shadow aws npmrc netrc pgpass credentials docker kube "
        "mcp claude cursor wallet keychain",
    }.items()
}
"""Words (whole, lower case, punctuation as spaces) a family's patterns cannot match without: an
item with none of them skips the family (``secret files``: the secret files' half of ``read
secrets``; a block needs ``<`` or ``[``)."""
_SPACES = str.maketrans({char: " " for char in string.punctuation})


def _wanted(low: str) -> frozenset[str]:
    """The families worth running on ``low`` (an item's texts as read, lower-cased)."""
    words = set(low.translate(_SPACES).split())
    wanted = {family for family, gate in _GATES.items() if not gate.isdisjoint(words)}
    if "secret files" in wanted:
        wanted.add("read secrets")
    if "<" in low or "[" in low:
        wanted.add("a block addressed to a model")
    return frozenset(wanted)


def _families(read: str, wanted: frozenset[str], slot: bool = False) -> Iterable[tuple[str, Severity, int, int]]:
    """``(family, severity, start, end)`` for places in ``read`` (text as a model reads it) of the
    ``wanted`` families, at most the policy's ``evidence_places`` of each (``start`` is -1 once
    there are more); ``slot``: ``read`` describes a parameter meant for secret data, which it names."""
    low = read.lower()
    if len(low) != len(read):
        low = read  # a letter that lower-cases to two: read as sent (rare, and never ASCII)
    for family, (patterns, _) in _FAMILIES.items():
        if family not in wanted:
            continue
        kept = 0
        for pattern in patterns:
            if slot and pattern is _SECRET_DATA:
                continue
            for match in _words(pattern, low):
                severity = _severity(family, low, match)
                if severity is None:
                    continue
                if kept == _LIMITS.evidence_places:
                    yield family, severity, -1, -1
                    break
                kept += 1
                yield family, severity, match.start(), match.end()


_A_VALUE = re.compile(r"\b(?:a|an|optional|custom|new|own)\s+\Z")
"""The words before secret data that make it a value the tool takes ("a system prompt")."""
_PARAMETER_DOC = re.compile(r"properties\.([^.]{1,64})\.description\Z")
_SLOT_WORDS = frozenset(
    {"prompt", "history", "message", "conversation", "chat", "context", "key", "token", "secret", "password"}
    | {"credential", "env", "environment", "variable", "system"}
)
"""Words of a parameter's name that make it the place for the secret data its description names: a
sampling tool's ``systemPrompt`` or ``messages`` ("the conversation history to send to the model")."""


def _is_slot(field: str) -> bool:
    """Whether ``field`` is the description of a parameter named for secret data (``system_prompt``,
    ``chatHistory``): its description naming that data is what the parameter is for. An unrelated
    parameter (``sidenote``) asking for it stays a finding."""
    named = _PARAMETER_DOC.search(field)
    if named is None:
        return False
    words = re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", named.group(1)).lower())
    return any(word.rstrip("s") in _SLOT_WORDS or word in _SLOT_WORDS for word in words)


def _text_hits(text: Text, wanted: frozenset[str]) -> Iterable[tuple[str, Hit | None]]:
    read = as_read(text.value)
    if text.field.endswith("(name)"):  # a parameter's name is read as words: content_of_id_rsa
        read = read.replace("_", " ").replace("-", " ")
    same = len(read) == len(text.value)
    for family, severity, start, end in _families(read, wanted, _is_slot(text.field)):
        if start < 0:
            yield family, None
            continue
        shown = excerpt(text.value, start, end) if same else "as a model reads it: " + excerpt(read, start, end)
        yield family, Hit(severity, text.field, f"{family}: {shown}")


def check_addressed(definition: Definition, texts: Sequence[Text] | None = None) -> list[Finding]:
    """``addressed-to-model`` on one item: one finding with every place found, or none. Two
    families at medium in the same item make it high (a block addressed to the model that also
    names a secret file is an attack, not a style)."""
    read = texts_of(definition) if texts is None else texts
    wanted = _wanted(as_read("\n".join(text.value for text in read)).lower().replace("_", " "))
    if not wanted:
        return []
    hits: list[Hit] = []
    medium: set[str] = set()
    more = False
    for text in read:
        for family, hit in _text_hits(text, wanted):
            if hit is None:
                more = True
                continue
            hits.append(hit)
            if hit.severity == "medium":
                medium.add(family)
    if not hits:
        return []
    found = finding(definition, CHECK, hits, ADVICE, more=more)
    if len(medium) >= 2 and found.severity != "high":
        found = dataclasses.replace(found, severity="high")
    return [found]
