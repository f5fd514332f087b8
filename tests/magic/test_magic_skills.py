"""``%mcp skills`` and ``%mcp skill NAME.SKILL [FILE]`` in a real IPython shell against the demo
server: a DataFrame of skills, one loaded and shown escaped, Tab over skills and their files, and
mistakes answered in one line (test_magic_resources_prompts.py, with the other listings')."""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.matcher import completions_for_line
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run


def test_skills_are_a_dataframe_of_every_connection(ip: InteractiveShell, demo: str) -> None:
    frame = run(ip, "skills")
    assert list(frame.columns) == ["server", "name", "description", "uri", "files"]
    assert list(frame["name"]) == ["summarize-notes", "review-args"] and list(frame["files"]) == [2, 1]
    assert frame["description"][0] == "Summarize the demo server's notes in three lines"
    assert list(run(ip, f"skills {demo}")["uri"]) == list(frame["uri"])


def test_a_loaded_skill_is_shown_as_a_read_with_its_markup_escaped(ip: InteractiveShell, demo: str) -> None:
    view = run(ip, "skill demo.review-args")
    html = view._repr_mimebundle_()["text/html"]
    assert "&lt;b&gt;Markup in a skill is text&lt;/b&gt;" in html and "<b>Markup" not in html
    assert "read from server demo" in html
    style = run(ip, "skill demo.summarize-notes references/STYLE.md")
    assert "Short sentences. No jargon." in style._repr_mimebundle_()["text/html"]
    assert "skill://summarize-notes/references/STYLE.md" in style._repr_mimebundle_()["text/html"]


def test_tab_offers_skills_then_their_files(ip: InteractiveShell, demo: str) -> None:
    runtime = get_runtime()
    assert completions_for_line("%mcp skill demo.su", runtime) == ["demo.summarize-notes"]
    assert completions_for_line("%mcp skill demo.summarize-notes ", runtime) == ["SKILL.md", "references/STYLE.md"]
    assert "skills" in completions_for_line("%mcp ski", runtime)
