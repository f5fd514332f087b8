"""An answer too large for a view is refused in one line, whether its text alone is already too
large (counted before it is masked or written as JSON, so a 200 MB answer is never copied) or only
its JSON is; an answer that fits is sent. Against the real demo server's ``echo``."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest

from anvia_nb import mcp
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.apps import INTERNAL_ERROR, AppRequestRefused
from anvia_nb.runtime import Runtime
from anvia_nb.runtime.app_bridge import AppBridge
from tests.helpers.support import DEMO_ARGS


@pytest.fixture(scope="module")
def bridge() -> Iterator[AppBridge]:
    runtime = Runtime()
    try:
        runtime.connect(mcp.stdio(name="sizes", command=sys.executable, args=DEMO_ARGS))
        yield AppBridge(runtime, runtime.server("sizes"), "echo", "ui://sizes/view")
    finally:
        runtime.shutdown()


def echo(bridge: AppBridge, message: str) -> object:
    return bridge.handle("tools/call", {"name": "echo", "arguments": {"message": message}})


def test_an_answer_whose_text_alone_is_too_large_is_refused_before_it_is_copied(
    bridge: AppBridge, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "APP_REPLY_CHARS", 2_000)
    with pytest.raises(AppRequestRefused) as refused:
        echo(bridge, "x" * 3_000)
    assert refused.value.code == INTERNAL_ERROR
    assert refused.value.message == "the answer is larger than a view is sent (at most 2,000 characters)"


def test_an_answer_at_the_bound_is_sent_and_one_character_more_is_refused(
    bridge: AppBridge, monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = echo(bridge, "y" * 500)
    size = len(json.dumps(answer, ensure_ascii=False))
    monkeypatch.setattr(limits, "APP_REPLY_CHARS", size)
    assert echo(bridge, "y" * 500) == answer
    monkeypatch.setattr(limits, "APP_REPLY_CHARS", size - 1)  # the text fits, its JSON does not
    with pytest.raises(AppRequestRefused, match=f"the answer is {size:,} characters: a view is sent at most"):
        echo(bridge, "y" * 500)
