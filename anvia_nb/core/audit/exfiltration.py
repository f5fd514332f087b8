"""``exfiltration-link``: links and images in a definition that would carry data out.

A Markdown image is fetched as soon as a model's answer is shown: when its URL takes a query, or
a template the model is asked to fill (``{conversation}``, ``{{data}}``, ``$SECRET``, ``<DATA>``),
whatever the model puts there leaves with the fetch, unasked. Severities:

- high: an image (Markdown or HTML ``<img>``) whose URL takes a query or a template; a link whose
  URL takes a template;
- low: an image from another site with neither (showing it tells that site you looked); a link
  whose URL takes a query (a person must click it).

A bare URL template in prose is not fetched by anything and is not a finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from anvia_nb.core.audit.definitions import Definition, Finding, Severity
from anvia_nb.core.audit.evidence import excerpt
from anvia_nb.core.audit.found import Hit, finding
from anvia_nb.core.audit.texts import Text, texts_of

__all__ = ["ADVICE", "CHECK", "check_exfiltration"]

CHECK = "exfiltration-link"
ADVICE = (
    "An image or link whose URL the model fills carries data out when it is shown or followed: "
    "do not let a model use this server until it is gone; accept with a reason if the URL is yours."
)

_MARKDOWN = re.compile(r"\]\(\s*<?(?P<url>[^\s)>]*)")
"""The ``](url`` of a Markdown link or image (its ``[text`` is looked for backwards, bounded)."""
_IMG = re.compile(r"<img\b[^<>]{0,300}?\bsrc\s*=\s*[\"']?(?P<url>[^\"'\s<>]*)", re.IGNORECASE)
_TEMPLATE = re.compile(
    r"\{\{?[^{}\s]{1,64}\}\}?|\$\{?[A-Z_][A-Z0-9_]{1,63}|<[A-Za-z_][\w\s-]{0,40}>|%7B|\b(?:INSERT|DATA|SECRET|BASE64)\b"
)
_REMOTE = re.compile(r"^(?:https?:)?//", re.IGNORECASE)


def _links(value: str) -> Iterable[tuple[int, int, str, bool]]:
    """``(start, end, url, is_image)`` of each Markdown link or image and HTML image in ``value``."""
    for match in _MARKDOWN.finditer(value):
        opening = value.rfind("[", max(0, match.start() - 500), match.start())
        if opening >= 0 and "\n" not in value[opening : match.start()]:
            image = value[opening - 1 : opening] == "!"
            yield opening - image, match.end(), match.group("url"), image
    if "<img" in value.lower():
        for match in _IMG.finditer(value):
            yield match.start(), match.end(), match.group("url"), True


def _hits(text: Text) -> Iterable[Hit]:
    for start, end, url, image in _links(text.value):
        query = "?" in url and "=" in url.partition("?")[2]
        template = _TEMPLATE.search(url) is not None
        severity: Severity
        if template or (image and query):
            severity = "high"
        elif (image and _REMOTE.match(url)) or query:
            severity = "low"
        else:
            continue
        what = ("an image" if image else "a link") + (" filled by a template" if template else "")
        what += " whose URL takes a query" if query else ""
        yield Hit(severity, text.field, f"{what}: {excerpt(text.value, start, end)}")


def check_exfiltration(definition: Definition, texts: Sequence[Text] | None = None) -> list[Finding]:
    """``exfiltration-link`` on one item: one finding with each link and image found, or none."""
    read = texts_of(definition) if texts is None else texts
    hits = [hit for text in read if "](" in text.value or "<" in text.value for hit in _hits(text)]
    return [finding(definition, CHECK, hits, ADVICE)] if hits else []
