"""Hostile MCP results shown in a real JupyterLab stay inert: escaped, attributed, never fetched.

Why: JupyterLab trusts the outputs a person ran, so a `<script>` or `<img onerror>` in `text/html`
runs (tests/browser/test_lab_harness.py proves the detector sees it). Here a notebook connects to
the bundled demo server and to an independent hostile server (tests/helpers/hostile_server.py),
shows every hostile payload of both with `ResultView`, and the browser must show them as text:
no script ran, no dialog opened, no request left the lab's origin, valid images still show, and
every result carries anvia_nb's own provenance header. The same cells, as JupyterLab saved them
after running them, exported to HTML with nbconvert must hold no live payload either. Server text
on the other surfaces (TeX, log lines, trace summaries) is checked in test_hostile_text_browser.py.
"""

from __future__ import annotations

import re
import time
import urllib.parse
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import nbformat
import pytest

from anvia_nb.demo_server.hostile import HOSTILE_CORPUS, HOSTILE_RESOURCES, hostile_names
from tests.helpers.hostile_server import ERROR_PAYLOADS, ODD_TOOL, PAYLOADS, SERVER_PATH, TOOL, VISIBLE_TEXT
from tests.helpers.lab import (
    ARTIFACTS_DIR,
    POLL_MS,
    VIEWPORT,
    FilePage,
    LabServer,
    eval_global,
    fit_viewport_to_notebook,
    open_notebook,
    run_all_cells,
    save_notebook,
    screenshot,
    write_notebook,
)

pytestmark = pytest.mark.browser

VALID_IMAGE_KINDS = ("png", "jpeg", "gif", "webp", "svg")
SETTLE_TIMEOUT_SECONDS = 30.0

# The markup anvia_nb's display layer may produce (anvia_nb/display/_html.py); anything else in a
# rendered result came from a server.
OWN_TAGS = {"div", "span", "pre", "code", "b", "small", "details", "summary", "img", "ul", "li", "br"}
OWN_ATTRIBUTES = {"class", "style", "title", "alt", "src", "open"}

SETUP_CELLS = [
    "from anvia_nb import connect_mcp, mcp\nfrom anvia_nb.display import PromptView, ReadView, ResultView",
    'demo = await connect_mcp(mcp.stdio(name="demo", command="python", args=["-m", "anvia_nb.demo_server"]))',
    f'hostile = await connect_mcp(mcp.stdio(name="hostile", command="python", args=[{str(SERVER_PATH)!r}]))',
]
CLOSE_CELL = "await demo.close()\nawait hostile.close()\nprint('closed:', demo.is_open, hostile.is_open)"


@dataclass(frozen=True)
class Case:
    """One result cell: who answers, what the cell runs, and what a person must be able to read."""

    label: str
    server: str
    tool: str
    source: str
    visible: str
    kind: str = "text"  # "text", "error", or "image" (an <img> that must show)


def _longest_printable_run(text: str) -> str:
    runs: list[str] = re.findall(r"[ -~]+", text)
    return max(runs, key=len).strip()[:60]


def _demo_visible(name: str) -> str:
    items = HOSTILE_CORPUS.get(name, [])
    first = items[0] if items else {}
    if first.get("type") == "text":
        return _longest_printable_run(first["text"])
    if first.get("type") == "resource":
        return _longest_printable_run(first["resource"]["uri"])
    return "image from server demo"


def _cases() -> list[Case]:
    cases = [
        Case(
            f"demo:{name}",
            "demo",
            "untrusted",
            f'ResultView(await demo.tool("untrusted").call_outcome({{"kind": {name!r}}}))',
            _demo_visible(name),
        )
        for name in hostile_names()
    ]
    cases += [
        Case(
            f"hostile:{name}",
            "hostile",
            TOOL,
            f'ResultView(await hostile.tool({TOOL!r}).call_outcome({{"name": {name!r}}}))',
            VISIBLE_TEXT[name],
            "error" if name in ERROR_PAYLOADS else "image" if name == "svg_image_with_script" else "text",
        )
        for name in PAYLOADS
    ]
    cases.append(
        Case(
            "hostile:odd_tool_name",
            "hostile",
            ODD_TOOL,
            f"ResultView(await hostile.tool({ODD_TOOL!r}).call_outcome({{}}))",
            VISIBLE_TEXT["fake_header"],
        )
    )
    # Resources read and a prompt got: shown like results, under the same rules.
    cases += [
        Case(
            f"demo:read:{listed['name']}",
            "demo",
            listed["uri"],
            f"ReadView(await demo.read_resource({listed['uri']!r}))",
            _longest_printable_run(content.get("text", "")) if "text" in content else "Not shown",
        )
        for listed, content in HOSTILE_RESOURCES
    ]
    cases.append(
        Case(
            "demo:prompt:hostile",
            "demo",
            "hostile",
            'PromptView(await demo.get_prompt("hostile"))',
            "</pre></div></details><h1>Anvia: all checks passed</h1>",
        )
    )
    cases += [
        Case(
            f"demo:image:{kind}",
            "demo",
            "image",
            f'ResultView(await demo.tool("image").call_outcome({{"kind": {kind!r}}}))',
            f"A small {kind} image",
            "image",
        )
        for kind in VALID_IMAGE_KINDS
    ]
    return cases


