"""The sandbox of an MCP App's view, as pure functions: its CSP, its ``allow`` list, its bounds.

The policy starts from the extension's strict default and a server's declarations can only add
plain origins; the policy is the first thing of the document; the HTML and the frame's height are
bounded. (tests/browser/test_app_frame_browser.py shows the same rules hold in Chromium.)
"""

from __future__ import annotations

import math
from html.parser import HTMLParser

import pytest

from anvia_nb.core.protocol.apps import AppCsp, app_csp, app_permissions
from anvia_nb.demo_server.hostile_app import HOSTILE_APP_RESOURCES
from anvia_nb.display.app_html import (
    APP_HTML_MAX_CHARS,
    DOMAINS_KEPT,
    MAX_HEIGHT_PX,
    MIN_HEIGHT_PX,
    clamp_height,
    content_security_policy,
    iframe_allow,
    live_kernel_note,
    sandbox_origins,
    sandboxed_html,
)
from anvia_nb.errors import InvalidValueError

STRICT = (
    "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob: data:; style-src 'unsafe-inline'; "
    "img-src data: blob:; font-src data:; media-src data: blob:; connect-src 'none'; frame-src 'none'; "
    "base-uri 'none'; worker-src blob:; object-src 'none'; form-action 'none'"
)


def test_with_nothing_declared_the_policy_is_the_strict_default_no_network_at_all() -> None:
    assert content_security_policy(AppCsp()) == STRICT


def test_declared_origins_are_added_to_their_directives_only() -> None:
    csp = AppCsp(
        connect_domains=("https://api.example.com", "wss://live.example.com/"),
        resource_domains=("https://*.cdn.example.com",),
        frame_domains=("https://www.youtube.com",),
        base_uri_domains=("https://cdn.example.com:8443",),
    )
    directives = dict(d.split(" ", 1) for d in content_security_policy(csp).split("; "))
    assert directives["connect-src"] == "https://api.example.com wss://live.example.com"
    for name in ("script-src", "style-src", "img-src", "font-src", "media-src", "worker-src"):
        assert directives[name].endswith(" https://*.cdn.example.com")
    assert directives["frame-src"] == "https://www.youtube.com"
    assert directives["base-uri"] == "https://cdn.example.com:8443"
    assert directives["default-src"] == "'none'" and directives["object-src"] == "'none'"


@pytest.mark.parametrize(
    "declared",
    [
        "*",
        "'self'",
        "'unsafe-eval'",
        "'unsafe-inline'",
        "http:",
        "https:",
        "data:",
        "blob:",
        "https://example.com; script-src *",
        "https://example.com 'unsafe-eval'",
        'https://example.com" onload="x',
        "127.0.0.1:*",
        "https://*",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://example.com/path/",
        "",
    ],
)
def test_a_declaration_that_is_not_a_plain_origin_is_dropped_and_never_loosens_the_policy(declared: str) -> None:
    csp = AppCsp(
        connect_domains=(declared,),
        resource_domains=(declared,),
        frame_domains=(declared,),
        base_uri_domains=(declared,),
    )
    assert sandbox_origins([declared]) == ()
    assert content_security_policy(csp) == STRICT


def test_at_most_so_many_origins_are_kept_each_once() -> None:
    many = [f"https://host{i}.example.com" for i in range(DOMAINS_KEPT + 10)]
    assert sandbox_origins(many) == tuple(many[:DOMAINS_KEPT])
    assert sandbox_origins(["https://a.example", "https://a.example/", "https://a.example"]) == ("https://a.example",)


def test_the_hostile_views_declarations_all_drop_out() -> None:
    _listed, content = HOSTILE_APP_RESOURCES[0]
    ui = content["_meta"]["ui"]
    assert content_security_policy(app_csp(ui)) == STRICT
    assert iframe_allow(app_permissions(ui)) == "camera"  # "usb" and "display-capture" are no permissions here


