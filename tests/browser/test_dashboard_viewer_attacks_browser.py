"""A dashboard served the documented way (scripts/dashboard, Voilà) and attacked by its viewer in
headless Chromium: with the page's own controls and with raw widget messages sent from the page's
JavaScript (the widget manager's models: traits set, buttons clicked, hidden ones too), the viewer
tries another tool, another connection, a resource, a changed read-only argument and a file write.
The kernel refuses them all: the server's journal (tests/helpers/leaky_server.py ``--journal``)
shows every request the page made it send. Nothing of the server's text (its errors, log, stderr,
capabilities, instructions) reaches the page, neither shown nor in any widget's state. And a page
that closes frees its kernel and the MCP servers it started (Voilà's culling, from voila.json).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.helpers.lab import POLL_MS, record_page_events, screenshot
from tests.helpers.leaky_server import FRAGMENT, LEAK
from tests.helpers.support import pid_alive
from tests.helpers.voila import RunningVoila, serve_dashboard
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.browser

LEAKY = Path(__file__).parents[1] / "helpers" / "leaky_server.py"
WAIT_MS = 120_000
END = "END-OF-DASHBOARD"
FREED_SECONDS = 180.0
"""Culling frees a closed page within about 30 s (voila.json); this bound only proves it happens."""
ESCAPE = "/tmp/anvia-viewer-escape.py"

# Every widget model the page holds, found through Voilà's widget manager (window.jupyterapp).
MODELS_JS = """async () => {
  const manager = window.jupyterapp.widgetManager;
  const models = await Promise.all(Object.values(manager._models));
  return models.map(m => JSON.stringify(m.get_state(true)));
}"""

# The hostile viewer: widget messages of its own, sent as the page's JavaScript can.
ATTACK_JS = """async ({escape}) => {
  const manager = window.jupyterapp.widgetManager;
  const models = await Promise.all(Object.values(manager._models));
  const named = d => models.filter(m => m.get('description') === d);
  const sync = async (m, state) => { m.set(state); m.save_changes(); };
  // The viewer typed a=2 in the form: wait (bounded) until the field's model holds it.
  for (let i = 0; i < 300 && !models.some(m => m.get('value') === '2'); i++) await new Promise(r => setTimeout(r, 100));
  // Another connection and another tool: the lists' labels rewritten, a new index chosen.
  for (const m of named('Connection')) await sync(m, {_options_labels: ['demo', 'admin'], index: 1});
  for (const m of named('Tools')) await sync(m, {_options_labels: ['echo', 'add', 'drop_tables'], index: 2});
  // A read-only argument: the disabled field holding 100, enabled and changed.
  for (const m of models.filter(m => m.get('disabled') === true && m.get('value') === '100')) {
    await sync(m, {disabled: false, value: '-5'});
  }
  // A file write: every text field given a file name (in the served folder, then out of it), and
  // every button pressed, hidden ones too (a custom comm message, as a click sends); but Cancel,
  // which would only stop the calls the others start.
  const buttons = models.filter(m => m.get('_model_name') === 'ButtonModel' && m.get('description') !== 'Cancel');
  const texts = models.filter(m => m.get('_model_name') === 'TextModel' && m.get('disabled') !== true);
  for (const path of ['pwned.py', escape]) {
    for (const m of texts) if (m.get('value') !== '2') await sync(m, {value: path});  // the viewer's a=2 stays
    for (const m of buttons) m.send({event: 'click'}, {});
  }
  return models.length;
}"""


def _notebook(root: Path, journal: Path) -> str:
    python = sys.executable
    cells = [
        "%load_ext anvia_nb\n%config McpMagics.hide_server_errors = True",
        f"%mcp connect demo --stdio {python} {LEAKY} --journal {journal}",
        f"%mcp connect admin --stdio {python} {LEAKY} --journal {journal}.admin",
        "from anvia_nb import RenderSettings\nfrom anvia_nb.widgets import form\n"
        'form("demo.add", readonly_arguments={"b": 100}, settings=RenderSettings(hide_server_errors=True))',
        "%mcp panel demo --tools echo,add,fail",
        "%mcp call demo.fail",
        "%mcp call demo.chatter",
        "%mcp log demo",
        "%mcp trace demo",
        f"print({END!r})",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    nbformat.write(notebook, str(root / "attacked.ipynb"))
    return "/voila/render/attacked.ipynb"


@pytest.fixture(scope="module")
def voila(chromium: Any) -> Iterator[RunningVoila]:
    with tempfile.TemporaryDirectory(prefix="anvia-viewer-") as home, serve_dashboard(Path(home)) as running:
        yield running


def _journal(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _calls(path: Path) -> list[tuple[str, dict[str, Any]]]:
    return [
        (r["params"]["name"], r["params"].get("arguments") or {}) for r in _journal(path) if r["method"] == "tools/call"
    ]


def _open(page: Any, url: str) -> None:
    page.goto(url, wait_until="commit", timeout=WAIT_MS)
    page.get_by_text(END).first.wait_for(timeout=WAIT_MS)


def _seen(page: Any) -> str:
    """Everything that reached the page: its HTML, its text and every widget's state."""
    states: list[str] = page.evaluate(MODELS_JS)
    return "\n".join([page.content(), page.inner_text("body"), *states])


