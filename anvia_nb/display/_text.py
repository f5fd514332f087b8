"""Server text made fit to show: secrets masked, hidden characters made visible, length bounded.

A server can send terminal escapes, bidi overrides that reorder what a reader sees, zero-width or
Unicode "tag" characters that smuggle text past a human, and megabytes of it. None of that is
interpreted here: each such character becomes a visible marker (``␛[31m``, ``⟨U+202E⟩``), and
the text is cut *before* any regex or escaping touches it, so cost follows the cap, not the input.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

__all__ = ["MASK", "Budget", "Prepared", "mask_json", "mask_secrets", "prepare_text", "visible_text"]

MASK = "••••••"

MARKER_COST = 48
"""Budget charged for each marker beyond its own length: the span that styles it in HTML."""

_SPECIAL = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][ -~]*(?:\x07|\x1b\\)?|[@-Z\\-_])?"  # ANSI escape sequences
    r"|\r\n"
    r"|[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069"
    r"\ufeff\U000e0000-\U000e007f]"
)


def secret_variants(secrets: Sequence[str]) -> list[str]:
    """Each secret as it may appear in output: as is, HTML-escaped, JSON-escaped, URL-encoded.

    Longest first, so a secret that contains another is masked whole.
    """
    variants: set[str] = set()
    for secret in secrets:
        if not isinstance(secret, str) or not secret:
            continue
        variants.update(
            (
                secret,
                html.escape(secret, quote=True),
                html.escape(secret, quote=False),
                json.dumps(secret)[1:-1],
                json.dumps(secret, ensure_ascii=False)[1:-1],
                quote(secret, safe=""),
            )
        )
    return sorted(variants, key=len, reverse=True)


def mask_secrets(text: str, secrets: Sequence[str]) -> str:
    """Replace every secret (also in its escaped forms) with ``••••••``."""
    for variant in secret_variants(secrets):
        if variant in text:
            text = text.replace(variant, MASK)
    return text


def mask_json(value: Any, secrets: Sequence[str]) -> Any:
    """A copy of a JSON value with secrets masked in every string, keys included."""
    variants = secret_variants(secrets)
    if not variants:
        return value
    return _mask_json(value, variants)


def _mask_str(text: str, variants: Sequence[str]) -> str:
    for variant in variants:
        if variant in text:
            text = text.replace(variant, MASK)
    return text


def _mask_json(value: Any, variants: Sequence[str]) -> Any:
    if isinstance(value, str):
        return _mask_str(value, variants)
    if isinstance(value, dict):
        return {
            (_mask_str(k, variants) if isinstance(k, str) else k): _mask_json(v, variants) for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [_mask_json(v, variants) for v in value]
    return value


def marker_for(match: str) -> str:
    """The visible stand-in for one special character or escape sequence."""
    if len(match) > 1:  # an escape sequence; its terminator (BEL or ESC) is a control too
        return "".join(marker_for(c) if c in "\x1b\x07" else c for c in match)
    code = ord(match)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "␡"
    return f"⟨U+{code:04X}⟩"


@dataclass
class Budget:
    """Characters still allowed in one rendering; shared by every block of a bundle."""

    remaining: int

    def spend(self, amount: int) -> None:
        self.remaining = max(0, self.remaining - amount)

    @property
    def exhausted(self) -> bool:
        return self.remaining <= 0


@dataclass(frozen=True)
class Prepared:
    """Text ready to show: segments ``(is_marker, text)`` plus how much was left out."""

    segments: tuple[tuple[bool, str], ...]
    hidden_chars: int
    cost: int

    @property
    def plain(self) -> str:
        return "".join(s for _, s in self.segments)


def prepare_text(text: str, limit: int, secrets: Sequence[str]) -> Prepared:
    """Cut ``text`` to ``limit`` shown characters, masking secrets and marking special characters.

    The cut happens first, on a window one secret longer than the limit, so a secret that straddles
    the cut is still masked whole and a 50 MB string costs no more than a 20 kB one.
    """
    limit = max(0, limit)
    variants = secret_variants(secrets)
    window = limit + (len(variants[0]) if variants else 0)
    head = text[:window]
    tail_len = len(text) - len(head)
    if variants:
        head = _mask_str(head, variants)
    segments: list[tuple[bool, str]] = []
    cost = 0
    consumed = 0
    position = 0
    for match in _SPECIAL.finditer(head):
        start = match.start()
        if start > position:
            room = limit - cost
            piece = head[position:start][: max(0, room)]
            if piece:
                segments.append((False, piece))
                cost += len(piece)
                consumed += len(piece)
            if len(piece) < start - position:
                position = -1
                break
        found = match.group()
        if found == "\r\n":
            shown, price = (False, "\n"), 1
        else:
            marker = marker_for(found)
            shown, price = (True, marker), len(marker) + MARKER_COST
        if cost + price > limit:
            position = -1
            break
        segments.append(shown)
        cost += price
        consumed += len(found)
        position = match.end()
    if position >= 0 and position < len(head):
        piece = head[position:][: max(0, limit - cost)]
        if piece:
            segments.append((False, piece))
            cost += len(piece)
            consumed += len(piece)
    return Prepared(tuple(segments), len(head) - consumed + tail_len, cost)


def visible_text(text: str, secrets: Sequence[str] = (), limit: int | None = None) -> str:
    """Plain text with secrets masked and special characters made visible (for text/plain, DataFrames)."""
    unbounded = len(text) * (MARKER_COST + 12) + 1
    prepared = prepare_text(text, unbounded if limit is None else limit, secrets)
    return prepared.plain
