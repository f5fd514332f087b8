"""How much of a large received line the trace decodes: its head, and only its head when that is enough.

A line read as bytes (a stdio line, an HTTP body or SSE event) that is larger than the trace keeps
whole in bytes may still be small enough in characters (UTF-8 takes one to four bytes a
character). Decoding all of it only to count its characters cost a 200 KB result half of its
trace's cost (issue 41). The head the trace keeps must be decoded anyway, and every byte after it
is at most one character and at least a quarter of one: so the head's characters and the bytes
after it prove most lines longer than kept (or not) without decoding the rest, and only a line in
between (mostly characters of three or four bytes, near the bound) is decoded whole.

A message kept as its head states its size in bytes, the bytes that came over the wire: counting
its characters is the work this module saves. A message kept whole states its characters, as
before (they are counted by decoding it, which keeping it needs anyway).
"""

from __future__ import annotations

from anvia_nb.policy import ShowPolicy, secret_variants

__all__ = ["secret_reach", "wire_head"]

_MAX_BYTES_PER_CHAR = 4
"""UTF-8 takes at most four bytes per character (and a byte that is not UTF-8 is decoded as one)."""
_SPLIT = _MAX_BYTES_PER_CHAR - 1
"""The most bytes of a character a cut leaves on either side of it."""


def wire_head(wire: bytes, max_chars: int, head_chars: int, reach: int | None) -> tuple[str, int | None]:
    """The text of a line of more than ``max_chars`` bytes the trace needs, and its size when it is
    kept as its head.

    Returns ``(head, len(wire))`` when the line surely has more than ``max_chars`` characters:
    ``head`` is its start, at least ``head_chars`` characters and ``reach`` more whole (``reach``:
    how far past a cut the masking looks for a secret across it; ``None`` with no secrets).
    Otherwise the line decoded whole: ``(text, None)`` when it has at most ``max_chars``
    characters (kept whole, its size its characters), ``(text, len(wire))`` when it has more.
    """
    size, want = len(wire), head_chars + (reach or 0)
    for quarters in (5, 8, 4 * _MAX_BYTES_PER_CHAR):  # bytes a character, in quarters: most JSON takes
        read = quarters * want // 4  # one and a bit (escaped, or some accents), much two, any four
        head = wire[:read].decode("utf-8", "replace")  # a character cut at the end: replaced
        if len(head) - _SPLIT >= want:
            break
    # Characters the line surely has: the head's whole ones, and a quarter of the bytes after it.
    if len(head) - _SPLIT + max(0, size - read - _SPLIT) // _MAX_BYTES_PER_CHAR > max_chars:
        return head, size
    text = wire.decode("utf-8", "replace")
    return text, (size if len(text) > max_chars else None)


def secret_reach(policy: ShowPolicy) -> int | None:
    """How far past a cut ``policy`` looks for a secret across it (its longest secret as written:
    :meth:`~anvia_nb.policy.ShowPolicy.head` reads that far); ``None`` when it masks nothing."""
    variants = secret_variants(policy.secrets)
    return max(map(len, variants)) if variants else None