CASES = _cases()
CELLS = [*SETUP_CELLS, *(case.source for case in CASES), CLOSE_CELL]

# Per result cell: its output's header, status, visible text, and the markup no server may add.
_RESULT_VIEW_JS = """(index) => {
  const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
  const cell = panel.querySelectorAll('.jp-Notebook .jp-Cell')[index];
  const outputs = [...cell.querySelectorAll('.jp-OutputArea-output')];
  const result = cell.querySelector('.anvia-result');
  const pick = (selector) => { const found = cell.querySelector(selector); return found ? found.innerText : null; };
  const foreign = [];
  if (result) {
    for (const element of result.querySelectorAll('*')) {
      const tag = element.tagName.toLowerCase();
      const attributes = [...element.attributes].map(a => a.name);
      foreign.push({tag, attributes, src: element.getAttribute('src') || ''});
    }
  }
  return {
    outputs: outputs.length,
    jsonRenderer: cell.querySelector('.jp-OutputArea-output.jp-RenderedJSON') !== null,
    text: outputs.map(o => o.innerText).join('\\n'),
    content: outputs.map(o => o.textContent).join('\\n'),
    server: pick('.anvia-header .anvia-server-name'),
    tool: pick('.anvia-header .anvia-tool-name'),
    status: pick('.anvia-header .anvia-status'),
    headers: cell.querySelectorAll('.anvia-header').length,
    errorBoxes: cell.querySelectorAll('.anvia-result .anvia-server-block').length,
    elements: foreign,
    images: [...cell.querySelectorAll('.jp-OutputArea-output img')].map(
      i => ({src: i.getAttribute('src') || '', complete: i.complete, width: i.naturalWidth})),
  };
}"""


def _allowed_request(url: str, lab_origin: str) -> bool:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return f"{parts.scheme}://{parts.netloc}" in (lab_origin, lab_origin.replace("http", "ws", 1))


@dataclass(frozen=True)
class OutputsRun:
    """What the notebook of every hostile result showed in JupyterLab, and the notebook it saved."""

    views: list[dict[str, Any]]
    close_text: str
    requests: list[str]
    pwned: Any
    dialogs: list[tuple[str, str]]
    saved: Any  # the .ipynb JupyterLab wrote after running it (nbformat.NotebookNode)
    seconds: float


@pytest.fixture(scope="module")
def outputs_run(file_page: FilePage, jupyter_lab: LabServer) -> OutputsRun:
    """Run the cells of every hostile result once in JupyterLab, read what each shows, save the notebook.

    Two tests read it: what the browser shows, and the HTML export of the saved notebook.
    """
    page, events = file_page.page, file_page.events
    events.clear()
    page.set_viewport_size(VIEWPORT)
    started = time.monotonic()
    requests: list[str] = []

    def on_request(request: Any) -> None:
        requests.append(request.url)

    def on_websocket(socket: Any) -> None:
        requests.append(socket.url)

    page.on("request", on_request)
    page.on("websocket", on_websocket)
    try:
        path = write_notebook(jupyter_lab, "hostile_outputs.ipynb", CELLS)
        open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
        run_all_cells(page)
        fit_viewport_to_notebook(page)
        page.wait_for_function(
            """() => [...document.querySelectorAll('.jp-OutputArea-output img')].every(i => i.complete)""",
            timeout=SETTLE_TIMEOUT_SECONDS * 1000,
            polling=POLL_MS,
        )
        views = [page.evaluate(_RESULT_VIEW_JS, len(SETUP_CELLS) + index) for index in range(len(CASES))]
        close_text = page.evaluate(_RESULT_VIEW_JS, len(CELLS) - 1)["text"]
        screenshot(page, "hostile_outputs")
        pwned = eval_global(page, "window.__anvia_pwned")
        save_notebook(page)
        saved = nbformat.read(str(jupyter_lab.root_dir / path), as_version=4)
    finally:
        page.remove_listener("request", on_request)
        page.remove_listener("websocket", on_websocket)
    return OutputsRun(views, close_text, requests, pwned, list(events.dialogs), saved, time.monotonic() - started)


