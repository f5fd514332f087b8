"""Each notebook does what it teaches, checked on its code and its outputs, never on the wording of
its prose, which may be edited freely."""

from __future__ import annotations

import nbformat
import pytest

from tests.helpers.stored_notebooks import code_cells, output_texts, read, unanswered_exercises


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
    assert unanswered_exercises(read("02-result-mapping.ipynb")) >= 8


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
