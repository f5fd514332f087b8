"""Tiny, valid media files built in code, so the repository holds no binary files.

PNG, GIF and WAV are assembled byte by byte from their specifications (zlib, struct, wave);
JPEG and WebP encoders are not in the standard library, so those two are small constants that
were produced by Chromium's canvas encoder and checked to decode (4x4 pixels each).
"""

from __future__ import annotations

import base64
import io
import math
import struct
import wave
import zlib

__all__ = [
    "IMAGE_MIME_TYPES",
    "gif_bytes",
    "image_bytes",
    "jpeg_bytes",
    "png_bytes",
    "png_with_padding",
    "svg_bytes",
    "wav_bytes",
    "webp_bytes",
]

IMAGE_MIME_TYPES = {
    "png": "image/png",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
    "svg": "image/svg+xml",
}

_JPEG_4X4_BASE64 = (
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwg"
    "IyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgo"
    "KCgoKCgoKCgoKCgoKCj/wAARCAAEAAQDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAcEAABBAMBAAAAAAAA"
    "AAAAAAAEAAECEQMSQXH/xAAVAQEBAAAAAAAAAAAAAAAAAAAGB//EABsRAQEBAAIDAAAAAAAAAAAAAAECAwARITFR/9oADAMB"
    "AAIRAxEAPwCIYVmNJmQTPfLOtpUzXTVzxERUjPOMoM8wJDoDwAegPnB9U2tU9rz/2Q=="
)
_WEBP_4X4_BASE64 = (
    "UklGRmQAAABXRUJQVlA4IFgAAADQAgCdASoEAAQAAUAmJbA6gA2ACbLYB+ACAAPJgCAAAP7tHsitgY6+dX/+J2hvCn7gzev/"
    "6jRZT4z5/+/OZ51Vhc/Qd/Qd/tV//KtApCyes+XKwrL+FgAA"
)


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def png_bytes(width: int = 8, height: int = 8) -> bytes:
    """An RGB PNG with a two-colour checkerboard (so a renderer visibly shows it)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter type "none" for this scanline
        for x in range(width):
            rows += b"\x2a\x6f\xdb" if (x // 2 + y // 2) % 2 == 0 else b"\xf2\xb7\x05"
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(bytes(rows)))
        + _png_chunk(b"IEND", b"")
    )


def png_with_padding(total_bytes: int) -> bytes:
    """A valid PNG of about ``total_bytes``: a small image plus a private ancillary chunk.

    Decoders skip unknown ancillary chunks (lowercase first letter), so the file stays a valid
    image however large it is; the padding is what makes it "enormous" for size-cap tests.
    """
    small = png_bytes()
    iend = _png_chunk(b"IEND", b"")
    padding = max(0, total_bytes - len(small) - 12)
    return small[: -len(iend)] + _png_chunk(b"anVa", b"\0" * padding) + iend


def gif_bytes() -> bytes:
    """A 1x1 GIF89a (one red pixel): header, two-colour palette, one LZW-coded image block."""
    header = b"GIF89a" + struct.pack("<HHBBB", 1, 1, 0x80, 0, 0)
    palette = b"\xff\x00\x00" + b"\x00\x00\x00"
    descriptor = b"," + struct.pack("<HHHHB", 0, 0, 1, 1, 0)
    image_data = b"\x02\x02\x44\x01\x00"  # LZW min code size 2, one 2-byte sub-block, terminator
    return header + palette + descriptor + image_data + b";"


def jpeg_bytes() -> bytes:
    return base64.b64decode(_JPEG_4X4_BASE64)


def webp_bytes() -> bytes:
    return base64.b64decode(_WEBP_4X4_BASE64)


def svg_bytes() -> bytes:
    """A harmless SVG (no script): a blue square with a yellow circle."""
    return (
        b'<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">'
        b'<rect width="16" height="16" fill="#2a6fdb"/><circle cx="8" cy="8" r="4" fill="#f2b705"/></svg>'
    )


def image_bytes(kind: str) -> bytes:
    """The bytes of the demo image of ``kind`` (a key of :data:`IMAGE_MIME_TYPES`)."""
    builders = {"png": png_bytes, "jpeg": jpeg_bytes, "gif": gif_bytes, "webp": webp_bytes, "svg": svg_bytes}
    return builders[kind]()


def wav_bytes(seconds: float = 0.25, rate_hz: int = 8000, tone_hz: float = 440.0) -> bytes:
    """A short mono 16-bit WAV with a sine tone, written by the standard ``wave`` module."""
    frames = bytearray()
    for i in range(int(seconds * rate_hz)):
        sample = int(12000 * math.sin(2 * math.pi * tone_hz * i / rate_hz))
        frames += struct.pack("<h", sample)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate_hz)
        out.writeframes(bytes(frames))
    return buffer.getvalue()
