"""The notebooks as stored in the repository: run with outputs, free of secrets and machine paths,
inert when rendered to HTML, and doing what they teach (checked on their code and outputs, never on
the wording of their prose, which may be edited freely).

These tests read the files only (no kernel): nbval (``pytest --nbval notebooks/``) is what re-runs
them and compares the outputs.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import nbformat
import pytest
from IPython.core.inputtransformer2 import TransformerManager
from nbconvert import HTMLExporter

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"
NAMES = [
    "01-quickstart.ipynb",
    "02-result-mapping.ipynb",
    "03-forms-and-panel.ipynb",
    "04-untrusted-output.ipynb",
    "05-real-servers.ipynb",
    "06-protocol-exchange.ipynb",
    "07-dashboard.ipynb",
    "08-apps.ipynb",
]
PAYLOAD_MARKER = "__anvia_pwned"
IGNORE_OUTPUT = "NBVAL_IGNORE_OUTPUT"

TOKEN_PATTERNS = {
    "GitHub token": r"\bgh[pousr]_[A-Za-z0-9]{20,}",
    "OpenAI/Anthropic-style key": r"\bsk-(?:ant-)?[A-Za-z0-9_-]{20,}",
    "AWS access key": r"\bAKIA[0-9A-Z]{16}\b",
    "Slack token": r"\bxox[abprs]-[A-Za-z0-9-]{10,}",
    "JWT": r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}",
    "private key": r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
    "Jupyter server token": r"[?&]token=[0-9a-f]{24,}",
    "bearer token": r"Bearer [A-Za-z0-9._~+/-]{16,}",
}
SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASS|AUTH|CREDENTIAL", re.IGNORECASE)


def read(name: str) -> Any:
    return nbformat.read(NOTEBOOK_DIR / name, as_version=4)


@functools.cache
def exporter() -> HTMLExporter:
    """One exporter for the file: each new one loads and compiles its templates again."""
    return HTMLExporter()


@functools.cache
def rendered(name: str) -> str:
    """The notebook ``name`` as nbconvert's HTML, rendered once per file."""
    html, _ = exporter().from_notebook_node(read(name))
    return str(html)


