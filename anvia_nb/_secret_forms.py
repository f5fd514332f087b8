"""Every form a secret can take in output: as is, as Python's repr and :func:`ascii` write it inside a
string, each of those HTML-escaped, and JSON-escaped, URL-encoded and form-encoded; and base64 of
any text holding one of those (``Basic <base64 of id:secret>``, whatever the ID), so a mask catches
the secret however a surface wrote it. Which values are secrets, and the mask itself, are the
policy's (:func:`anvia_nb.policy.secret_variants`, :class:`anvia_nb.policy.ShowPolicy`). Stdlib only."""

from __future__ import annotations

import base64
import html
import json
from urllib.parse import quote, quote_plus

__all__ = ["secret_forms"]


def _repr_forms(secret: str) -> tuple[str, ...]:
    """A secret as Python's repr writes it inside a string (a dict of headers, a connection's
    repr): backslashes doubled, controls escaped, and ``'`` escaped or not, as the quotes the
    whole string holds decide; and as :func:`ascii` writes it."""
    both = repr(secret + "'\"")[1:-4]  # a string holding both quotes: ' is escaped
    return (secret, repr(secret)[1:-1], both, both.replace("\\'", "'"), ascii(secret)[1:-1])


def _base64_forms(text: str) -> set[str]:
    """What base64 (standard and URL-safe) writes for ``text`` wherever it sits in the encoded
    bytes: for each of the three alignments, the characters that only ``text``'s bits decide
    (those shared with the bytes before or after it differ with them). ``Basic`` credentials
    (``base64(id:secret)``, the ID and the secret percent-encoded or not) hold one of these."""
    raw = text.encode()
    forms: set[str] = set()
    for before in range(3):
        encoded = base64.b64encode(b"\0" * before + raw).decode()
        middle = encoded[-(-8 * before // 6) : 8 * (before + len(raw)) // 6]
        if middle:
            forms.update((middle, middle.replace("+", "-").replace("/", "_")))
    return forms


def secret_forms(secret: str) -> set[str]:
    """``secret`` as it may appear in output: as is, as Python's repr writes it (quotes and
    backslashes escaped), each of those HTML-escaped, and JSON-escaped, URL-encoded, form-encoded,
    and base64 of text holding it (see :func:`_base64_forms`)."""
    forms: set[str] = set()
    for form in _repr_forms(secret):
        forms.update((form, html.escape(form, quote=True), html.escape(form, quote=False)))
    encoded = (quote(secret, safe=""), quote_plus(secret, safe=""))
    forms.update((json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1], *encoded))
    for text in {secret, *encoded}:
        forms |= _base64_forms(text)
    return forms
