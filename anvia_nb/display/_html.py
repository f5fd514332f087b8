"""Where anvia_nb assembles HTML, and it escapes by default.

Jupyter front ends trust live outputs: an ``<img onerror>`` or a ``<script>`` in ``text/html`` runs.
So markup is never concatenated by hand, except a ``<div>`` around escaped text
(``widgets/fields/leaf.py``) and a ``<style>`` block (``widgets/explorer/layout.py``): docs/architecture.md
lists them and a test finds every HTML tag written outside display. It is built here from:

- tag names the code chooses, from a short allow-list (no script, iframe, object, embed, svg, a);
- children that are escaped unless they are themselves built :class:`Html` values;
- a closed set of attributes passed as keyword arguments (there is no way to pass ``on*`` or
  ``href``); ``style`` is a key into :data:`STYLES`, our own constants; ``class`` must be ours
  (``anvia-...``, or the not-math classes of :data:`~anvia_nb.policy.NOT_MATH_CLASSES` that every
  output's outer element carries, so MathJax never typesets server text); ``src`` only takes the
  data URL of an image whose bytes were validated.

Misuse is a programming error and raises ``ValueError``: it is never a server's doing.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Iterable

from anvia_nb.errors import UnsafeMarkupError

__all__ = ["STYLES", "Html", "Template", "element", "is_link_url", "join", "link", "template", "text"]

ALLOWED_TAGS = frozenset({"div", "span", "pre", "code", "b", "small", "details", "summary", "img", "ul", "li", "br"})
VOID_TAGS = frozenset({"img", "br"})

IMAGE_DATA_URL = re.compile(r"data:image/(?:png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]*={0,2}\Z")
_CLASS = r"(?:anvia-[a-z0-9-]+|tex2jax_ignore|mathjax_ignore)"
_OUR_CLASSES = re.compile(rf"{_CLASS}(?: {_CLASS})*\Z")

_FAMILY = "font-family:system-ui,-apple-system,sans-serif"
_FONT = f"{_FAMILY};font-size:12px"
_HEADER = (
    f"display:flex;flex-wrap:wrap;gap:.6em;align-items:center;{_FONT};padding:3px 8px;"
    "margin:2px 0 4px 0;border-radius:4px;"
)

STYLES: dict[str, str] = {
    "header": _HEADER + "background:#eef3f9;border-left:4px solid #2f6db5;color:#1d2733",
    "header-error": _HEADER + "background:#fdecea;border-left:4px solid #c62828;color:#3b0d0c",
    "header-warn": _HEADER + "background:#fff6e0;border-left:4px solid #c77700;color:#3b2a00",
    "badge": "font-weight:700;color:#fff;background:#2f6db5;border-radius:3px;padding:0 5px",
    "status-ok": "font-weight:700;color:#1b6e20",
    "status-warn": "font-weight:700;color:#8a5300",
    "status-error": "font-weight:700;color:#b3261e",
    "muted": "color:#5f6b77",
    "server-box": "border:1px dashed #8a94a0;border-radius:3px;margin:4px 0;padding:0",
    "error-box": "border:1px solid #c62828;border-radius:3px;margin:4px 0;padding:0;background:#fff8f7",
    "label": f"{_FAMILY};font-size:11px;color:#5f6b77;background:#f3f5f7;padding:1px 6px",
    "error-label": f"{_FAMILY};font-size:11px;color:#b3261e;background:#fdecea;padding:1px 6px",
    "pre": (
        "margin:0;padding:4px 6px;white-space:pre-wrap;word-break:break-word;"
        "max-height:40em;overflow:auto;background:transparent"
    ),
    "control": "color:#b00020;background:#ffe3e3;border-radius:2px;padding:0 1px",
    "note": f"{_FONT};color:#5f6b77;font-style:italic;padding:2px 6px",
    "image": "max-width:100%;max-height:40em;display:block;margin:4px 6px",
    "summary": f"{_FONT};cursor:pointer;padding:1px 6px",
    "list": "margin:2px 0;padding-left:1.6em",
}


class Html:
    """Markup known to be safe: only this module's functions create it."""

    __slots__ = ("markup",)

    def __init__(self, markup: str, _token: object = None) -> None:
        if _token is not _BUILDER:
            raise UnsafeMarkupError("Html is built with anvia_nb.display._html.text/element/join, not by hand")
        self.markup = markup

    def __str__(self) -> str:
        return self.markup

    def __repr__(self) -> str:
        return f"Html({self.markup[:60]!r}{'…' if len(self.markup) > 60 else ''})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Html) and other.markup == self.markup

    def __hash__(self) -> int:
        return hash(self.markup)


_BUILDER = object()

Child = Html | str


def _made(markup: str) -> Html:
    """Html made here, without the token check of a call from outside (the same value)."""
    made = object.__new__(Html)
    made.markup = markup
    return made


def text(value: str) -> Html:
    """Escape text so a browser shows it as characters, never as markup.

    Quotes need no escaping in element content (attribute values are escaped with quotes), and
    leaving them keeps a result full of quotes from growing sixfold.
    """
    return _made(html.escape(value, quote=False))


def join(children: Iterable[Child]) -> Html:
    """Concatenate children; plain strings are escaped."""
    return _made("".join([c.markup if c.__class__ is Html else _markup(c) for c in children]))


def _markup(child: Child) -> str:
    if isinstance(child, Html):
        return child.markup
    if isinstance(child, str):
        return html.escape(child, quote=False)
    raise UnsafeMarkupError(f"an HTML child must be Html or str, not {type(child).__name__}")


