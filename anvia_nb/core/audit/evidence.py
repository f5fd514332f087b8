"""Evidence a person can read: a definition's offending text with every character no one sees
shown as ``⟨U+202E RIGHT-TO-LEFT OVERRIDE⟩``, a run of Unicode tag characters decoded to the text a
model reads in it, a run of variation selectors decoded to the bytes it smuggles, and all of it cut
to the policy's ``evidence_chars`` while it is read (the cost follows the bound, not the input).
"""

from __future__ import annotations

import re
import unicodedata

from anvia_nb.policy import Limits

__all__ = ["char_label", "decode_selectors", "decode_tags", "excerpt", "one_line", "spelled", "visible"]

_LIMITS = Limits()

_C0 = (
    *("NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI"),
    *("DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"),
)

_UNSEEN = re.compile(
    r"[\U000e0000-\U000e007f]{2,}|[\ufe00-\ufe0f\U000e0100-\U000e01ef]{2,}|"
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    r"\u2028-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\ue000-\uf8ff"
    r"\U000e0000-\U000e007f\U000e0100-\U000e01ef\U000f0000-\U0010ffff]"
)
"""A run of tag characters or of variation selectors (decoded whole), else one character no one
sees: controls, format characters, invisible fillers, private use."""


def char_label(char: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: the code point and its Unicode name (a control's ASCII
    name, ``PRIVATE USE`` for a private-use one)."""
    code = ord(char)
    if code < 0x20:
        name = _C0[code]
    elif code == 0x7F:
        name = "DEL"
    elif 0x80 <= code <= 0x9F:
        name = "C1 CONTROL"
    elif unicodedata.category(char) == "Co":
        name = "PRIVATE USE"
    else:
        name = unicodedata.name(char, "UNASSIGNED")
    return f"U+{code:04X} {name}"


def decode_tags(run: str) -> str:
    """The ASCII text a run of Unicode tag characters spells (``U+E0041`` is ``A``); a model reads
    it, no one sees it."""
    return "".join(chr(ord(c) - 0xE0000) for c in run if 0xE0020 <= ord(c) <= 0xE007E)


def decode_selectors(run: str) -> str:
    """The text a run of variation selectors smuggles, read as one byte each (``U+FE00``-``U+FE0F``
    are 0 to 15, ``U+E0100``-``U+E01EF`` 16 to 255), as UTF-8 with bad bytes replaced."""
    data = bytes(ord(c) - 0xFE00 if ord(c) <= 0xFE0F else ord(c) - 0xE0100 + 16 for c in run)
    return data.decode("utf-8", "replace")


def _marker(match: str) -> str:
    if len(match) == 1:
        return f"⟨{char_label(match)}⟩"
    if 0xE0000 <= ord(match[0]) <= 0xE007F:
        return f'⟨{len(match)} × TAG CHARACTERS (U+E0000–U+E007F) reading "{decode_tags(match)}"⟩'
    return f'⟨{len(match)} × VARIATION SELECTORS reading "{one_line(decode_selectors(match))}"⟩'


def one_line(text: str) -> str:
    """``text`` with line breaks and tabs written as ``\\n``, ``\\r`` and ``\\t``: evidence is one line."""
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")


def visible(text: str, limit: int | None = None) -> str:
    """``text`` with every unseen character shown as ``⟨U+XXXX NAME⟩`` (runs of tag characters and
    of variation selectors decoded), line breaks as ``\\n``, cut to ``limit`` characters of output
    (the policy's ``evidence_chars`` when ``None``) with what was left out counted."""
    bound = _LIMITS.evidence_chars if limit is None else limit
    parts: list[str] = []
    size = 0
    position = 0
    for match in _UNSEEN.finditer(text):
        if size >= bound:
            break
        plain = one_line(text[position : match.start()])
        parts.append(plain)
        parts.append(_marker(match.group()))
        size += len(plain) + len(parts[-1])
        position = match.end()
    if size < bound:
        parts.append(one_line(text[position : position + bound]))
        position = min(len(text), position + bound)
    shown = "".join(parts)
    left = len(text) - position
    if len(shown) > bound:
        shown = shown[:bound]
        left = max(left, 1)
    return shown + (f"… ({left:,} more characters)" if left > 0 else "")


def excerpt(text: str, start: int, end: int) -> str:
    """The part of ``text`` around ``text[start:end]`` (the policy's ``evidence_context_chars``
    either side, ``…`` where cut), made :func:`visible`."""
    context = _LIMITS.evidence_context_chars
    left = max(0, start - context)
    right = min(len(text), end + context)
    body = visible(text[left:right])
    return ("…" if left else "") + body + ("…" if right < len(text) else "")


def spelled(name: str) -> str:
    """``name`` with each character outside ASCII written ``⟨U+0430 CYRILLIC SMALL LETTER A⟩``:
    how a look-alike name is told from the one it imitates (cut to the policy's ``name_chars``)."""
    shown = name[: _LIMITS.name_chars]
    spelled = "".join(char if char.isascii() and char.isprintable() else f"⟨{char_label(char)}⟩" for char in shown)
    return spelled + ("…" if len(name) > len(shown) else "")
