"""The notebooks as stored in the repository: every code cell run in order and stored with its
output, nbval told to ignore only what varies, widgets stored as text, and Run All leaving every
form's connection open.

These tests read the files only (no kernel): nbval (``pytest --nbval notebooks/``) is what re-runs
them and compares the outputs. The notebooks' secrets, their HTML and what they teach have files of
their own beside this one.
"""

from __future__ import annotations

import ast
import json
import re
from html import escape
from typing import Any

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager

from tests.helpers.project_notebooks import project_notebooks
from tests.helpers.stored_notebooks import NAMES, NOTEBOOK_DIR, code_cells, read, rendered

# nbval's cell tag (nbval >= 0.9 reads it from the cell's metadata): a comment marker would show in
# the notebook a student reads.
IGNORE_OUTPUT = "nbval-ignore-output"


_QUIET_MAGICS = ("load_ext", "config")


def _run_nodes(tree: ast.Module) -> list[ast.AST]:
    """The nodes a cell runs at once: function and class bodies only define, they do not print."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        found.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            pending.extend(ast.iter_child_nodes(node))
    return found


def should_have_output(source: str) -> bool:
    """Does running this cell print or display something? (Read from its code, not its outputs.)"""
    python = TransformerManager().transform_cell(source)
    tree = ast.parse(python)
    if any(isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print" for node in _run_nodes(tree)):
        return True
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return False
    last = tree.body[-1].value
    if isinstance(last, ast.Await):  # `await server.close()` returns None
        return False
    if isinstance(last, ast.Call) and getattr(last.func, "attr", None) == "run_line_magic":
        magic, line = (arg.value if isinstance(arg, ast.Constant) else "" for arg in last.args[:2])
        if magic in _QUIET_MAGICS or (magic == "mcp" and str(line).startswith("close")):
            return False
    return True


# -- stored outputs ---------------------------------------------------------------------------


def test_the_notebooks_folder_holds_the_notebooks_and_the_config_file() -> None:
    # What git tracks there (numbered notebooks outside a git checkout): a notebook a person saved
    # in the folder while working is not the project's.
    assert project_notebooks() == NAMES
    config = json.loads((NOTEBOOK_DIR / "servers.json").read_text())
    assert set(config["mcpServers"]) >= {"time", "git", "demo_http"}


@pytest.mark.parametrize("name", NAMES)
def test_every_code_cell_was_run_in_order_and_none_failed(name: str) -> None:
    counts = [cell.execution_count for cell in code_cells(read(name))]
    assert None not in counts, f"{name} has cells that were never run"
    assert counts == sorted(counts), f"{name} was not run top to bottom: {counts}"
    errors = [o for c in code_cells(read(name)) for o in c.outputs if o.output_type == "error"]
    assert errors == []


@pytest.mark.parametrize("name", NAMES)
def test_every_code_cell_that_prints_or_displays_is_stored_with_its_output(name: str) -> None:
    missing = [
        cell.source.splitlines()[0]
        for cell in code_cells(read(name))
        if should_have_output(cell.source) and not cell.outputs
    ]
    assert missing == []


def test_the_output_rule_tells_quiet_cells_from_displaying_ones() -> None:
    assert should_have_output('%mcp call demo.echo {"message": "hi"}')
    assert should_have_output("r = %mcp call demo.add a=2 b=3\nr.output")
    assert should_have_output("x = 1\nprint(x)")
    assert not should_have_output("%load_ext anvia_nb")
    assert not should_have_output("%mcp close demo")
    assert not should_have_output("await server.close()")
    assert not should_have_output("x = 1")
    assert not should_have_output("def show(x):\n    print(x)")


@pytest.mark.parametrize("name", NAMES)
def test_outputs_are_ignored_by_nbval_only_where_a_widget_or_a_varying_value_is_shown(name: str) -> None:
    cells = code_cells(read(name))
    ignored = [cell.source for cell in cells if IGNORE_OUTPUT in cell.metadata.get("tags", [])]
    assert [cell.source for cell in cells if "NBVAL_" in cell.source] == []  # tags, not comments a student reads
    for source in ignored:
        assert re.search(r"%mcp (form|panel)|get_current_time|convert_time", source), source
    assert len(ignored) <= max(2, len(cells) // 5), f"{name} ignores too many outputs: {len(ignored)}"


@pytest.mark.parametrize("name", NAMES)
def test_every_shown_result_names_its_server_and_tool_in_html_and_text(name: str) -> None:
    results = [
        output.data
        for cell in code_cells(read(name))
        for output in cell.outputs
        if "anvia-result" in str(output.get("data", {}).get("text/html", ""))
    ]
    if name != "05-real-servers.ipynb":
        assert results, f"{name} shows no tool result"
    for data in results:
        # a call names its tool; a read or a prompt says so before the URI or the prompt's name
        header = re.match(r"\[MCP ([^\]\s]+) · (?:read |prompt )?([^\]\s]+)\]", data["text/plain"])
        assert header, data["text/plain"][:80]
        server, tool = header.groups()
        assert f'class="anvia-server-name">{server}<' in data["text/html"]
        assert f'class="anvia-tool-name">{tool}<' in data["text/html"]


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTEBOOKS = ["01-quickstart.ipynb", "03-forms-and-panel.ipynb"]


@pytest.mark.parametrize("name", WIDGET_NOTEBOOKS)
def test_forms_and_panels_are_stored_with_a_text_of_their_own_and_no_widget_state(name: str) -> None:
    nb = read(name)
    views = [output.data for cell in code_cells(nb) for output in cell.outputs if WIDGET_VIEW in output.get("data", {})]
    assert len(views) >= 2
    # Without saved state, a static view (nbconvert's HTML offline, GitHub) shows each widget's text;
    # with it, nbconvert's HTML would load the widgets' renderer from a CDN, and offline show blanks.
    assert "widgets" not in nb.metadata
    for data in views:
        text = data["text/plain"]
        assert text.startswith("anvia_nb ") and not re.match(r"\w*Box\(", text), text[:80]


@pytest.mark.parametrize("name", WIDGET_NOTEBOOKS)
def test_an_html_export_shows_each_form_and_panel_as_its_text_with_nothing_loaded_from_a_cdn(name: str) -> None:
    html = rendered(name)
    texts = [
        output.data["text/plain"]
        for cell in code_cells(read(name))
        for output in cell.outputs
        if WIDGET_VIEW in output.get("data", {})
    ]
    for text in texts:
        assert escape(text.splitlines()[0], quote=False) in html
    assert f'type="{WIDGET_VIEW}"' not in html and "html-manager" not in html


def open_names_after_run_all(nb: Any) -> set[str]:
    """The connections still open after the notebook's code cells run in order (comments do not run)."""
    opened: set[str] = set()
    for cell in code_cells(nb):
        for line in TransformerManager().transform_cell(cell.source).splitlines():
            magic = re.search(r"run_line_magic\('mcp', '(connect|close) ([^' ]+)", line)
            if magic is None or line.lstrip().startswith("#"):
                continue
            verb, target = magic.groups()
            if verb == "connect":
                opened.add(target)
            elif target == "--all":
                opened.clear()
            else:
                opened.discard(target)
    return opened