def code_cells(nb: Any) -> list[Any]:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def output_texts(nb: Any) -> list[str]:
    """Every text an output holds (streams, every mime type, errors), as JSON for non-strings."""
    texts: list[str] = []
    for cell in code_cells(nb):
        for output in cell.get("outputs", []):
            if "text" in output:
                texts.append(output["text"])
            for value in output.get("data", {}).values():
                texts.append(value if isinstance(value, str) else json.dumps(value))
            if output.get("output_type") == "error":
                texts.append(output.get("evalue", ""))
    return texts


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
    assert sorted(p.name for p in NOTEBOOK_DIR.glob("*.ipynb")) == NAMES
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
    missing = [cell.source.splitlines()[0] for cell in code_cells(read(name))
               if should_have_output(cell.source) and not cell.outputs]
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
    ignored = [cell.source for cell in cells if IGNORE_OUTPUT in cell.source]
    for source in ignored:
        assert re.search(r"%mcp (form|panel)|get_current_time|convert_time", source), source
    assert len(ignored) <= max(2, len(cells) // 5), f"{name} ignores too many outputs: {len(ignored)}"


@pytest.mark.parametrize("name", NAMES)
def test_every_shown_result_names_its_server_and_tool_in_html_and_text(name: str) -> None:
    results = [output.data for cell in code_cells(read(name)) for output in cell.outputs
               if "anvia-result" in str(output.get("data", {}).get("text/html", ""))]
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
def test_forms_and_panels_are_stored_with_their_state_and_a_text_of_their_own(name: str) -> None:
    nb = read(name)
    views = [output.data for cell in code_cells(nb) for output in cell.outputs if WIDGET_VIEW in output.get("data", {})]
    assert len(views) >= 2
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    for data in views:
        assert data[WIDGET_VIEW]["model_id"] in state  # renders in the saved notebook
        text = data["text/plain"]
        assert text.startswith("anvia_nb ") and not re.match(r"\w*Box\(", text), text[:80]


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
    assert open_names_after_run_all(cells("%mcp connect a --stdio x\n%mcp close --all",
                                          "%mcp connect a --stdio x")) == {"a"}


# -- no secrets, no machine paths --------------------------------------------------------------


def _machine_paths() -> list[str]:
    paths = {"/tmp/", "/root/", "/home/", "/Users/", "/private/var/", str(NOTEBOOK_DIR.parent)}
    paths.add(str(Path.home()))
    paths.add(tempfile.gettempdir())
    return sorted(p for p in paths if len(p) > 1)


@pytest.mark.parametrize("name", NAMES)
def test_no_token_like_string_or_absolute_path_of_this_machine_is_stored(name: str) -> None:
    text = (NOTEBOOK_DIR / name).read_text(encoding="utf-8")
    for what, pattern in TOKEN_PATTERNS.items():
        assert not re.search(pattern, text), f"{name} holds something like a {what}"
    for path in _machine_paths():
        assert path not in text, f"{name} holds the machine path {path!r}"


_ENV_OPTION = re.compile(r"--env\s+([A-Za-z_][A-Za-z0-9_]*)=(\S+)")
_ENV_ASSIGNMENT = re.compile(r"""os\.environ\[["']([A-Za-z_][A-Za-z0-9_]*)["']\]\s*=\s*["']([^"']+)["']""")


def secret_values_in_the_source(nb: Any) -> list[str]:
    """Values of secret-named variables written in code: ``--env NAME=value`` or ``os.environ[NAME] = ...``."""
    found = []
    for cell in code_cells(nb):
        pairs = _ENV_OPTION.findall(cell.source) + _ENV_ASSIGNMENT.findall(cell.source)
        found += [value for key, value in pairs if SECRET_NAME.search(key)]
    return found


@pytest.mark.parametrize("name", NAMES)
def test_secret_values_given_to_a_connection_never_appear_in_an_output(name: str) -> None:
    nb = read(name)
    stored = "\n".join(output_texts(nb)) + json.dumps(nb.metadata.get("widgets", {}))
    for secret in secret_values_in_the_source(nb):
        assert secret not in stored


@pytest.mark.parametrize("name", NAMES)
def test_no_connect_line_writes_a_secret_value_into_the_notebook(name: str) -> None:
    lines = [line for cell in code_cells(read(name)) for line in cell.source.splitlines() if "%mcp connect" in line]
    written = [line for line in lines for key in re.findall(r"--env\s+([A-Za-z_][A-Za-z0-9_]*)=", line)
               if SECRET_NAME.search(key)]
    assert written == [], "pass secrets with --secret-env NAME (the kernel's variable), not --env NAME=value"


def test_the_untrusted_output_notebook_passes_the_kernels_token_and_every_echo_of_it_is_masked() -> None:
    nb = read("04-untrusted-output.ipynb")
    assert any(re.search(r"%mcp connect demo .*--secret-env API_TOKEN\b", cell.source) for cell in code_cells(nb))
    (token,) = set(secret_values_in_the_source(nb))  # the fake value the notebook puts in the kernel's environment
    echoes = [cell for cell in code_cells(nb) if "env_value name=API_TOKEN" in cell.source]
    assert len(echoes) >= 2
    compared = next(cell for cell in echoes if "==" in cell.source)
    for cell in echoes:
        shown = "\n".join(output_texts(nbformat.v4.new_notebook(cells=[cell])))
        assert token not in shown
        assert cell is compared or "••••" in shown
    assert compared.outputs[0]["data"]["text/plain"] == "True"  # the exact value stays in Python


# -- rendered HTML stays inert -----------------------------------------------------------------


_SCRIPT_URL = re.compile(r"\s*(javascript:|vbscript:|data:text/html)", re.IGNORECASE)


_DATA_BLOCK = re.compile(r"json|text/x-", re.IGNORECASE)


class _LiveContent(HTMLParser):
    """Collects what a browser would run: script bodies, on* handlers, srcdoc and script URLs."""

    _URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "data")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.live: list[str] = []
        self._script_type: str | None = None
        self._script_body: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            value = value or ""
            script_url = key in self._URL_ATTRIBUTES and _SCRIPT_URL.match(value)
            if key.startswith("on") or key == "srcdoc" or script_url:
                self.live.append(f"<{tag} {key}={value}>")
        if tag == "script":
            self._script_type = dict(attrs).get("type") or "text/javascript"
            self._script_body = []

    def handle_data(self, data: str) -> None:
        if self._script_type is not None:
            self._script_body.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script_type is not None:
            # A data block (the widgets' saved state is JSON in a script tag) is never run; had a
            # server's "</script>" ended it early, what follows would be a script of its own.
            if not _DATA_BLOCK.search(self._script_type):
                self.live.append(f"<script type={self._script_type}>{''.join(self._script_body)}")
            self._script_type = None


