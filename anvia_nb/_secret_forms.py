"""Every form a secret can take in output: as is, as Python's repr and :func:`ascii` write it inside a
string, each of those HTML-escaped, and JSON-escaped and URL-encoded, so a mask catches the secret
however a surface wrote it. Which values are secrets, and the mask itself, are the policy's
(:func:`anvia_nb.policy.secret_variants`, :class:`anvia_nb.policy.ShowPolicy`). Stdlib only."""

from __future__ import annotations

import html
import json
from urllib.parse import quote

__all__ = ["secret_forms"]


def _repr_forms(secret: str) -> tuple[str, ...]:
    """A secret as Python's repr writes it inside a string (a dict of headers, a connection's
    repr): backslashes doubled, controls escaped, and ``'`` escaped or not, as the quotes the
    whole string holds decide; and as :func:`ascii` writes it."""
    both = repr(secret + "'\"")[1:-4]  # a string holding both quotes: ' is escaped
    return (secret, repr(secret)[1:-1], both, both.replace("\\'", "'"), ascii(secret)[1:-1])


def secret_forms(secret: str) -> set[str]:
    """``secret`` as it may appear in output: as is, as Python's repr writes it (quotes and
    backslashes escaped), each of those HTML-escaped, and JSON-escaped, URL-encoded."""
    forms: set[str] = set()
    for form in _repr_forms(secret):
        forms.update((form, html.escape(form, quote=True), html.escape(form, quote=False)))
    forms.update(
        (
            json.dumps(secret)[1:-1],
            json.dumps(secret, ensure_ascii=False)[1:-1],
            quote(secret, safe=""),
        )
    )
    return forms