@pytest.mark.parametrize("name", WIDGET_NOTEBOOKS)
def test_run_all_leaves_the_connection_of_every_form_and_panel_open(name: str) -> None:
    nb = read(name)
    used = {match for cell in code_cells(nb) for match in re.findall(r"%mcp form (\w+)\.", cell.source)}
    assert used and used <= open_names_after_run_all(nb)


def test_the_run_all_rule_follows_closes_reconnects_and_comments() -> None:
    def cells(*sources: str) -> Any:
        return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in sources])

    assert open_names_after_run_all(cells("%mcp connect demo --stdio x", "%mcp close demo")) == set()
    assert open_names_after_run_all(cells("%mcp connect demo --stdio x", "# %mcp close demo")) == {"demo"}
    assert open_names_after_run_all(
        cells("%mcp connect a --stdio x\n%mcp close --all", "%mcp connect a --stdio x")
    ) == {"a"}


@pytest.mark.parametrize("name", NAMES)
def test_run_all_leaves_nothing_on_stderr_that_a_student_reads_as_an_error(name: str) -> None:
    # Jupyter shows stderr in pink: a note that guides (say, a call that cannot show a prompt) is stdout.
    pink = [o.text for cell in code_cells(read(name)) for o in cell.outputs if o.get("name") == "stderr"]
    assert pink == []


def test_after_run_all_notebook_08s_counter_view_is_still_live() -> None:
    # Its last section shows a teardown on a connection of its own: closing `demo` would leave the
    # view a reader scrolls back to saying only that it "was closed".
    cells = code_cells(read("08-apps.ipynb"))
    assert not [cell.source for cell in cells if re.search(r"%mcp close demo\b(?!\d)", cell.source)]
    printed = "".join(output.text for output in cells[-1].outputs if output.output_type == "stream")
    assert "<AppView demo2.counter_app torn down>" in printed and "<AppView demo.counter_app open>" in printed
