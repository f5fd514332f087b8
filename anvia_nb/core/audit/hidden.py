"""Hidden text: what a model reads in a definition and a person does not see.

Checks (ids as in ``docs/audit.md``): ``hidden-tags`` (Unicode tag characters, decoded),
``hidden-bidi`` (bidi controls that reorder what a person sees), ``hidden-invisible`` (zero-width
characters outside emoji sequences and the scripts that join with them, runs of variation
selectors), ``hidden-private-use``, ``terminal-escapes`` (escape sequences and control
characters), ``hidden-html-comment`` and ``hidden-padding`` (whitespace that pushes text out of
sight). Text in any script, right-to-left text, emoji with joiners, skin tones, flags, a
variation selector, a joiner after a virama (Malayalam's chillu letters) and a word joiner beside
a hyphen are not findings. One scan per text with one bounded pattern: linear time.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from anvia_nb.core.audit.definitions import Definition, Finding, Severity
from anvia_nb.core.audit.evidence import excerpt, visible
from anvia_nb.core.audit.found import Hit, finding
from anvia_nb.core.audit.texts import Text, texts_of

__all__ = ["ADVICE", "HIDDEN_CHECKS", "check_hidden"]

ADVICE = {
    "hidden-tags": "Unicode tag characters are invisible to a person and read by a model as text: "
    "do not connect a model to it; accept only with a reason if the server is yours.",
    "hidden-bidi": "A bidi control makes text read differently from what a model is given: "
    "ask the server's author to remove it; accept with a reason if it is part of right-to-left text.",
    "hidden-invisible": "Invisible characters can carry text a person cannot see: "
    "ask the server's author to remove them; accept with a reason if they are meant.",
    "hidden-private-use": "Private-use characters mean nothing agreed and show as boxes or icons: "
    "accept with a reason if they are an icon font's.",
    "terminal-escapes": "Terminal escapes and control characters can hide or rewrite text where it is shown: "
    "do not connect a model to it until they are gone; accept only with a reason.",
    "hidden-html-comment": "An HTML comment is hidden where Markdown is shown and read by a model: "
    "read it; accept with a reason if it says nothing to a model.",
    "hidden-padding": "A long run of whitespace pushes the text after it out of sight: "
    "read what follows it; accept with a reason if it is only layout.",
}
"""Each check's one line of advice: why it matters, and how to accept it."""

HIDDEN_CHECKS = tuple(ADVICE)
"""The ids of the checks of this module."""

_ENCODED = 8
"""Invisible (or private-use) characters in one text from which they read as encoded data."""
_PADDING_SPACES = 80
"""Whitespace characters in one run, with text after them, that push that text out of sight."""
_PADDING_BREAKS = 12
"""Line breaks in one run of whitespace, with text after them, that push that text out of sight."""

_SCAN = re.compile(
    r"(?P<tags>[\U000e0000-\U000e007f]+)"
    r"|(?P<override>[\u202d\u202e])"
    r"|(?P<embed>[\u202a-\u202c\u2066-\u2069])"
    r"|(?P<mark>[\u200e\u200f\u061c])"
    r"|(?P<selectors>[\ufe00-\ufe0f\U000e0100-\U000e01ef]+)"
    r"|(?P<invisible>[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200d\u2060-\u2064\u206a-\u206f"
    r"\u3164\ufeff\uffa0\ufff9-\ufffb]+)"
    r"|(?P<private>[\ue000-\uf8ff\U000f0000-\U0010ffff])"
    r"|(?P<escape>\x1b(?:\[[0-?]{0,32}[ -/]{0,8}[@-~]|\][^\x07\x1b]{0,256}(?:\x07|\x1b\\)?|[@-Z\\-_])?)"
    r"|(?P<control>[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]|\r(?!\n))"
)
"""Every hidden character or run, named by group; plain ASCII text never matches but for escapes."""

_WHITESPACE = re.compile(r"\s+")
_LONG_WHITESPACE = re.compile(rf"\s{{{_PADDING_BREAKS}}}")  # the quick test: no padding without it
_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]")
_FLAG_TAGS = re.compile(r"[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,6}\U000e007f")
_BLACK_FLAG = "\U0001f3f4"


def _emoji(char: str) -> bool:
    """A character an emoji sequence joins: a pictograph or symbol, a skin tone, a keycap, VS16."""
    code = ord(char)
    return (
        0x1F000 <= code <= 0x1FAFF
        or 0x2600 <= code <= 0x27BF
        or code in (0xFE0F, 0x20E3, 0x2B50, 0x2B55, 0x2764, 0x2640, 0x2642, 0x2695)
        or unicodedata.category(char) == "So"
    )


def _joining_script(char: str) -> bool:
    """A letter or mark of a script written with joiners (Arabic, Persian, Indic, Sinhala ...)."""
    return ord(char) >= 0x0590 and unicodedata.category(char)[0] in "LM"


def _spaceless(char: str) -> bool:
    """A letter or mark of a script written without spaces between words (Thai and after it)."""
    return bool(char) and ord(char) >= 0x0E00 and unicodedata.category(char)[0] in "LM"


_BREAKS = "-\u2010\u2011\u2013\u2014/"
"""Where a line may break that a word joiner (U+2060) holds together."""


