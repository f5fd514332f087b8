"""Helpers for the display tests: outcomes built by hand in wire shape, and an HTML auditor that
parses what was produced (stdlib ``html.parser``) instead of trusting substring checks."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from html.parser import HTMLParser
from typing import Any

from anvia_nb.core.protocol.types import CallOutcome
from anvia_nb.errors import AnviaError
from anvia_nb.policy import NOT_MATH_CLASSES

ALLOWED_TAGS = {"div", "span", "pre", "code", "b", "small", "details", "summary", "img", "ul", "li", "br"}
FORBIDDEN_TAGS = {"script", "iframe", "object", "embed", "svg", "a", "style", "link", "meta", "base", "form"}
VALID_SRC = re.compile(r"data:image/(?:png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]*={0,2}\Z")

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 20
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 20
GIF = b"GIF89a" + b"\x00" * 20
WEBP = b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 20
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def outcome(
    raw: dict[str, Any] | None,
    *,
    error: AnviaError | None = None,
    problems: list[str] | None = None,
    secrets: tuple[str, ...] = (),
    output: Any = None,
    server: str = "demo",
    tool: str = "echo",
    seconds: float = 0.25,
) -> CallOutcome:
    return CallOutcome(
        server=server,
        tool=tool,
        arguments={"message": "hi"},
        raw=raw,
        output=output,
        error=error,
        schema_problems=problems,
        seconds=seconds,
        started_at=datetime(2026, 1, 1, tzinfo=timezone.utc),
        secrets=secrets,
    )


def text_result(*texts: str, **extra: Any) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": t} for t in texts], "isError": False, **extra}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None]
    classes: tuple[str, ...]


@dataclass
class Audit:
    """What a browser would build from the markup: elements, attributes, and text per class."""

    elements: list[Node] = field(default_factory=list)
    text: str = ""
    text_by_class: dict[str, str] = field(default_factory=dict)

    def tags(self) -> set[str]:
        return {e.tag for e in self.elements}

    def with_class(self, cls: str) -> list[Node]:
        return [e for e in self.elements if cls in (e.attrs.get("class") or "").split()]


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.audit = Audit()
        self.stack: list[tuple[str, tuple[str, ...]]] = []
        self.chunks: list[str] = []
        self.by_class: dict[str, list[str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = tuple((dict(attrs).get("class") or "").split())
        self.audit.elements.append(Node(tag, dict(attrs), classes))
        if tag not in ("img", "br"):
            self.stack.append((tag, classes))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.audit.elements.append(Node(tag, dict(attrs), tuple((dict(attrs).get("class") or "").split())))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)
        for cls in {c for _, classes in self.stack for c in classes}:
            self.by_class.setdefault(cls, []).append(data)


def audit_html(markup: str) -> Audit:
    parser = _Parser()
    parser.feed(markup)
    parser.close()
    parser.audit.text = "".join(parser.chunks)
    parser.audit.text_by_class = {k: "".join(v) for k, v in parser.by_class.items()}
    return parser.audit


def assert_safe_html(markup: str) -> Audit:
    """Parse ``markup`` and fail on anything a browser could run or fetch."""
    audit = audit_html(markup)
    assert not audit.tags() & FORBIDDEN_TAGS, audit.tags() & FORBIDDEN_TAGS
    assert audit.tags() <= ALLOWED_TAGS, audit.tags() - ALLOWED_TAGS
    for node in audit.elements:
        for name, value in node.attrs.items():
            assert not name.lower().startswith("on"), (node.tag, name, value)
            assert name in {"class", "style", "title", "alt", "src", "open"}, (node.tag, name)
            assert "javascript:" not in (value or "").lower().replace(" ", ""), (node.tag, name)
        assert "href" not in node.attrs
        if "src" in node.attrs:
            assert node.tag == "img"
            assert VALID_SRC.match(node.attrs["src"] or ""), (node.attrs["src"] or "")[:80]
        for cls in (node.attrs.get("class") or "").split():
            assert cls.startswith("anvia-") or cls in NOT_MATH_CLASSES.split(), cls
    return audit


# The hostile corpus: what a server may send to run script or fake the chrome; tests/display and
# the nbconvert export check each renders inert.
PWN = "__anvia_pwned"

HOSTILE_TEXTS = [
    f"<script>alert('{PWN}')</script>",
    f'<img src=x onerror="{PWN}()">',
    f'<a href="javascript:{PWN}()">click me</a>',
    f'<iframe src="data:text/html,<script>{PWN}()</script>"></iframe>',
    f"<object data='javascript:{PWN}()'></object><embed src='javascript:{PWN}()'>",
    f"<svg onload={PWN}()><script>{PWN}()</script></svg>",
    f'"><script>{PWN}()</script><pre x="',
    f"</pre></div></div><script>{PWN}()</script>",
    f"<style>body{{display:none}}</style><link rel=stylesheet href='https://evil.example/{PWN}.css'>",
    f"<!-- --><script>{PWN}()</script><![CDATA[ <script>{PWN}</script> ]]>",
    f"[click](javascript:{PWN}()) ![beacon](https://evil.example/{PWN}.png) **bold** <b>bold</b>",
    f"&lt;script&gt;{PWN}&lt;/script&gt; &amp;amp;",
    f"<details open ontoggle={PWN}()><summary>x</summary></details>",
    f"<base href='https://evil.example/'><meta http-equiv=refresh content='0;url=javascript:{PWN}()'>",
]

HOSTILE_ITEMS: list[dict[str, Any]] = [
    {"type": "image", "mimeType": "image/png", "data": b64(f"<html><script>{PWN}()</script>".encode())},
    {"type": "image", "mimeType": "text/html", "data": b64(f"<script>{PWN}()</script>".encode())},
    {"type": "image", "mimeType": f'image/png" onerror="{PWN}()', "data": b64(PNG)},
    {
        "type": "image",
        "mimeType": "image/svg+xml",
        "data": b64(f"<svg onload='{PWN}()'><script>{PWN}()</script></svg>".encode()),
    },
    {"type": "image", "mimeType": "image/svg+xml", "data": f"<svg onload={PWN}()>"},
    {"type": "image", "mimeType": "image/png", "data": f"javascript:{PWN}()"},
    {"type": "image", "mimeType": "image/png", "data": b64(PNG) + f'" onerror="{PWN}()'},
    {"type": "image", "mimeType": "image/png", "data": "A" * 8_000_000},
    {"type": "image", "mimeType": "image/png", "data": f"https://evil.example/{PWN}.png"},
    {
        "type": "resource",
        "resource": {"uri": f"javascript:{PWN}()", "mimeType": "text/html", "text": f"<script>{PWN}()</script>"},
    },
    {
        "type": "resource",
        "resource": {"uri": "x", "mimeType": "image/png", "blob": b64(f"<svg onload={PWN}()>".encode())},
    },
    {
        "type": "resource_link",
        "uri": f"javascript:{PWN}()",
        "name": f"<img src=x onerror={PWN}()>",
        "mimeType": "text/html",
        "icons": [{"src": f"https://evil.example/{PWN}.png"}],
    },
    {"type": "audio", "mimeType": f"audio/wav<script>{PWN}()</script>", "data": "UklGRg=="},
    {"type": f"<script>{PWN}()</script>", "text": f"<img src=x onerror={PWN}()>"},
]
