"""Which images may be shown inline, decided from their bytes, never from the server's label alone.

An image reaches the page only as an ``<img>`` with a ``data:`` URL (never a fetched URL), and only
when its base64 decodes strictly, its bytes start with the magic of the type it claims, and it is
small enough. SVG is allowed only that way too: inside ``<img>`` a browser runs no script in it.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from anvia_nb.display._html import IMAGE_DATA_URL

__all__ = ["ImageCheck", "base64_size", "check_image"]

INLINE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml")
_ALIASES = {"image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg"}


@dataclass(frozen=True)
class ImageCheck:
    """The verdict on one image: a data URL to show, or the reason it is shown as metadata."""

    mime_type: str
    size: int | None
    data_url: str | None = None
    reason: str = ""
    too_large: bool = False
    """Refused for its size alone (the limit it was checked against)."""

    @property
    def ok(self) -> bool:
        return self.data_url is not None


def base64_size(data: str) -> int:
    """Decoded size of a base64 string, computed from its length without decoding it."""
    stripped = len(data) - (2 if data.endswith("==") else 1 if data.endswith("=") else 0)
    return (stripped * 3) // 4


def _magic_matches(mime_type: str, head: bytes) -> bool:
    if mime_type == "image/png":
        return head.startswith(b"\x89PNG\r\n\x1a\n")
    if mime_type == "image/jpeg":
        return head.startswith(b"\xff\xd8\xff")
    if mime_type == "image/gif":
        return head.startswith((b"GIF87a", b"GIF89a"))
    if mime_type == "image/webp":
        return len(head) >= 12 and head.startswith(b"RIFF") and head[8:12] == b"WEBP"
    if mime_type == "image/svg+xml":
        try:
            prefix = head[:4096].decode("utf-8", errors="strict")
        except UnicodeDecodeError:
            return False
        return "<svg" in prefix.lower()
    return False


def normal_mime_type(mime_type: object) -> str:
    """The declared type, lower-cased, without parameters; ``""`` when it is not a string."""
    if not isinstance(mime_type, str):
        return ""
    base = mime_type.split(";", 1)[0].strip().lower()
    return _ALIASES.get(base, base)


def check_image(data: object, mime_type: object, max_bytes: int) -> ImageCheck:
    """Decide whether ``data`` (base64 as sent) can be shown inline as ``mime_type``."""
    declared = normal_mime_type(mime_type)
    if not isinstance(data, str):
        return ImageCheck(declared, None, reason="its data is not a base64 string")
    size = base64_size(data)
    if declared not in INLINE_TYPES:
        shown = declared or "no type"
        return ImageCheck(declared, size, reason=f"{shown} is not a type shown inline")
    if size > max_bytes:
        return ImageCheck(declared, size, reason=f"it is larger than the {max_bytes:,} byte limit", too_large=True)
    try:
        raw = base64.b64decode(data.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return ImageCheck(declared, size, reason="its base64 does not decode")
    if not raw:
        return ImageCheck(declared, 0, reason="it is empty")
    if not _magic_matches(declared, raw[:4096]):
        return ImageCheck(declared, len(raw), reason=f"its bytes are not {declared}")
    data_url = f"data:{declared};base64,{data}"
    if not IMAGE_DATA_URL.match(data_url):
        return ImageCheck(declared, len(raw), reason="its base64 is not in canonical form")
    return ImageCheck(declared, len(raw), data_url=data_url)