def _invisible_allowed(text: str, start: int) -> bool:
    """Whether the invisible character at ``start`` does what it is for: a joiner inside an emoji
    sequence or between letters of a script that joins, a zero-width space between letters of a
    script written without spaces, a soft hyphen inside a word, a leading BOM."""
    char = text[start]
    before = text[start - 1] if start > 0 else ""
    after = text[start + 1] if start + 1 < len(text) else ""
    if char == "\ufeff":
        return start == 0
    if char == "\u00ad":
        return before.isalpha() and after.isalpha()
    if char == "\u034f":
        return bool(before) and unicodedata.category(before) == "Mn"
    if char == "\u200b":  # a word break in scripts written without spaces (Thai, Khmer, Japanese ...)
        return _spaceless(before) and _spaceless(after)
    if char == "\u2060":  # a word joiner beside a hyphen or a slash keeps a compound on one line
        return bool(before and after) and (before in _BREAKS or after in _BREAKS)
    if char in "\u200c\u200d" and before:
        if char == "\u200d" and _emoji(before) and _emoji(after):
            return True
        if _joining_script(before) and unicodedata.category(before) == "Mn":
            return True  # after a virama, at a word's end too (Malayalam's chillu letters: ന്‍)
        return (
            _joining_script(before) and bool(after) and (_joining_script(after) or unicodedata.category(after) == "Mn")
        )
    return False


def _text_hits(text: Text) -> Iterable[tuple[str, Hit]]:
    value = text.value
    invisible: list[int] = []  # the first and last place of each run found
    unseen = 0  # how many characters in them
    private: list[int] = []
    rtl: bool | None = None
    for match in _SCAN.finditer(value):
        kind, start, end = match.lastgroup, match.start(), match.end()
        severity: Severity
        if kind == "tags":
            if value[start - 1 : start] == _BLACK_FLAG and _FLAG_TAGS.fullmatch(match.group()):
                continue  # the flags of England, Scotland and Wales are tag sequences
            yield "hidden-tags", Hit("high", text.field, excerpt(value, start, end))
        elif kind == "selectors":
            if end - start >= 2:
                yield "hidden-invisible", Hit("high", text.field, excerpt(value, start, end))
        elif kind == "invisible":
            if end - start > 1 or not _invisible_allowed(value, start):
                invisible += [start, end - 1]
                unseen += end - start
        elif kind == "private":
            private.append(start)
        elif kind == "escape":
            yield "terminal-escapes", Hit("high", text.field, excerpt(value, start, end))
        elif kind == "control":
            yield "terminal-escapes", Hit("medium", text.field, excerpt(value, start, end))
        else:
            if rtl is None:
                rtl = _RTL.search(value) is not None
            if kind == "override":
                severity = "high"
            elif kind == "embed":  # a first-strong isolate (U+2068) and its end are what i18n tools write
                severity = "low" if rtl or match.group() in "\u2068\u2069" else "medium"
            else:
                severity = "info" if rtl else "low"
            yield "hidden-bidi", Hit(severity, text.field, excerpt(value, start, end))
    if invisible:
        many = unseen >= _ENCODED
        evidence = excerpt(value, invisible[0], invisible[-1] + 1 if many else invisible[0] + 1)
        yield "hidden-invisible", Hit("high" if many else "medium", text.field, evidence)
    if private:
        many = len(private) >= _ENCODED
        evidence = excerpt(value, private[0], private[-1] + 1 if many else private[0] + 1)
        yield "hidden-private-use", Hit("medium" if many else "low", text.field, evidence)


def _comment_hits(text: Text) -> Iterable[Hit]:
    value = text.value
    start = value.find("<!--")
    while start >= 0:
        close = value.find("-->", start + 4)
        end = len(value) if close < 0 else close + 3
        yield Hit("medium", text.field, visible(value[start:end]))
        start = -1 if close < 0 else value.find("<!--", end)


def _padding_hits(text: Text) -> Iterable[Hit]:
    value = text.value
    for match in _WHITESPACE.finditer(value):
        run = match.group()
        if match.end() == len(value) or (len(run) < _PADDING_SPACES and run.count("\n") < _PADDING_BREAKS):
            continue
        after = visible(value[match.end() : match.end() + 2 * len(run) + 200], 120)
        breaks = run.count("\n")
        yield Hit("medium", text.field, f"⟨{len(run):,} whitespace characters, {breaks:,} line breaks⟩ then: {after}")


def check_hidden(definition: Definition, texts: Sequence[Text] | None = None) -> list[Finding]:
    """The findings of this module's checks on one item (``texts``: its :func:`texts_of`, when
    already read): at most one per check, each with the places found (the worst first)."""
    hits: dict[str, list[Hit]] = {}
    for text in texts_of(definition) if texts is None else texts:
        if not text.value.isascii():
            for check, hit in _text_hits(text):
                hits.setdefault(check, []).append(hit)
        elif "\x1b" in text.value or not text.value.isprintable():
            for check, hit in _text_hits(text):
                if check == "terminal-escapes":
                    hits.setdefault(check, []).append(hit)
        if "<!--" in text.value:
            hits.setdefault("hidden-html-comment", []).extend(_comment_hits(text))
        if _LONG_WHITESPACE.search(text.value) is not None:
            padding = list(_padding_hits(text))
            if padding:
                hits.setdefault("hidden-padding", []).extend(padding)
    return [finding(definition, check, found, ADVICE[check]) for check, found in hits.items() if found]