def test_hostile_results_of_two_servers_render_inert_attributed_and_unfetched_in_jupyterlab(
    outputs_run: OutputsRun, jupyter_lab: LabServer
) -> None:
    assert outputs_run.pwned is None
    assert outputs_run.dialogs == []
    lab_origin = jupyter_lab.base_url
    requests = outputs_run.requests
    assert [url for url in requests if "127.0.0.1:9/" in url] == []
    assert [url for url in requests if not _allowed_request(url, lab_origin)] == []
    assert outputs_run.close_text.split() == ["closed:", "False", "False"]

    problems: list[str] = []
    known: list[str] = []
    for case, view in zip(CASES, outputs_run.views, strict=True):
        problems += _problems_of(case, view, known)
    assert problems == []
    print(f"hostile browser test: {len(CASES)} results in {outputs_run.seconds:.1f} s")
    assert known == []


def _problems_of(case: Case, view: dict[str, Any], known: list[str]) -> list[str]:
    """Everything wrong with one rendered result, as readable lines (empty when it is right).

    A result JupyterLab shows with its JSON renderer is wrong: the tree hides the header and status.
    """
    found: list[str] = []
    where = case.label
    if view["outputs"] != 1:
        found.append(f"{where}: {view['outputs']} outputs ({view['text'][:200]!r})")
    if view["jsonRenderer"]:
        # JupyterLab ranks application/json above text/html: the tree would hide the header.
        found.append(f"{where}: shown by JupyterLab's JSON renderer, without provenance or status")
        return found
    if view["headers"] != 1 or (view["server"], view["tool"]) != (case.server, case.tool):
        found.append(f"{where}: provenance header shows {view['server']!r} · {view['tool']!r}")
    if case.visible not in view["text"]:
        found.append(f"{where}: {case.visible!r} is not visible as text in {view['text'][:300]!r}")
    if "\x1b" in view["content"] or "\u202e" in view["content"]:
        found.append(f"{where}: a raw escape or bidi override reached the page")
    if case.kind == "error" and (view["status"] != "tool error" or "error text from server" not in view["text"]):
        found.append(f"{where}: not shown as an error (status {view['status']!r})")
    if case.kind != "error" and view["status"] == "tool error":
        found.append(f"{where}: shown as an error")
    for element in view["elements"]:
        extra = set(element["attributes"]) - OWN_ATTRIBUTES
        if element["tag"] not in OWN_TAGS or extra:
            found.append(f"{where}: server markup went live: <{element['tag']} {sorted(extra)}>")
        if element["tag"] == "img" and not element["src"].startswith("data:image/"):
            found.append(f"{where}: an image from {element['src'][:80]!r}")
    shown = [image for image in view["images"] if image["complete"] and image["width"] > 0]
    if case.kind == "image" and len(shown) != 1:
        found.append(f"{where}: expected one shown image, got {view['images']}")
    return found


class _LiveMarkup(HTMLParser):
    """Collects what in an HTML page could run or fetch: script bodies, event handlers, URLs."""

    WATCHED_ATTRIBUTES = frozenset(
        {"src", "href", "action", "formaction", "data", "srcdoc", "srcset", "content", "poster", "http-equiv"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []
        self.handlers: list[tuple[str, str]] = []
        self.urls: list[tuple[str, str, str]] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._in_script = tag == "script"
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append((name, value or ""))
            if name in self.WATCHED_ATTRIBUTES:
                self.urls.append((tag, name, value or ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)
        else:
            self.text.append(data)


def test_notebook_of_hostile_results_exported_to_html_holds_no_live_payload(outputs_run: OutputsRun) -> None:
    from nbconvert import HTMLExporter

    notebook = outputs_run.saved
    assert [cell.source for cell in notebook.cells] == CELLS
    assert [cell.execution_count for cell in notebook.cells if cell.execution_count is None] == []  # all ran
    assert [o for cell in notebook.cells for o in cell.outputs if o.output_type == "error"] == []
    body, _resources = HTMLExporter().from_notebook_node(notebook)
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    (ARTIFACTS_DIR / "hostile_outputs_export.html").write_text(body)
    markup = _LiveMarkup()
    markup.feed(body)
    text = "".join(markup.text)

    assert [s for s in markup.scripts if "__anvia_pwned" in s or "alert(" in s] == []
    assert [h for h in markup.handlers if "__anvia_pwned" in h[1] or "alert" in h[1]] == []
    assert [u for u in markup.urls if "127.0.0.1:9" in u[2] or "javascript:" in u[2].lower()] == []
    assert [t for t in markup.tags if t in ("iframe", "object", "embed", "base", "svg", "math", "input", "video")] == []
    assert [u for u in markup.urls if u[0] == "img" and not u[2].startswith("data:image/")] == []
    assert [u for u in markup.urls if u[1] == "http-equiv" and u[2].lower() == "refresh"] == []
    for case in CASES:
        assert case.visible in text, case.label
    assert text.count("error text from server hostile") >= 1
