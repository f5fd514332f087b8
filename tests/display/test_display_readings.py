"""Resource reads and prompts rendered without a server: hostile URIs, names, texts and messages
stay inert text (parsed, not substring-checked), images are checked as results' images are,
blobs show as their size, secrets are masked, and the provenance is anvia_nb's own chrome."""

from __future__ import annotations

from typing import Any

import pytest

from anvia_nb.core.protocol.readings import PromptResult, ResourceRead
from anvia_nb.demo_server.hostile import HOSTILE_PROMPT_MESSAGES, HOSTILE_RESOURCES, MATH_LINK, PWNED_FLAG
from anvia_nb.display import PromptView, ReadView, RenderSettings, ResultView
from anvia_nb.errors import InvalidValueError
from anvia_nb.policy import NOT_MATH_CLASSES
from tests.helpers.display import PNG, assert_safe_html, b64, outcome

SECRET = "sk-live-4f8a2b9c1d"


def read(*contents: dict[str, Any], on_request: bool = False, secrets: tuple[str, ...] = ()) -> ResourceRead:
    uri = str(contents[0].get("uri")) if contents else "demo://x"
    return ResourceRead("demo", uri, {"contents": list(contents)}, 0.1, on_request=on_request, secrets=secrets)


@pytest.mark.parametrize("index", range(len(HOSTILE_RESOURCES)))
def test_hostile_resources_read_stay_inert_text(index: int) -> None:
    _listed, content = HOSTILE_RESOURCES[index]
    bundle = ReadView(read(content))._repr_mimebundle_()
    audit = assert_safe_html(bundle["text/html"])
    assert PWNED_FLAG not in str(audit.elements)
    assert NOT_MATH_CLASSES in bundle["text/html"]
    if "text" in content:
        assert MATH_LINK in audit.text and "⟨U+202E⟩" in audit.text  # TeX as characters, the override visible
    else:
        assert "Not shown" in audit.text  # HTML labelled PNG: its bytes say otherwise


def test_a_hostile_prompt_stays_inert_role_by_role() -> None:
    result = PromptResult("demo", "hostile", {}, {"description": "<b>d</b>", "messages": HOSTILE_PROMPT_MESSAGES}, 0.1)
    view = PromptView(result)
    assert view.messages == HOSTILE_PROMPT_MESSAGES  # raw, exact
    bundle = view._repr_mimebundle_()
    audit = assert_safe_html(bundle["text/html"])
    assert "message 0 · user" in audit.text and "message 1 · assistant" in audit.text
    assert "<script>" in audit.text and "<h1>" in audit.text  # shown as the characters they are
    assert "⟨U+202E⟩" in audit.text and MATH_LINK in audit.text
    assert "Not shown" in audit.text  # the SVG labelled PNG


def test_blobs_show_their_size_and_how_to_save_them_images_show_when_their_bytes_prove_it(tmp_path: Any) -> None:
    view = ReadView(
        read(
            {"uri": "demo://b", "mimeType": "application/octet-stream", "blob": b64(bytes(300))},
            {"uri": "demo://i", "mimeType": "image/png", "blob": b64(PNG)},
        )
    )
    audit = assert_safe_html(view._repr_mimebundle_()["text/html"])
    assert "300 bytes" in audit.text and ".save(0, PATH)" in audit.text
    assert any(node.tag == "img" for node in audit.elements)
    assert view.save(0, tmp_path / "b.bin").read_bytes() == bytes(300)
    assert view.data(1) == PNG
    with pytest.raises(InvalidValueError, match=r"has 2 content\(s\): index 5 is out of range"):
        view.data(5)


def test_provenance_says_who_sent_it_and_whether_it_was_asked_for() -> None:
    own = ReadView(read({"uri": "demo://n", "text": "x"}))._repr_mimebundle_()["text/plain"]
    linked = ReadView(read({"uri": "demo://n", "text": "x"}, on_request=True))._repr_mimebundle_()["text/plain"]
    assert "read from server demo." in own and "read on request from server demo." in linked


def test_secrets_are_masked_in_reads_prompts_and_their_reprs() -> None:
    view = ReadView(read({"uri": f"demo://{SECRET}", "text": f"token={SECRET}"}, secrets=(SECRET,)))
    shown = str(view._repr_mimebundle_()) + repr(view)
    assert SECRET not in shown and "••••••" in shown
    assert view.text == f"token={SECRET}"
    prompt = PromptView(
        PromptResult(
            "demo",
            "p",
            {},
            {"messages": [{"role": "user", "content": {"type": "text", "text": SECRET}}]},
            0.1,
            secrets=(SECRET,),
        )
    )
    assert SECRET not in str(prompt._repr_mimebundle_())


def test_a_result_view_without_a_connection_says_how_to_read_its_links() -> None:
    link = {"type": "resource_link", "uri": "demo://notes/1", "name": "n"}
    view = ResultView(outcome({"content": [link]}), RenderSettings())
    assert view.links == [link]
    assert ".read_link(0)" in view._repr_mimebundle_()["text/plain"]
    with pytest.raises(InvalidValueError, match=r"await server\.read_link\(outcome, i\)"):
        view.read_link(0)
