"""Server text made visible and cut: no character a server sent is interpreted or hidden.

A server can send terminal escapes, bidi overrides that reorder what a reader sees, zero-width or
Unicode "tag" characters that smuggle text past a human, and megabytes of it. None of that is
interpreted here: each such character becomes a visible marker in one notation, ``⟨ESC⟩[31m``,
``⟨BEL⟩``, ``⟨U+202E⟩`` (control pictures such as ␛ show as an empty box in common fonts), and
the text is cut while it is read, so cost follows the cap, not the input.

Masking is not done here: :class:`anvia_nb.policy.ShowPolicy` finds the secrets and hands
:func:`cut` the spans to show as the mask. Stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["Prepared", "cut", "joined_slice", "marker_for", "merged_spans"]

SPECIAL = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][ -~]*(?:\x07|\x1b\\)?|[@-Z\\-_])?"  # ANSI escape sequences
    r"|\r\n"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069"
    r"\ufeff\U000e0000-\U000e007f]"
)

_C0_NAMES = (
    *("NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI"),
    *("DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"),
)
"""The ASCII names of the C0 controls, shown as ``⟨ESC⟩``: control pictures (␛) show as boxes."""

Measure = Literal["source", "shown"]
"""What a limit counts: the characters the server sent, or the characters shown (a label's width)."""


def marker_for(match: str) -> str:
    """The visible stand-in for one special character or escape sequence: ``⟨ESC⟩``, ``⟨U+202E⟩``."""
    if len(match) > 1:  # an escape sequence; its terminator (BEL or ESC) is a control too
        return "".join(marker_for(c) if c in "\x1b\x07" else c for c in match)
    code = ord(match)
    if code < 0x20:
        return f"⟨{_C0_NAMES[code]}⟩"
    if code == 0x7F:
        return "⟨DEL⟩"
    return f"⟨U+{code:04X}⟩"


@dataclass(frozen=True)
class Prepared:
    """Text ready to show: segments ``(is_marker, text)``, and exactly how much was left out.

    ``hidden_chars`` counts the characters the server sent that are not shown (exact); ``cost`` is
    what the shown part charged against the limit, in the measure asked for; ``markers`` how many
    special characters were marked.
    """

    segments: tuple[tuple[bool, str], ...]
    hidden_chars: int
    cost: int
    markers: int = 0

    @property
    def plain(self) -> str:
        segments = self.segments
        if len(segments) == 1:  # one run of text (the usual result): no generator to join
            return segments[0][1]
        return "".join([s for _, s in segments])


def cut(
    text: str,
    limit: int,
    masked: Sequence[tuple[int, int]] = (),
    mask: str = "",
    *,
    measure: Measure = "source",
    max_markers: int | None = None,
) -> Prepared:
    """The start of ``text`` that fits ``limit``, special characters marked, ``masked`` spans masked.

    ``masked`` are sorted, non-overlapping ``(start, end)`` spans, each shown as ``mask`` whole or
    not at all. A marker or mask is never split. The text is read only as far as the limit needs,
    and ``max_markers`` stops it at that many markers (each is styled markup in HTML).
    """
    limit = max(0, limit)
    segments: list[tuple[bool, str]] = []
    state = _Cut(limit, measure, max_markers)
    position = 0
    for start, end in [*masked, (len(text), len(text))]:
        if not state.plain_run(text, position, start, segments):
            break
        if end > start and not state.atomic(mask, end - start, False, segments):
            break
        position = end
    return Prepared(tuple(segments), len(text) - state.consumed, state.cost, state.markers)


@dataclass
class _Cut:
    limit: int
    measure: Measure
    max_markers: int | None
    cost: int = 0
    consumed: int = 0
    markers: int = 0
    full: bool = False

    def atomic(self, shown: str, source: int, marker: bool, out: list[tuple[bool, str]]) -> bool:
        """Add one whole token (a marker, the mask, a newline); False when it does not fit."""
        price = source if self.measure == "source" else len(shown)
        out_of_markers = marker and self.max_markers is not None and self.markers >= self.max_markers
        if self.cost + price > self.limit or out_of_markers:
            self.full = True
            return False
        out.append((marker, shown))
        self.cost += price
        self.consumed += source
        self.markers += marker
        return True

    def text(self, piece: str, out: list[tuple[bool, str]]) -> bool:
        room = self.limit - self.cost
        taken = piece[: max(0, room)]
        if taken:
            out.append((False, taken))
            self.cost += len(taken)
            self.consumed += len(taken)
        if len(taken) < len(piece):
            self.full = True
            return False
        return True

    def plain_run(self, text: str, start: int, end: int, out: list[tuple[bool, str]]) -> bool:
        """Show ``text[start:end]`` (no secret in it) with its special characters marked."""
        position = start
        while position < end:
            # Read only a window the limit can use: a character shown costs at least one.
            window_end = min(end, position + (self.limit - self.cost) + 8)
            for match in SPECIAL.finditer(text, position, window_end):
                if not self.text(text[position : match.start()], out):
                    return False
                found = match.group()
                if found == "\r\n":
                    ok = self.atomic("\n", 2, False, out)
                else:
                    ok = self.atomic(marker_for(found), len(found), True, out)
                if not ok:
                    return False
                position = match.end()
            if not self.text(text[position:window_end], out):
                return False
            position = window_end
        return True


def merged_spans(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted spans with overlapping ones joined."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        elif end > start:
            out.append((start, end))
    return out


def joined_slice(texts: Sequence[str], starts: Sequence[int], low: int, high: int) -> str:
    """``"".join(texts)[low:high]`` without joining them."""
    parts = []
    for index, text in enumerate(texts):
        left, right = max(low, starts[index]), min(high, starts[index + 1])
        if left < right:
            parts.append(text[left - starts[index] : right - starts[index]])
    return "".join(parts)
