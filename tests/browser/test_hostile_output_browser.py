"""Hostile MCP results shown in a real JupyterLab stay inert: escaped, attributed, never fetched.

Why: JupyterLab trusts the outputs a person ran, so a `<script>` or `<img onerror>` in `text/html`
runs (tests/browser/test_lab_harness.py proves the detector sees it). Here a notebook connects to
the bundled demo server and to an independent hostile server (tests/browser/hostile_server.py),
shows every hostile payload of both with `ResultView`, and the browser must show them as text:
no script ran, no dialog opened, no request left the lab's origin, valid images still show, and
every result carries anvia_nb's own provenance header. The same cells exported to HTML with
nbconvert must hold no live payload either.

JupyterLab also typesets TeX in outputs and ipywidgets Labels with MathJax, so server text such as
``$\\href{https://evil.example}{\\text{OK ✔ safe}}$`` could become a link reading "OK ✔ safe".
The last test shows server TeX on every surface (results, resource summaries, the DataFrames,
history errors, form labels) and counts the MathJax elements made from it: none.
"""

from __future__ import annotations

import re
import time
import urllib.parse
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import nbformat
import pytest

from anvia_nb.demo_server.hostile import HOSTILE_CORPUS, HOSTILE_RESOURCES, hostile_names
from tests.browser.hostile_server import ERROR_PAYLOADS, MATH_TOOL, ODD_TOOL, PAYLOADS, TOOL, VISIBLE_TEXT
from tests.browser.lab import (
    ARTIFACTS_DIR,
    LabServer,
    PageEvents,
    eval_global,
    open_notebook,
    run_all_cells,
    screenshot,
    write_notebook,
)

pytestmark = pytest.mark.browser

HOSTILE_SERVER_PATH = Path(__file__).resolve().with_name("hostile_server.py")
VALID_IMAGE_KINDS = ("png", "jpeg", "gif", "webp", "svg")
SETTLE_TIMEOUT_SECONDS = 30.0
EXPORT_TIMEOUT_SECONDS = 90

# The markup anvia_nb's display layer may produce (anvia_nb/display/_html.py); anything else in a
# rendered result came from a server.
OWN_TAGS = {"div", "span", "pre", "code", "b", "small", "details", "summary", "img", "ul", "li", "br"}
OWN_ATTRIBUTES = {"class", "style", "title", "alt", "src", "open"}

SETUP_CELLS = [
    "from anvia_nb import connect_mcp, mcp\nfrom anvia_nb.display import PromptView, ReadView, ResultView",
    'demo = await connect_mcp(mcp.stdio(name="demo", command="python", args=["-m", "anvia_nb.demo_server"]))',
    f'hostile = await connect_mcp(mcp.stdio(name="hostile", command="python", args=[{str(HOSTILE_SERVER_PATH)!r}]))',
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
        Case("demo:prompt:hostile", "demo", "hostile", 'PromptView(await demo.get_prompt("hostile"))',
             "</pre></div></details><h1>Anvia: all checks passed</h1>")
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


def _fit_viewport_to_notebook(page: Any) -> None:
    """Make the window as tall as the notebook, so every output is on screen and in the screenshot."""
    measure = """async () => {
      const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
      const scroller = panel.querySelector('.jp-WindowedPanel-outer') || panel.querySelector('.jp-Notebook');
      scroller.scrollTop = 0;
      await new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const cells = panel.querySelectorAll('.jp-Notebook .jp-Cell');
      const top = scroller.getBoundingClientRect().top;
      return {
        last: cells[cells.length - 1].getBoundingClientRect().bottom - top,
        client: scroller.clientHeight,
        window: window.innerHeight,
      };
    }"""
    # Offscreen cells have estimated heights (content-visibility) until shown; the notebook also
    # pads its end by a screenful. So grow the window until the last cell's bottom is on screen.
    for _attempt in range(6):
        size = page.evaluate(measure)
        if size["last"] <= size["client"]:
            return
        height = int(size["window"] + size["last"] - size["client"] + 40)
        page.set_viewport_size({"width": 1280, "height": min(height, 30_000)})


def test_hostile_results_of_two_servers_render_inert_attributed_and_unfetched_in_jupyterlab(
    page: Any, jupyter_lab: LabServer, page_events: PageEvents
) -> None:
    started = time.monotonic()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("websocket", lambda socket: requests.append(socket.url))
    path = write_notebook(jupyter_lab, "hostile_outputs.ipynb", CELLS)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)
    _fit_viewport_to_notebook(page)
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-OutputArea-output img')].every(i => i.complete)""",
        timeout=SETTLE_TIMEOUT_SECONDS * 1000,
    )
    views = [page.evaluate(_RESULT_VIEW_JS, len(SETUP_CELLS) + index) for index in range(len(CASES))]
    close_text = page.evaluate(_RESULT_VIEW_JS, len(CELLS) - 1)["text"]
    screenshot(page, "hostile_outputs")

    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_events.dialogs == []
    lab_origin = jupyter_lab.base_url
    assert [url for url in requests if "127.0.0.1:9/" in url] == []
    assert [url for url in requests if not _allowed_request(url, lab_origin)] == []
    assert close_text.split() == ["closed:", "False", "False"]

    problems: list[str] = []
    known: list[str] = []
    for case, view in zip(CASES, views, strict=True):
        problems += _problems_of(case, view, known)
    assert problems == []
    print(f"hostile browser test: {len(CASES)} results in {time.monotonic() - started:.1f} s")
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


