"""Where people look (issue 38): the panel's Audit tab and the marks on flagged tools, with the
poisoned demo server (its SDK server in memory); and ``model_context()`` of a flagged tool."""

from __future__ import annotations

from pathlib import Path

import pytest

from anvia_nb import mcp
from anvia_nb.core.api.audit import audit_servers
from anvia_nb.demo_server.poisoned import RUG_PULL
from anvia_nb.demo_server.poisoned_server import build_poisoned_server
from anvia_nb.display import RenderSettings
from anvia_nb.display.model_context import model_context_from_outcome
from anvia_nb.frames.audit import accept, findings_frame
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import panel
from anvia_nb.widgets.explorer.panel import Panel
from tests.helpers.waiting import wait_until

NAME = "notes"


@pytest.fixture
def explorer(runtime: Runtime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Panel:
    monkeypatch.chdir(tmp_path)  # the lock file the panel reads is mcp-lock.json here
    runtime.connect(mcp.memory(name=NAME, server=build_poisoned_server()))
    return panel(runtime=runtime)


def _labels(explorer: Panel) -> dict[str, str]:
    return {value: label for label, value in explorer.tools.options}


def test_the_audit_tab_lists_the_findings_with_what_no_one_sees_made_visible_and_escaped(explorer: Panel) -> None:
    assert "Audit" in explorer.tabs.titles
    table = explorer.audit.table.value
    assert "hidden-tags" in table and "addressed-to-model" in table and "exfiltration-link" in table
    assert "TAG CHARACTERS" in table and "Ignore all previous instructions." in table  # decoded
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in table and "\u202e" not in table
    assert not any(0xE0000 <= ord(char) <= 0xE007F for char in table)
    assert "&lt;IMPORTANT&gt;" in table and "<IMPORTANT>" not in table  # escaped, never markup
    assert "%mcp audit notes" in table  # prompts, resources and pins are the magic's


def test_each_flagged_tool_is_marked_with_its_severity_and_its_reasons(explorer: Panel) -> None:
    labels = _labels(explorer)
    assert labels["translate"].startswith("⚠ high · translate")
    assert labels["slugify"].startswith("⚠ medium · slugify")
    for control in ("multiply", "list_notes", "read_note", "export_notes", RUG_PULL):
        assert labels[control].startswith(control), labels[control]
    marks = explorer.audit.marks.value  # under the list: the count, the reasons in its tooltip
    assert "tools flagged by the audit" in marks
    assert 'title="' in marks and "translate: hidden-tags (high), addressed-to-model (high)" in marks
    assert "multiply" not in marks
    explorer.select(NAME, "translate")
    assert "translate is flagged by the audit: hidden-tags (high)" in explorer.audit.note.value
    explorer.select(NAME, "multiply")
    assert explorer.audit.note.value == ""


def test_findings_are_computed_once_per_listing_and_again_after_a_rug_pull(explorer: Panel, runtime: Runtime) -> None:
    computed = explorer.audit.computed
    for words in ("no", "not", "note", ""):
        explorer.filter.value = words  # the list is redrawn; the audit is not run again
    explorer.refresh()
    assert explorer.audit.computed == computed
    server = runtime.server(NAME)
    runtime.run(server.tool(RUG_PULL).call_outcome({}))
    wait_until(lambda: _labels(explorer)["multiply"].startswith("⚠ high"), "multiply marked after its rug pull")
    assert explorer.audit.computed == computed + 1
    assert "multiply: addressed-to-model (high)" in explorer.audit.marks.value


def test_an_accepted_finding_is_listed_with_its_reason_and_no_longer_marked(
    explorer: Panel, runtime: Runtime, tmp_path: Path
) -> None:
    frame = findings_frame(runtime.run(audit_servers([runtime.server(NAME)])))
    rows = frame[(frame["item"] == "icon_for")]
    accept(rows, "our own icon font, checked", lock=tmp_path / "mcp-lock.json")
    explorer.refresh()
    assert _labels(explorer)["icon_for"] == "icon_for"
    assert "our own icon font, checked" in explorer.audit.table.value


def test_a_viewer_sees_the_marks_but_not_the_evidence_nor_what_the_author_did_not_name(runtime: Runtime) -> None:
    runtime.connect(mcp.memory(name=NAME, server=build_poisoned_server()))
    shown = panel(
        runtime=runtime, settings=RenderSettings(hide_server_errors=True), tools=["translate", "multiply", "pad_text"]
    )
    labels = _labels(shown)
    assert labels["translate"].startswith("⚠ high") and labels["multiply"] == "multiply"
    table = shown.audit.table.value
    assert "hidden-tags" in table and "pad_text" in table
    assert "Ignore all previous" not in table and "TAG CHARACTERS" not in table  # no evidence
    assert "%mcp" not in table  # nothing to type
    for unnamed in ("calculate", "render_chart", "summarize", "capability-flow", "instructions"):
        assert unnamed not in table


def test_model_context_of_a_flagged_tool_warns_the_model_and_of_a_clean_one_does_not(runtime: Runtime) -> None:
    runtime.connect(mcp.memory(name=NAME, server=build_poisoned_server()))
    server = runtime.server(NAME)
    flagged = model_context_from_outcome(runtime.run(server.tool("translate").call_outcome({"text": "hi"})))
    assert "Warning: the audit flagged the definition of this tool (hidden-tags (high)" in flagged
    assert flagged.index("Warning") < flagged.index("<untrusted-tool-output server=")
    clean = model_context_from_outcome(runtime.run(server.tool("multiply").call_outcome({"a": 2, "b": 3})))
    assert "flagged" not in clean
