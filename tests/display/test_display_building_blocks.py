"""The HTML builder refuses unsafe markup; text preparation and image checks do what they promise;
and the display layer imports nothing it must not."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import anvia_nb.display
from anvia_nb.display import RenderSettings
from anvia_nb.display._html import Html, element, join, text
from anvia_nb.display._images import base64_size, check_image
from anvia_nb.policy import ShowPolicy
from tests.helpers.display import GIF, PNG, SVG, b64


def mask_secrets(text: str, secrets: list[str]) -> str:
    return ShowPolicy().with_secrets(secrets).mask(text)


def mask_json(value: object, secrets: list[str]) -> object:
    return ShowPolicy().with_secrets(secrets).mask_json(value)


def test_builder_escapes_text_children_and_attribute_values() -> None:
    built = element("div", "<b>&", text("<i>"), cls="anvia-x", title='" onclick="x')
    assert built.markup == '<div class="anvia-x" title="&quot; onclick=&quot;x">&lt;b&gt;&amp;&lt;i&gt;</div>'


def test_builder_nests_built_html_unescaped() -> None:
    assert join([element("b", "x"), "<"]).markup == "<b>x</b>&lt;"


@pytest.mark.parametrize("tag", ["script", "iframe", "svg", "a", "object", "embed", "style", "SPAN"])
def test_builder_refuses_tags_outside_the_allow_list(tag: str) -> None:
    with pytest.raises(ValueError, match="not allowed"):
        element(tag)


def test_builder_refuses_foreign_classes_unknown_styles_and_unvalidated_src() -> None:
    with pytest.raises(ValueError, match="anvia- class"):
        element("div", cls="jp-OutputArea")
    with pytest.raises(ValueError, match="style constants"):
        element("div", style="color:red")
    for src in ("javascript:alert(1)", "https://evil.example/x.png", "data:text/html;base64,PHM+", "data:image/png,x"):
        with pytest.raises(ValueError, match="validated image"):
            element("img", src=src)
    with pytest.raises(ValueError, match="validated image"):
        element("div", src="data:image/png;base64,AAAA")
    with pytest.raises(TypeError):
        element("div", onclick="x")  # type: ignore[call-arg]


def test_html_values_cannot_be_made_from_raw_markup() -> None:
    with pytest.raises(ValueError, match="not by hand"):
        Html("<script>x</script>")


def test_mask_secrets_covers_escaped_json_and_url_forms_and_ignores_empty_secrets() -> None:
    secret = 'a&b<c>"d e'
    text = secret + " a&amp;b&lt;c&gt;&quot;d e " + 'a&b<c>\\"d e' + " a%26b%3Cc%3E%22d%20e"
    assert mask_secrets(text, [secret, ""]) == "•••••• •••••• •••••• ••••••"
    assert mask_secrets("keep", [""]) == "keep"


def test_mask_json_masks_keys_and_values_and_keeps_other_types() -> None:
    assert mask_json({"tok-123": ["tok-123", 1, None, {"x": "a-tok-123"}]}, ["tok-123"]) == {
        "••••••": ["••••••", 1, None, {"x": "a-••••••"}]
    }


def test_visible_text_marks_controls_and_keeps_newlines_and_tabs() -> None:
    shown = ShowPolicy().visible("a\tb\nc\x1b[1m\u200d\x9b\x00\x7f")
    assert shown == "a\tb\nc⟨ESC⟩[1m⟨U+200D⟩⟨U+009B⟩⟨NUL⟩⟨DEL⟩"


def test_prepare_text_cuts_before_marking_and_counts_what_it_left_out() -> None:
    prepared = ShowPolicy().prepare("abc" * 1000, 10)
    assert prepared.plain == "abcabcabca"
    assert prepared.hidden_chars == 2990
    costly = ShowPolicy().prepare("\u202e" * 100, 60)
    assert costly.cost == 60 and costly.markers == 60
    assert costly.hidden_chars == 100 - len(costly.segments) == 40


def test_image_check_proves_type_from_bytes_and_rejects_the_rest() -> None:
    assert check_image(b64(PNG), "image/png", 10_000).ok
    assert check_image(b64(PNG), "IMAGE/PNG; charset=x", 10_000).ok
    assert check_image(b64(SVG), "image/svg+xml", 10_000).ok
    assert check_image(b64(GIF), "image/jpg", 10_000).reason == "its bytes are not image/jpeg"
    assert check_image(b64(PNG)[:-2], "image/png", 10_000).reason == "its base64 does not decode"
    assert check_image(b64(PNG), "image/png", 5).reason == "it is larger than the 5 byte limit"
    assert check_image(None, "image/png", 5).reason == "its data is not a base64 string"
    assert check_image("", "image/png", 5).reason == "it is empty"
    assert base64_size(b64(b"x" * 31)) == 31


def test_render_settings_have_the_documented_defaults_and_refuse_negative_limits() -> None:
    assert RenderSettings() == RenderSettings(20_000, 5 * 1024 * 1024, 2_000, False)
    with pytest.raises(ValueError, match="non-negative"):
        RenderSettings(max_output_chars=-1)


def test_display_imports_only_the_stdlib_errors_core_types_and_itself() -> None:
    allowed_internal = {
        "anvia_nb.errors",
        "anvia_nb.core.protocol.types",
        "anvia_nb.core.protocol.content",
        "anvia_nb.core.protocol.readings",
        "anvia_nb.policy",
        "anvia_nb._visible",
        "anvia_nb._passthrough",  # the views' properties that read their value's fields (stdlib only)
        "anvia_nb.core.api.dataframes",  # where the DataFrame layer lends r.frame() its table maker
        "anvia_nb.core.protocol.limits",  # the app view bounds, written once there
    }
    package = Path(anvia_nb.display.__file__).parent
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top == "anvia_nb":
                    assert name in allowed_internal or name.startswith("anvia_nb.display"), (path.name, name)
                else:
                    assert top in sys.stdlib_module_names or top == "__future__", (path.name, name)