def _executed_notebook() -> Any:
    from nbconvert.preprocessors import ExecutePreprocessor

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    executor = ExecutePreprocessor(timeout=EXPORT_TIMEOUT_SECONDS, kernel_name="python3")
    executor.preprocess(notebook, {"metadata": {"path": str(HOSTILE_SERVER_PATH.parent)}})
    return notebook


def test_notebook_of_hostile_results_exported_to_html_holds_no_live_payload() -> None:
    from nbconvert import HTMLExporter

    notebook = _executed_notebook()
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


MATH_CONTROL = 'from IPython.display import Markdown\nMarkdown("control: $x^2$")'
MATH_CELLS = [
    "%load_ext anvia_nb",
    "import sys\n"
    f'get_ipython().run_line_magic("mcp", f"connect hostile --stdio {{sys.executable}} {HOSTILE_SERVER_PATH}")',
    MATH_CONTROL,
    "%mcp tools hostile",
    f"%mcp call hostile.{MATH_TOOL} mode=plain",
    f"%mcp call hostile.{MATH_TOOL}",
    "%mcp history",
    f"%mcp form hostile.{MATH_TOOL}",
    "%mcp connect demo --stdio python -m anvia_nb.demo_server",
    "%mcp resources demo",
    "%mcp prompts demo",
    "%mcp read demo 'demo://hostile/<script>window.__anvia_pwned=1</script>'",
    "%mcp prompt demo.hostile",
    MATH_CONTROL,
]
SERVER_TEXT_CELLS = (3, 4, 5, 6, 7, 9, 10, 11, 12)

_MATH_JS = """(index) => {
  const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
  const cell = panel.querySelectorAll('.jp-Notebook .jp-Cell')[index];
  const outputs = [...cell.querySelectorAll('.jp-OutputArea-output')];
  return {
    math: cell.querySelectorAll('.jp-OutputArea-output mjx-container').length,
    links: cell.querySelectorAll('.jp-OutputArea-output a[href*="evil.example"]').length,
    labels: [...cell.querySelectorAll('.widget-label')].map(l => l.textContent),
    text: outputs.map(o => o.innerText).join('\\n'),
  };
}"""


