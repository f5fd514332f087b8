"""%mcp resources, templates, read, prompts and prompt against the demo server in a real IPython
shell: DataFrames, reads and prompts shown safely with their provenance, links read only on
request, Tab completion from the server's completion/complete, and one-line errors for bad input."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.demo_server.hostile import MATH_LINK, PWNED_FLAG
from anvia_nb.demo_server.library import BLOB, NOTES
from anvia_nb.display import PromptView, ReadView
from anvia_nb.magic.matcher import completions_for_line
from anvia_nb.magic.output.library_tables import PROMPT_COLUMNS, RESOURCE_COLUMNS, TEMPLATE_COLUMNS
from anvia_nb.magic.subcommands import help_text
from anvia_nb.policy import NOT_MATH_CLASSES
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import DEMO_STDIO, run

TOKEN = "tok-77c1d0e9a4f2"


def _shown(value: object) -> str:
    bundle = value._repr_mimebundle_()  # type: ignore[attr-defined]
    return str(bundle["text/html"]) + "\n" + str(bundle["text/plain"])


def _html(value: object) -> str:
    return str(value._repr_mimebundle_()["text/html"])  # type: ignore[attr-defined]


def test_listings_are_dataframes_with_the_documented_columns(ip: InteractiveShell, demo: str) -> None:
    resources = run(ip, "resources")
    assert list(resources.columns) == RESOURCE_COLUMNS
    row = resources[resources["uri"] == "demo://data/sample.bin"].iloc[0]
    assert (row["name"], row["mimeType"], row["size"]) == ("sample", "application/octet-stream", len(BLOB))
    assert list(run(ip, "templates demo").columns) == TEMPLATE_COLUMNS
    prompts = run(ip, "prompts demo")
    assert list(prompts.columns) == PROMPT_COLUMNS
    greet = prompts[prompts["name"] == "greet"].iloc[0]
    assert (greet["arguments"], greet["required"]) == (["name", "language"], ["name"])
    assert "%mcp read NAME URI" in help_text() and "%mcp prompt NAME.PROMPT" in help_text()


def test_read_shows_text_escaped_and_blobs_as_size_with_their_provenance(ip: InteractiveShell, demo: str) -> None:
    note = run(ip, "read demo demo://notes/1")
    assert isinstance(note, ReadView) and note.text == NOTES["1"]
    assert "read from server demo" in _shown(note) and "Call Ada about the MCP demo." in _shown(note)
    blob = run(ip, "read demo demo://data/sample.bin")
    assert blob.data(0) == BLOB
    assert "256 bytes" in _shown(blob) and ".save(0, PATH)" in _shown(blob)
    logo = run(ip, "read demo demo://images/logo.png")
    assert "<img" in _shown(logo) and "data:image/png;base64," in _shown(logo)
    fake = run(ip, "read demo demo://hostile/html-as-png")
    assert "<img" not in _shown(fake) and "Not shown" in _shown(fake)  # HTML labelled PNG: checked, not shown
    templated = run(ip, "read demo note id=3")
    assert templated.text == NOTES["3"] and "Expanded from the template demo://notes/{id}" in _shown(templated)


def test_prompt_shows_messages_role_by_role_and_keeps_them_raw(ip: InteractiveShell, demo: str) -> None:
    view = run(ip, 'prompt demo.greet name="Ada Lovelace" language=norwegian')
    assert isinstance(view, PromptView)
    assert view.messages[1]["content"]["text"] == "Hei, Ada Lovelace!"
    shown = _shown(view)
    assert "message 0 · user" in shown and "message 1 · assistant" in shown
    review = _shown(run(ip, "prompt demo.review_note id=2"))
    assert "resource from server demo: demo://notes/2" in review and "image from server demo: image/png" in review


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("read demo demo://note/1", "'demo' lists no resource or template for 'demo://note/1'. Did you mean"),
        ("read demo note", "The template demo://notes/{id} needs id; give id=VALUE."),
        ("read demo note id=1 colour=red", "has no variable colour. It takes: id."),
        ("prompt demo.gret name=x", "'demo' has no prompt 'gret'. Did you mean greet?"),
        ("prompt demo.greet", "demo.greet was not asked for: it needs name; give name=VALUE."),
        ("prompt demo.greet name=x mood=y", "takes no argument mood. It takes: name, language."),
        ("prompt demo", "prompt takes NAME.PROMPT"),
        ("read demo", "Usage: %mcp read NAME URI"),
        ("read nowhere demo://x", "No connection named 'nowhere'"),
        ("resources --all", "Unknown option '--all'"),
        ("skill demo.summarize-note", "'demo' lists no skill 'summarize-note'. Did you mean summarize-notes?"),
        ("skill demo", "skill takes NAME.SKILL (a connection and one of its skills), not 'demo'."),
        ("skill", "Usage: %mcp skill NAME.SKILL [FILE]"),
        ("skills --all", "Unknown option '--all'. Usage: %mcp skills [NAME ...]"),
    ],
)
def test_bad_input_is_one_line_that_says_what_to_do(ip: InteractiveShell, demo: str, line: str, message: str) -> None:
    with pytest.raises(UsageError) as error:
        run(ip, line)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_a_resource_link_is_read_only_when_asked(ip: InteractiveShell, demo: str) -> None:
    result = run(ip, "call demo.resource_link")
    assert "(not fetched)" in _shown(result) and ".read_link(0)" in _shown(result)
    assert [link["uri"] for link in result.links] == ["demo://notes/1"]
    read = result.read_link(0)
    assert read.text == NOTES["1"] and "read on request from server demo" in _shown(read)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("%mcp rea", ["read"]),
        ("%mcp prom", ["prompt", "prompts"]),
        ("%mcp read demo demo://re", ["demo://readme"]),
        ("%mcp read demo no", ["note"]),
        ("%mcp read demo note ", ["id="]),
        ("%mcp read demo note id=", ["id=1", "id=2", "id=3"]),
        ("%mcp prompt demo.gr", ["demo.greet"]),
        ("%mcp prompt demo.greet ", ["name=", "language="]),
        ("%mcp prompt demo.greet name=x language=fr", ["language=french"]),
        ("%mcp prompt demo.greet name=x ", ["language="]),
    ],
)
def test_tab_completion_offers_names_variables_and_the_servers_suggestions(
    demo: str, line: str, expected: list[str]
) -> None:
    assert sorted(completions_for_line(line, get_runtime())) == sorted(expected)


def test_hostile_names_uris_and_messages_are_inert_and_not_math(ip: InteractiveShell, demo: str) -> None:
    frame = run(ip, "resources demo")
    html = frame._repr_html_()
    assert "<script>" not in html and "<img src=x" not in html and "&lt;script&gt;" in html
    assert NOT_MATH_CLASSES.split()[0] in html or "tex2jax_ignore" in html
    assert "⟨U+202E⟩" in frame.to_string()  # the RTL override is made visible, not obeyed
    prompts_html = run(ip, "prompts demo")._repr_html_()
    assert "<script>" not in prompts_html and "<b>x</b>" not in prompts_html
    uri = frame[frame["name"].str.startswith("<img")].iloc[0]["uri"]
    read = run(ip, f"read demo '{uri}'")
    hostile = _html(read)
    assert f"<script>window.{PWNED_FLAG}" not in hostile and "&lt;script&gt;" in hostile
    assert NOT_MATH_CLASSES in hostile and MATH_LINK in str(read.text)
    prompt = _html(run(ip, "prompt demo.hostile"))
    assert "<script>" not in prompt and "<h1>" not in prompt and "⟨U+202E⟩" in prompt
    assert 'href="javascript' not in prompt  # no link was made of the resource's URI
    assert "Not shown" in prompt  # the SVG labelled PNG is checked like a result's image


def test_a_secret_read_from_a_resource_is_masked_everywhere_it_is_shown(ip: InteractiveShell) -> None:
    run(ip, f"connect sec --env API_TOKEN={TOKEN} {DEMO_STDIO}")
    read = run(ip, "read sec env name=API_TOKEN")
    assert read.text == TOKEN  # Python keeps the exact value
    assert TOKEN not in _shown(read) + repr(read) and "••••••" in _shown(read)
    greeting = run(ip, f"prompt sec.greet name={TOKEN}")
    assert TOKEN not in _shown(greeting) + repr(greeting)
    assert TOKEN not in run(ip, "resources sec").to_string()
