"""Text as a model reads it, and names as a person confuses them.

:func:`as_read` is a definition's text with what no one sees resolved: Unicode tag characters read
as the ASCII they spell, other invisible characters dropped, compatibility forms folded (NFKC: full
width ``ｉｇｎｏｒｅ`` is ``ignore``) and common Cyrillic and Greek look-alikes read as the Latin
letters they imitate, so the checks for words addressed to a model are not fooled by them.
:func:`skeleton` is a name folded the same way and by case, so ``reаd_file`` with a Cyrillic ``а``
and ``read_file`` have one skeleton. A small table of the usual look-alikes (after Unicode's
confusables list), not the whole list: no new dependency.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["LOOKALIKES", "as_read", "scripts_of", "skeleton"]

LOOKALIKES: dict[int, str] = {
    ord(a): b
    for a, b in zip(
        # Cyrillic lower and upper case, then Greek, then Latin letters other alphabets imitate
        "аеорсухіјѕԁɡһӏԛԝмтнвкАВЕКМНОРСТУХІЈЅԜαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧıℓ‘’‛“”",
        "aeopcyxijsdghlqwmthbkABEKMHOPCTYXIJSWabeiknoptuxABEZHIKMNOPTYXil'''\"\"",
        strict=True,
    )
}
"""Letters that look like Latin ones, and the Latin letter each imitates (typographic quotes as
plain ones: "don’t" is "don't")."""

_TAGS = {code: chr(code - 0xE0000) for code in range(0xE0020, 0xE007F)}
_TAG_RUN = re.compile(r"[\U000e0020-\U000e007e]+")
_UNSEEN = re.compile(
    r"[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    r"\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e001f\U000e007f\U000e0100-\U000e01ef]+"
)
_SCRIPT = re.compile(r"^([A-Z]+)")


def as_read(text: str) -> str:
    """``text`` as a model reads it, for matching words (see the module's docstring). ASCII text
        is returned as is; other text may change length (a run of tag characters is read as its own
    words, a space either side)."""
    if text.isascii():
        return text
    read = _UNSEEN.sub("", _TAG_RUN.sub(lambda run: f" {run.group().translate(_TAGS)} ", text))
    return unicodedata.normalize("NFKC", read).translate(LOOKALIKES)


def skeleton(name: str) -> str:
    """``name`` folded for comparison: as read (:func:`as_read`), case folded, ``-`` and ``.`` as
    ``_``, and what passes for another letter as that letter (``0`` as ``o``; ``1``, ``i`` and
    ``l`` as one; ``rn`` as ``m``)."""
    folded = as_read(name).casefold().replace("-", "_").replace(".", "_")
    return folded.replace("0", "o").replace("1", "l").replace("i", "l").replace("rn", "m")


def scripts_of(name: str) -> set[str]:
    """The scripts of ``name``'s letters, by the first word of their Unicode names
    (``LATIN``, ``CYRILLIC``, ``GREEK`` ...): more than one in a name is how a look-alike is made."""
    if name.isascii():
        return {"LATIN"} if any(char.isalpha() for char in name) else set()
    found = set()
    for char in name:
        if char.isalpha() and not char.isascii():
            match = _SCRIPT.match(unicodedata.name(char, ""))
            found.add(match.group(1) if match else "OTHER")
        elif char.isalpha():
            found.add("LATIN")
    return found