def live_content_with_marker(html: str) -> list[str]:
    parser = _LiveContent()
    parser.feed(html)
    parser.close()
    return [item for item in parser.live if PAYLOAD_MARKER in item]


def test_the_html_check_finds_a_live_payload_when_one_is_there() -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")])
    nb.cells[0].outputs = [nbformat.v4.new_output(
        "display_data", data={"text/html": f'<img src=x onerror="{PAYLOAD_MARKER}=1">', "text/plain": "x"})]
    html, _ = exporter().from_notebook_node(nb)
    assert live_content_with_marker(html)


def test_server_text_in_saved_widget_state_stays_data_unless_it_breaks_out() -> None:
    payload = f"</script><script>{PAYLOAD_MARKER}=1</script>"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")])
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {
        "version_major": 2, "version_minor": 0,
        "state": {"m": {"model_name": "SelectModel", "state": {"_options_labels": [payload]}}}}}
    html, _ = exporter().from_notebook_node(nb)
    assert PAYLOAD_MARKER in html and live_content_with_marker(html) == []  # nbconvert writes <\/script>
    broken = f'<script type="application/vnd.jupyter.widget-state+json">{{"a": "{payload}"}}</script>'
    assert live_content_with_marker(broken)  # had it not, the check would catch the break-out


@pytest.mark.parametrize("name", NAMES)
def test_the_rendered_html_holds_no_live_script_from_a_server(name: str) -> None:
    assert live_content_with_marker(rendered(name)) == []


def test_the_hostile_payloads_are_in_the_rendered_html_as_text() -> None:
    html = rendered("04-untrusted-output.ipynb")
    assert "&lt;script&gt;window.__anvia_pwned=1&lt;/script&gt;" in html
    assert '&lt;img src=x onerror="window.__anvia_pwned=1"&gt;' in html


# -- what each notebook teaches ----------------------------------------------------------------


def test_the_quickstart_reaches_a_first_call_in_five_code_cells_then_tools_form_panel_and_closing() -> None:
    nb = read("01-quickstart.ipynb")
    first = "\n".join(cell.source for cell in code_cells(nb)[:5])
    for step in ("%load_ext anvia_nb", "%mcp connect demo --stdio python -m anvia_nb.demo_server", "%mcp call demo."):
        assert step in first
    sources = "\n".join(cell.source for cell in code_cells(nb))
    for step in ("%mcp tools", "%mcp form demo.add", "%mcp panel", "%mcp close demo"):
        assert step in sources
    tools = next(cell for cell in code_cells(nb) if "%mcp tools" in cell.source)
    assert "echo" in "\n".join(o.get("data", {}).get("text/html", "") for o in tools.outputs)  # a DataFrame
    first_call = next(cell for cell in code_cells(nb) if "%mcp call demo.echo" in cell.source)
    assert "Hello from a notebook" in first_call.outputs[0]["data"]["text/plain"]


def test_the_quickstart_form_calls_again_after_its_connection_is_closed_and_reconnected() -> None:
    cells = code_cells(read("01-quickstart.ipynb"))
    close = next(i for i, cell in enumerate(cells) if cell.source.startswith("%mcp close demo"))
    form_results = [cell for cell in cells[close:] if "add_form.call()" in cell.source]
    assert form_results, "no form call after the close"
    assert form_results[-1].outputs[0]["data"]["text/plain"].startswith("[MCP demo · add] ok")


RULE_EXAMPLES = {  # each mapping rule, and the call that shows it
    "text content": "demo.echo",
    "texts concatenated": "demo.concat_texts",
    "image": "demo.image",
    "resources": "demo.embedded_blob_resource",
    "audio and resource_link": "demo.resource_link",
    "structuredContent": "demo.structured_only",
    "toolResult": '"toolResult"',
    "isError": "demo.fail_silently",
    "arguments": "echo_arguments.call(bad)",
    "outputSchema": "demo.schema_mismatch",
    "input_required": '"input_required"',
}


@pytest.mark.parametrize("rule", sorted(RULE_EXAMPLES))
def test_the_mapping_workshop_runs_an_example_of_every_rule_outside_the_solutions(rule: str) -> None:
    example = RULE_EXAMPLES[rule]
    code = [cell for cell in code_cells(read("02-result-mapping.ipynb"))
            if "solution" not in cell.metadata.get("tags", [])]
    assert any(example in cell.source and cell.outputs for cell in code), f"no run example of {rule}"


