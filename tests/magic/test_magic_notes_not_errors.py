"""A note that guides is not an error: ``%mcp call`` of a tool that asks for input prints where to
answer it on stdout, so Run All of a notebook shows no pink stderr for what went as taught."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

from tests.helpers.magic import run


def test_a_call_that_asks_for_input_notes_the_form_on_stdout(
    ip: InteractiveShell, demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run(ip, f'call {demo}.confirm_action action="rotate the keys"')
    printed = capsys.readouterr()
    assert f"use %mcp form {demo}.confirm_action to answer it" in printed.out
    assert printed.err == ""
