"""A listing the server refuses with -32601 Method not found is an empty listing and one note,
for every listing (tools, resources, templates, prompts): the sqlite and duckdb reference servers
declare ``resources`` without ``resources/templates/list``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from tests.helpers.magic import run

REFUSING = Path(__file__).parents[1] / "servers" / "refusing_server.py"
METHODS = {
    "tools": "tools/list",
    "resources": "resources/list",
    "templates": "resources/templates/list",
    "prompts": "prompts/list",
}


def _connect(ip: InteractiveShell, *refused: str) -> None:
    run(ip, f"connect refusing --stdio {sys.executable} {REFUSING} {' '.join(refused)}")


@pytest.mark.parametrize("listing", list(METHODS))
def test_a_refused_listing_is_empty_with_one_note(ip: InteractiveShell, listing: str) -> None:
    _connect(ip, METHODS[listing])
    with capture_output() as captured:
        frame = run(ip, f"{listing} refusing")
    assert len(frame) == 0
    notes = [line for line in captured.stdout.splitlines() if line.startswith("note:")]
    assert len(notes) == 1, captured.stdout
    assert notes[0].startswith(f"note: 'refusing' has no {METHODS[listing]} (-32601 Method not found)")


def test_the_listings_the_server_answers_show_without_a_note(ip: InteractiveShell) -> None:
    _connect(ip, "resources/templates/list")
    for listing in ("tools", "resources", "prompts"):
        with capture_output() as captured:
            frame = run(ip, f"{listing} refusing")
        assert len(frame) == 1 and "note:" not in captured.stdout
    with capture_output() as captured:
        assert len(run(ip, "templates refusing")) == 0
    assert "resources/templates/list" in captured.stdout


def test_reading_a_uri_still_works_when_templates_are_refused(ip: InteractiveShell) -> None:
    from anvia_nb.runtime import get_runtime, library

    _connect(ip)
    runtime = get_runtime()
    library.check_uri(runtime, "refusing", "refusing://one")  # needs the templates listing: empty, not an error
    assert "resourceTemplates" in runtime.server("refusing").client.listing_notes


def test_a_server_that_refuses_tools_list_connects_with_no_tools(ip: InteractiveShell) -> None:
    from anvia_nb.runtime import get_runtime

    with capture_output() as captured:
        _connect(ip, "tools/list")
    assert get_runtime().server("refusing").tools == []
    assert captured.stdout.splitlines()[0].endswith("0 tools (it has no tools/list: -32601 Method not found)")
