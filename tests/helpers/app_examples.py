"""The official MCP Apps example servers (``@modelcontextprotocol/server-*`` 2.0.x on npm, the
ext-apps 2.0.4 family), as tests/browser/test_app_examples_all_browser.py opens them.

scripts/setup-test installs each package at ``version`` into ``.cache/npm-apps``; docs/apps.md's
table "The official examples" says what each does here, in the same order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

__all__ = ["EXAMPLES", "PDF_WORDS", "Example", "one_page_pdf"]

PDF_WORDS = "Anvia sandbox proxy"
"""What the PDF the pdf example is shown says."""


@dataclass(frozen=True)
class Example:
    """One example server and what a person does with its view.

    Attributes
    ----------
    key : str
        The server's name in the notebook (``%mcp connect KEY``).
    package : str
        The npm package, without its ``@modelcontextprotocol/`` scope.
    version : str
        The pinned version scripts/setup-test installs.
    command : str
        The package's executable in ``node_modules/.bin``.
    tool : str
        The tool whose view is opened (``%mcp app KEY.TOOL``).
    shows : str
        A regular expression the view's text matches once it rendered (empty: it draws on a canvas
        or in SVG only, see ``drawn``).
    drawn : str
        A CSS selector of what the view draws (canvas, svg), or empty.
    act : str
        The first interaction that makes the view call a tool: ``button:NAME`` (click the button so
        named), ``click:SELECTOR`` (click what the Playwright selector finds), ``select:LABEL``
        (choose the option so labelled in the first select), ``load`` (the view calls as it opens)
        or empty (the view calls no tool of its own).
    calls : str
        The tool the view calls (then in ``%mcp history`` with ``requested_by`` ``app ui://...``).
    arguments : str
        The tool's arguments as JSON, as a model would give them (a view draws what they say, not
        the schema's defaults); empty for none.
    offline : str
        Empty, or why it cannot do its work without the internet (what the view shows instead
        matches ``shows``).
    """

    key: str
    package: str
    version: str
    command: str
    tool: str
    shows: str
    drawn: str = ""
    act: str = ""
    calls: str = ""
    arguments: str = ""
    offline: str = ""


_SHADER = json.dumps(
    {"fragmentShader": "void mainImage(out vec4 c, in vec2 p) { c = vec4(p / iResolution.xy, 0.5, 1.0); }"}
)
_TUNE = json.dumps({"abcNotation": "X:1\nT:Anvia\nM:4/4\nL:1/4\nK:C\nC D E F | G A B c |"})
_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"


def _basic(framework: str, version: str = "2.0.3") -> Example:
    return Example(
        framework,
        f"server-basic-{framework}",
        version,
        f"mcp-server-basic-{framework}",
        "get-time",
        _TIME,
        act="button:Get Server Time",
        calls="get-time",
    )


EXAMPLES: tuple[Example, ...] = (
    *(_basic(name) for name in ("preact", "react", "solid", "svelte", "vanillajs", "vue")),
    Example(
        "budget", "server-budget-allocator", "2.0.3", "mcp-budget-allocator-server", "get-budget-data", r"Allocated: \$"
    ),
    Example(
        "cohort",
        "server-cohort-heatmap",
        "2.0.3",
        "mcp-cohort-heatmap-server",
        "get-cohort-data",
        "Cohort Retention Analysis",
        act="select:Revenue Retention",
        calls="get-cohort-data",
    ),
    Example(
        "segments",
        "server-customer-segmentation",
        "2.0.3",
        "mcp-customer-segmentation-server",
        "get-customer-data",
        "Customer Segmentation",
        drawn="canvas",
        act="load",
        calls="get-customer-data",
    ),
    Example(
        "debug",
        "server-debug",
        "2.0.3",
        "mcp-server-debug",
        "debug-tool",
        "Event Log",
        act="click:#call-debug-refresh-btn",
        calls="debug-refresh",
    ),
    Example(
        "map",
        "server-map",
        "2.0.3",
        "mcp-map-server",
        "show-map",
        "Failed to load CesiumJS",
        offline="loads CesiumJS and its map tiles from cesium.com and openstreetmap.org (declared domains)",
    ),
    Example(
        "pdf",
        "server-pdf",
        "2.0.4",
        "mcp-pdf-server",
        "display_pdf",
        "of 1",
        drawn="#pdf-canvas",
        act="load",
        calls="read_pdf_bytes",
    ),
    Example(
        "scenario",
        "server-scenario-modeler",
        "2.0.3",
        "mcp-scenario-modeler-server",
        "get-scenario-data",
        "SaaS Scenario Modeler",
    ),
    Example(
        "shadertoy",
        "server-shadertoy",
        "2.0.3",
        "mcp-shadertoy-server",
        "render-shadertoy",
        "",
        drawn="canvas",
        arguments=_SHADER,
    ),
    Example(
        "music",
        "server-sheet-music",
        "2.0.3",
        "mcp-sheet-music-server",
        "play-sheet-music",
        "",
        drawn="svg",
        arguments=_TUNE,
        offline="plays its notes with a sound font from paulrosen.github.io (declared domain)",
    ),
    Example(
        "monitor",
        "server-system-monitor",
        "2.0.3",
        "mcp-system-monitor-server",
        "get-system-info",
        "System Monitor",
        act="load",
        calls="poll-system-stats",
    ),
    Example("threejs", "server-threejs", "2.0.3", "mcp-threejs-server", "show_threejs_scene", "", drawn="canvas"),
    Example(
        "transcript",
        "server-transcript",
        "2.0.3",
        "mcp-transcript-server",
        "transcribe",
        "Your speech will appear here",
    ),
    Example(
        "video",
        "server-video-resource",
        "2.0.3",
        "mcp-video-resource-server",
        "play_video",
        "fetch failed",
        offline="its server fetches the video from the internet before it answers the read",
    ),
    Example(
        "wiki",
        "server-wiki-explorer",
        "2.0.3",
        "mcp-wiki-explorer-server",
        "get-first-degree-links",
        r"[+−]",
        offline="its server fetches Wikipedia pages from the internet",
    ),
)
"""Every official example, in docs/apps.md's order."""


def one_page_pdf(path: Path, words: str) -> Path:
    """A minimal PDF of one page that says ``words`` (Helvetica), its cross-reference table exact."""
    stream = f"BT /F1 24 Tf 72 720 Td ({words}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, table)
    path.write_bytes(bytes(out))
    return path