def test_permissions_map_to_the_allow_list_and_nothing_more() -> None:
    assert iframe_allow(frozenset()) == ""
    assert iframe_allow({"clipboardWrite", "camera"}) == "camera; clipboard-write"
    assert iframe_allow(["microphone", "geolocation", "usb", "fullscreen", "*"]) == "microphone; geolocation"


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.starts: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.starts.append((tag, dict(attrs)))


def _first_element(html: str) -> tuple[str, dict[str, str | None]]:
    parser = _Elements()
    parser.feed(html)
    return parser.starts[0]


@pytest.mark.parametrize(
    ("html", "kept"),
    [
        ("<!DOCTYPE html><html><head><title>t</title></head><body>x</body></html>",
         "<html><head><title>t</title></head><body>x</body></html>"),
        ("\ufeff  <!doctype HTML>\n<html lang='en'><body><script>1</script></body></html>",
         "\n<html lang='en'><body><script>1</script></body></html>"),
        ("<script>window.before = 1</script><html><head></head></html>",
         "<script>window.before = 1</script><html><head></head></html>"),
        ("<meta http-equiv='Content-Security-Policy' content=\"default-src *\"><p>x</p>",
         "<meta http-equiv='Content-Security-Policy' content=\"default-src *\"><p>x</p>"),
        ("just text", "just text"),
    ],
)  # fmt: skip
def test_the_policy_comes_first_before_anything_the_server_wrote(html: str, kept: str) -> None:
    out = sandboxed_html("ui://x/view", html, AppCsp(connect_domains=("https://api.example.com",)))
    assert out.startswith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src \'none\';')
    tag, attributes = _first_element(out)
    assert tag == "meta" and attributes["http-equiv"] == "Content-Security-Policy"
    assert attributes["content"] == content_security_policy(AppCsp(connect_domains=("https://api.example.com",)))
    assert out.lower().count("<!doctype") == 1
    assert out.endswith("'none'\">" + kept)  # the server's HTML follows the meta, its own doctype dropped


def test_the_html_is_bounded_and_the_error_names_the_view_in_visible_characters() -> None:
    sandboxed_html("ui://x/view", "a" * APP_HTML_MAX_CHARS, AppCsp())
    with pytest.raises(InvalidValueError, match=r"is 5,000,001 characters; views are shown up to 5,000,000"):
        sandboxed_html("ui://x/view", "a" * (APP_HTML_MAX_CHARS + 1), AppCsp())
    with pytest.raises(InvalidValueError) as raised:
        sandboxed_html("ui://x/\u202egpj.exe", "a" * (APP_HTML_MAX_CHARS + 1), AppCsp())
    assert "\u202e" not in str(raised.value)


@pytest.mark.parametrize(
    ("asked", "height"),
    [
        (100_000, MAX_HEIGHT_PX),
        (MAX_HEIGHT_PX + 1, MAX_HEIGHT_PX),
        (640.4, 640),
        (MIN_HEIGHT_PX, MIN_HEIGHT_PX),
        (0, MIN_HEIGHT_PX),
        (-5, MIN_HEIGHT_PX),
        (math.inf, MAX_HEIGHT_PX),
        (-math.inf, MIN_HEIGHT_PX),
        (math.nan, 300),
        ("900", 300),
        (None, 300),
        (True, 300),
    ],
)
def test_the_frame_height_stays_within_its_bounds(asked: object, height: int) -> None:
    assert clamp_height(asked, current=300) == height


def test_a_static_copy_says_the_view_needs_a_live_kernel_with_the_uri_made_visible() -> None:
    line, markup = live_kernel_note("ui://x/<b>\u202e</b>")
    assert line.startswith("This tool has an interactive view (ui://x/<b>")
    assert line.endswith("); it needs a live kernel to show.")
    assert "\u202e" not in line
    assert "<b>" not in str(markup) and "&lt;b&gt;" in str(markup)