def element(
    tag: str,
    *children: Child,
    cls: str | None = None,
    style: str | None = None,
    title: str | None = None,
    alt: str | None = None,
    src: str | None = None,
    is_open: bool = False,
) -> Html:
    """One element. Attributes are a closed set; values are escaped; there is no ``on*`` and no ``href``."""
    if title is None and alt is None and src is None and not is_open:
        start, end = _tags(tag, cls, style)  # the usual element: its checked tags, made once
    else:
        start, end = _checked_start_tag(tag, cls, style, title, alt, src, is_open), _end_tag(tag)
    if end is None:
        if children:
            raise UnsafeMarkupError(f"<{tag}> takes no children")
        return _made(start)
    inner = "".join([c.markup if c.__class__ is Html else _markup(c) for c in children])
    return _made(start + inner + end)


def _end_tag(tag: str) -> str | None:
    return None if tag in VOID_TAGS else f"</{tag}>"


@functools.lru_cache(maxsize=256)
def _tags(tag: str, cls: str | None, style: str | None) -> tuple[str, str | None]:
    """The start and end tags of an element with only our class and style (``None``: a void
    element has no end tag): the same few every time."""
    return _checked_start_tag(tag, cls, style, None, None, None, False), _end_tag(tag)


def _checked_start_tag(
    tag: str,
    cls: str | None,
    style: str | None,
    title: str | None,
    alt: str | None,
    src: str | None,
    is_open: bool,
) -> str:
    if tag not in ALLOWED_TAGS:
        raise UnsafeMarkupError(f"tag {tag!r} is not allowed in anvia_nb output")
    attrs: list[tuple[str, str | None]] = []
    if cls is not None:
        if not _OUR_CLASSES.match(cls):
            raise UnsafeMarkupError(f"class {cls!r} is not an anvia- class")
        attrs.append(("class", cls))
    if style is not None:
        if style not in STYLES:
            raise UnsafeMarkupError(f"style {style!r} is not one of anvia_nb's style constants")
        attrs.append(("style", STYLES[style]))
    if title is not None:
        attrs.append(("title", title))
    if alt is not None:
        attrs.append(("alt", alt))
    if src is not None:
        if tag != "img" or not IMAGE_DATA_URL.match(src):
            raise UnsafeMarkupError("src only takes the data: URL of a validated image, on <img>")
        attrs.append(("src", src))
    if is_open:
        attrs.append(("open", None))
    rendered = "".join(
        f" {name}" if value is None else f' {name}="{html.escape(value, quote=True)}"' for name, value in attrs
    )
    return f"<{tag}{rendered}>"


_SLOT = "\x00slot\x00"  # no text reaches markup with a raw NUL: the policy shows it as ⟨NUL⟩


class Template:
    """Markup of anvia_nb's own with slots: made once by :func:`template` from :func:`element`
    calls, so it is checked as any element is; each slot takes a child, escaped unless it is
    :class:`Html`. Filling one is a single join, for chrome shown with every result (issue 41)."""

    __slots__ = ("_parts",)

    def __init__(self, parts: tuple[str, ...], _token: object = None) -> None:
        if _token is not _BUILDER:
            raise UnsafeMarkupError("a Template is made with anvia_nb.display._html.template, not by hand")
        self._parts = parts

    def fill(self, *children: Child) -> Html:
        """The markup with each slot holding one child, in order: what ``build`` makes of them."""
        parts = self._parts
        if len(children) != len(parts) - 1:
            raise UnsafeMarkupError(f"this template takes {len(parts) - 1} children, not {len(children)}")
        if len(children) == 1:  # the usual one: a result's text, a header's seconds
            child = children[0]
            if child.__class__ is str:  # text: escaped here, without _markup's checks (issue 41)
                return _made(parts[0] + html.escape(child, quote=False) + parts[1])
            return _made(parts[0] + (child.markup if child.__class__ is Html else _markup(child)) + parts[1])
        out = [parts[0]]
        for child, part in zip(children, parts[1:], strict=True):
            out.append(child.markup if child.__class__ is Html else _markup(child))
            out.append(part)
        return _made("".join(out))


def template(build: Callable[..., Html], slots: int) -> Template:
    """What ``build(*children)`` makes, as a :class:`Template` whose ``fill(*children)`` gives the
    same markup: ``build`` is called once, with a marker in each of its ``slots`` places."""
    parts = tuple(build(*[_made(_SLOT)] * slots).markup.split(_SLOT))
    if len(parts) != slots + 1:
        raise UnsafeMarkupError(f"a template of {slots} slots placed {len(parts) - 1}")
    return Template(parts, _BUILDER)


_LINK_URL = re.compile(r"https?://[^\s\x00-\x1f\x7f-\x9f]+\Z", re.IGNORECASE)


def is_link_url(url: str) -> bool:
    """Whether :func:`link` takes ``url``: http or https, with no white space or control character."""
    return bool(_LINK_URL.match(url))


def link(url: str, label: Child) -> Html:
    """The one ``<a>``: a link a person may follow, never followed by itself (no script, no
    redirect). Only http(s) URLs; opened in a new tab that gets no ``window.opener`` and no
    referrer; the URL is escaped. Callers mask the URL first (see ``ShowPolicy``)."""
    if not is_link_url(url):
        raise UnsafeMarkupError("a link takes an http or https URL without spaces or control characters")
    href = html.escape(url, quote=True)
    return Html(f'<a href="{href}" rel="noopener noreferrer" target="_blank">{_markup(label)}</a>', _BUILDER)