def test_the_mapping_workshop_shows_the_raw_result_beside_the_mapped_output() -> None:
    texts = "\n".join(output_texts(read("02-result-mapping.ipynb")))
    assert texts.count("raw:") >= 10 and texts.count("mapped:") >= 10
    assert "output_from_result" in "\n".join(cell.source for cell in code_cells(read("02-result-mapping.ipynb")))


def test_every_workshop_exercise_has_an_answer_cell_that_checks_itself_and_reveals_nothing() -> None:
    cells = read("02-result-mapping.ipynb").cells
    exercises = [i for i, cell in enumerate(cells) if "exercise" in cell.metadata.get("tags", [])]
    assert len(exercises) >= 8
    assert not [cell for cell in cells if "solution" in cell.metadata.get("tags", [])]
    for index in exercises:
        cell = cells[index]
        number = re.search(r"\*\*Exercise (\d+)\.\*\*", cells[index - 1].source)
        assert number, "an answer cell follows its question"
        assert cell.source.startswith("answer = ...") and f"check({number.group(1)}, answer)" in cell.source
        shown = "".join(output.get("data", {}).get("text/plain", "") for output in cell.outputs)
        assert shown.startswith(f"Exercise {number.group(1)}: no answer yet"), shown
        assert "right" not in shown and "Why" not in shown


def test_the_forms_notebook_covers_schema_forms_omission_progress_cancel_and_elicitation() -> None:
    nb = read("03-forms-and-panel.ipynb")
    sources = "\n".join(cell.source for cell in code_cells(nb))
    for needle in ("%mcp form demo.form_showcase", "demo.slow", "--timeout", ".cancel()",
                   "demo.confirm_action", "enable_elicitation(", "callback=", "%mcp panel"):
        assert needle in sources
    texts = "\n".join(output_texts(nb))
    assert "'step 4 of 4'" in texts
    assert "Confirmed: deploy to staging" in texts and "Declined:" in texts
    assert "'nickname': None" in texts and "'greeting'" not in texts  # untouched fields are not sent


def test_the_forms_notebook_scopes_its_elicitation_callbacks_so_later_requests_are_not_answered() -> None:
    cells = code_cells(read("03-forms-and-panel.ipynb"))
    for cell in cells:
        for line in cell.source.splitlines():
            if "enable_elicitation(" in line and "callback=" in line:
                assert line.lstrip().startswith("with "), f"a callback left installed: {line.strip()}"
    last = next(cell for cell in reversed(cells) if "demo.confirm_action" in cell.source)
    shown = "\n".join(output_texts(nbformat.v4.new_notebook(cells=[last])))
    assert "Cancelled:" in shown  # nobody answered for the person after the blocks


def test_the_untrusted_output_notebook_covers_escaping_provenance_schemas_secrets_and_model_context() -> None:
    nb = read("04-untrusted-output.ipynb")
    sources = "\n".join(cell.source for cell in code_cells(nb))
    for needle in ("demo.untrusted kind=script_tag", "demo.schema_mismatch", "demo.env_value name=API_TOKEN",
                   ".model_context()", "hide_server_errors"):
        assert needle in sources
    assert "<untrusted-tool-output" in "\n".join(output_texts(nb))


def test_the_real_servers_notebook_uses_pypi_servers_over_stdio_a_config_file_and_http() -> None:
    nb = read("05-real-servers.ipynb")
    sources = "\n".join(cell.source for cell in code_cells(nb))
    for needle in ("mcp-server-time", "mcp-server-git", "venv", "%mcp connect --config servers.json", "--http"):
        assert needle in sources
    texts = "\n".join(output_texts(nb))
    assert "mcp-time" in texts and "mcp-git" in texts and "demo_http: http" in texts
    assert "Start the notes" in texts  # git_log of the repository the notebook made


def test_the_protocol_notebook_traces_a_handshake_a_call_its_rounds_and_its_log_messages() -> None:
    nb = read("06-protocol-exchange.ipynb")
    code = "\n".join(cell.source for cell in code_cells(nb))
    assert "%mcp trace demo --call -1" in code and ".message(" in code and "%mcp log demo" in code
    texts = "\n".join(output_texts(nb))
    assert "server/discover" in texts
    assert "progress 1/3" in texts  # a call's progress, tied to its request
    assert "input required: confirm" in texts  # the two rounds of a call that needs input
    assert "log info demo.logs" in texts
    assert "the tool list of demo changed since" in texts and "added bonus" in texts
