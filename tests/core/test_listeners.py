"""The listeners of a session's news (list changes, resource updates): a failing one is logged and
the others are still told; a stopped one is told no more."""

from __future__ import annotations

import logging

import pytest

from anvia_nb.core.api.listeners import Listeners


def test_a_failing_listener_is_logged_and_the_others_are_still_told(caplog: pytest.LogCaptureFixture) -> None:
    listeners = Listeners("change", logging.getLogger("anvia_nb.test.listeners"))
    heard: list[tuple[str, str]] = []

    def broken(_server: str, _what: str) -> None:
        raise ValueError("a widget's trouble")

    listeners.add(broken)
    stop = listeners.add(lambda server, what: heard.append((server, what)))
    with caplog.at_level(logging.ERROR, logger="anvia_nb.test.listeners"):
        listeners.tell("demo", "tools")
    assert heard == [("demo", "tools")]
    assert "a change listener failed for 'demo'" in caplog.text
    stop()
    stop()  # stopping twice is harmless
    listeners.tell("demo", "prompts")
    assert heard == [("demo", "tools")]