def test_server_tex_is_never_typeset_on_any_surface_in_jupyterlab(
    page: Any, jupyter_lab: LabServer, page_events: PageEvents
) -> None:
    path = write_notebook(jupyter_lab, "hostile_math.ipynb", MATH_CELLS)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)
    _fit_viewport_to_notebook(page)
    last = len(MATH_CELLS) - 1
    # MathJax works in this lab: the last control cell is typeset (outputs are typeset in order).
    page.wait_for_function(
        f"() => ({_MATH_JS})({last}).math > 0 && ({_MATH_JS})(2).math > 0", timeout=SETTLE_TIMEOUT_SECONDS * 4000
    )
    page.locator("button.widget-button", has_text="Call").first.wait_for(timeout=SETTLE_TIMEOUT_SECONDS * 2000)
    page.wait_for_function(f"() => ({_MATH_JS})(7).labels.length > 1", timeout=SETTLE_TIMEOUT_SECONDS * 1000)
    views = {index: page.evaluate(_MATH_JS, index) for index in SERVER_TEXT_CELLS}
    screenshot(page, "hostile_math")

    made = {MATH_CELLS[i]: (v["math"], v["links"]) for i, v in views.items() if v["math"] or v["links"]}
    assert made == {}
    # ... and each shows the server's TeX as the characters it sent.
    literal = r"\href{https://evil.example}"
    assert literal in views[3]["text"]  # the tools frame: a name, a title, a description
    assert literal in views[4]["text"]  # a result and its resource <summary>
    assert r"$$\text{display}$$" in views[5]["text"]  # an error result
    assert f"hostile.{MATH_TOOL} answered with MCP error" in views[6]["text"]  # the history's error column
    form_labels = views[7]["labels"]
    assert any(literal in label for label in form_labels)
    assert any(r"\(\text{paren}\)" in label for label in form_labels)
    for index in (9, 10, 11, 12):  # resources, prompts, a resource read and a prompt got
        assert literal in views[index]["text"], MATH_CELLS[index]
    assert eval_global(page, "window.__anvia_pwned") is None


REPO = HOSTILE_SERVER_PATH.parents[2]
EXCHANGE_CELLS = [
    "%load_ext anvia_nb",
    f'import sys\nconnect = f"connect demo --cwd {REPO} --stdio {{sys.executable}} -m anvia_nb.demo_server"',
    'get_ipython().run_line_magic("mcp", connect)',
    "%mcp call demo.log_levels hostile=true",
    "%mcp log demo --lines 40",
    "%mcp trace demo --last 40",
    "t = %mcp trace demo --last 40\nt.message(t.index[-2])['params']['logger']",
    MATH_CONTROL,
]
EXCHANGE_SHOWN = range(4, 7)


def test_hostile_log_lines_and_trace_summaries_render_inert_in_jupyterlab(
    page: Any, jupyter_lab: LabServer, page_events: PageEvents
) -> None:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    path = write_notebook(jupyter_lab, "hostile_exchange.ipynb", EXCHANGE_CELLS)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    run_all_cells(page)
    _fit_viewport_to_notebook(page)
    last = len(EXCHANGE_CELLS) - 1
    page.wait_for_function(f"() => ({_MATH_JS})({last}).math > 0", timeout=SETTLE_TIMEOUT_SECONDS * 4000)
    views = {index: page.evaluate(_MATH_JS, index) for index in EXCHANGE_SHOWN}
    live = page.evaluate(
        """(indexes) => indexes.map(index => {
          const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
          const cell = panel.querySelectorAll('.jp-Notebook .jp-Cell')[index];
          return cell.querySelectorAll('.jp-OutputArea-output img, .jp-OutputArea-output iframe, '
            + '.jp-OutputArea-output script, .jp-OutputArea-output svg, .jp-OutputArea-output form').length;
        })""",
        list(EXCHANGE_SHOWN),
    )
    screenshot(page, "hostile_exchange")

    assert eval_global(page, "window.__anvia_pwned") is None
    assert page_events.dialogs == []
    assert [url for url in requests if "127.0.0.1:9/" in url] == []
    assert live == [0, 0, 0]  # no element a server's text could have made
    assert {index: (v["math"], v["links"]) for index, v in views.items() if v["math"] or v["links"]} == {}
    for index in EXCHANGE_SHOWN:
        text = views[index]["text"]
        assert "<img src=x onerror=" in text, text[:300]  # shown as characters
        assert "\u202e" not in text
    assert "⟨U+202E⟩" in views[4]["text"]  # the log frame's logger column
    assert "\\u202e" in views[6]["text"]  # a message is a Python value: its repr escapes the override
