"""The hostile corpus, and the demo tools that send it: every payload arrives exactly as written.

Rendering it safely is the display layer's job (tests/display); here we make sure the server
really sends it, so those tests and the browser tests face the real thing.
"""

from __future__ import annotations

import base64
import json

import mcp
import mcp_types as types
import pytest

from anvia_nb.demo_server.handlers import build_server
from anvia_nb.demo_server.hostile import (
    ENORMOUS_IMAGE,
    ENORMOUS_IMAGE_BASE64_CHARS,
    HOSTILE_CORPUS,
    PWNED_FLAG,
    hostile_content,
)
from tests.helpers.demo import wire


@pytest.mark.anyio
@pytest.mark.parametrize("name", list(HOSTILE_CORPUS))
async def test_untrusted_sends_each_hostile_payload_exactly_as_written(name: str) -> None:
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("untrusted", {"kind": name})
    assert [wire(item) for item in result.content] == HOSTILE_CORPUS[name]


@pytest.mark.anyio
async def test_untrusted_all_sends_every_payload_and_the_enormous_image_only_when_asked() -> None:
    expected = [item for items in HOSTILE_CORPUS.values() for item in items]
    async with mcp.Client(build_server()) as client:
        result = await client.call_tool("untrusted_all", {})
        enormous = await client.call_tool("untrusted", {"kind": ENORMOUS_IMAGE})
    assert [wire(item) for item in result.content] == expected
    (image,) = enormous.content
    assert isinstance(image, types.ImageContent)
    assert image.mime_type == "image/png"
    assert len(image.data) >= ENORMOUS_IMAGE_BASE64_CHARS * 0.99
    assert base64.b64decode(image.data[:12]).startswith(b"\x89PNG\r\n\x1a\n")


def test_every_payload_that_could_run_script_sets_the_pwned_flag_or_alerts() -> None:
    risky = ("<script", "onerror", "onload", "onclick", "onmouseover", "javascript:", "srcdoc")
    for name, items in HOSTILE_CORPUS.items():
        for item in items:
            text = json.dumps(item)
            if item.get("type") == "image":
                text += base64.b64decode(item["data"] + "==", validate=False).decode("latin-1")
            if any(marker in text for marker in risky):
                assert PWNED_FLAG in text or "alert(" in text, name


def test_the_enormous_image_is_a_valid_png_built_on_demand() -> None:
    (item,) = hostile_content(ENORMOUS_IMAGE)
    data = base64.b64decode(item["data"])
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert data.endswith(b"IEND\xaeB`\x82")
    assert ENORMOUS_IMAGE not in HOSTILE_CORPUS