def test_a_hostile_viewer_is_refused_everything_the_page_did_not_offer(voila: RunningVoila, chromium: Any) -> None:
    journal = voila.root.parent / "journal.jsonl"
    url = voila.base_url + _notebook(voila.root, journal)
    before = {p.name for p in voila.root.iterdir()}
    Path(ESCAPE).unlink(missing_ok=True)
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    events = record_page_events(page)
    try:
        _open(page, url)
        # The page's own controls: the panel offers echo, add and fail; calling fail is said plainly.
        tools = page.locator(".widget-select", has=page.locator("label", has_text="Tools")).locator("select")
        tools.locator("option").first.wait_for(timeout=WAIT_MS)
        options = [" ".join(t.split()) for t in tools.locator("option").all_inner_texts()]
        assert sorted(options) == ["add — Add two integers." if "—" in o else o for o in sorted(options)]
        assert {o.split(" ")[0] for o in options} == {"add", "echo", "fail"}
        tabs = [" ".join(t.split()) for t in page.locator(".lm-TabBar-tab").all_inner_texts()]
        assert "Resources" not in tabs and "Prompts" not in tabs
        tools.select_option(label=next(o for o in options if o.startswith("fail")))
        panel_form = page.locator(".jp-OutputArea-output").filter(has=tools)
        panel_form.locator("button.widget-button", has_text="Call").first.click()
        panel_form.get_by_text("The server reported an error.").first.wait_for(timeout=WAIT_MS)

        fixed = page.locator(".jp-OutputArea-output").filter(has_text="Fixed by this notebook")
        a_field = fixed.locator(".widget-hbox", has=page.locator(".widget-label", has_text=re.compile(r"^a\b")))
        a_field.locator(".widget-text input").first.fill("2")
        a_field.locator(".widget-text input").first.press("Tab")  # the field's value goes to its model
        count = page.evaluate(ATTACK_JS, {"escape": ESCAPE})
        assert count > 20

        # Each press reaches the kernel; the fixed form's call is the last to answer: wait on it.
        page.wait_for_function(
            "() => [...document.querySelectorAll('.anvia-result')].some(e => e.innerText.includes('(a=2, b=100)'))",
            timeout=WAIT_MS,
            polling=POLL_MS,
        )
        calls = _calls(journal)
        assert ("add", {"a": 2, "b": 100}) in calls, calls  # the raw click reached the kernel; b stayed fixed
        assert [name for name, _a in calls].count("fail") >= 3, calls  # the cell, the control, the raw click
        names = {name for name, _arguments in calls}
        assert names <= {"echo", "add", "fail", "chatter"}, calls  # never drop_tables, boom
        assert all(arguments.get("b") == 100 for name, arguments in calls if name == "add"), calls
        requests = {r["method"] for r in _journal(journal)}
        assert not requests & {"resources/read", "resources/list", "prompts/get", "prompts/list"}, requests
        assert _calls(Path(f"{journal}.admin")) == []  # the other connection: never called
        assert not Path(ESCAPE).exists()
        assert {p.name for p in voila.root.iterdir()} == before  # no file written in the served folder
        seen = _seen(page)
        for leaked in (FRAGMENT, LEAK, "10.0.0.5", "%mcp", "capabilities", "experimental"):
            assert leaked not in seen, leaked
        # The log (%mcp log, and the panel's Log tab in the widgets' state): how much, and no "error".
        logs = page.locator(".jp-OutputArea-output").filter(has_text="has written", has_not_text="Refresh")
        log_tab = [state for state in page.evaluate(MODELS_JS) if "log of server demo" in state]
        assert len(log_tab) == 1 and "has written" in log_tab[0]
        assert all("reported an error" not in text for text in [*logs.all_inner_texts(), *log_tab])
        screenshot(page, "voila_viewer_attacks")
        assert events.page_errors == []
    finally:
        page.close()
        context.close()


def test_a_closed_page_frees_its_kernel_and_its_mcp_servers(voila: RunningVoila, chromium: Any) -> None:
    url = voila.base_url + _notebook(voila.root, voila.root.parent / "journal-closed.jsonl")
    existing = voila.descendants()
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        _open(page, url)
        started = voila.descendants() - existing  # this page's kernel and the two servers it started
        assert len(started) >= 3, started
    finally:
        page.close()  # no beforeunload: as a tab that crashed or a network that went away
        context.close()
    closed = time.monotonic()
    wait_until(
        lambda: not any(pid_alive(pid) for pid in started),
        lambda: (
            f"the page's processes to end; still running: {sorted(p for p in started if pid_alive(p))}\n{voila.log()}"
        ),
        seconds=FREED_SECONDS,
    )
    assert "Culling" in voila.log()  # freed by Voilà's culling (voila.json), not by a page's goodbye
    print(f"freed {time.monotonic() - closed:.0f} s after the page closed")
