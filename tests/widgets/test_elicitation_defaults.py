"""SEP-1034: an accepted answer is completed with the request's defaults for the fields it leaves
out, whoever gave it: a person's prompt or a callback given to ``enable_elicitation`` that accepts
without content, or with ``{}`` (conformance ``elicitation-sep1034-client-defaults``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from anvia_nb import mcp
from anvia_nb.runtime import Runtime
from anvia_nb.widgets import enable_elicitation
from anvia_nb.widgets.prompts.elicitation_prompt import ElicitationPrompt
from tests.helpers.waiting import WAIT_SECONDS, wait_until
from tests.helpers.widgets import form

SERVER = Path(__file__).parents[1] / "servers" / "defaults_elicit_server.py"
DEFAULTS = {"age": 30, "name": "John Doe", "score": 95.5, "status": "active", "verified": True}


@pytest.fixture
def elicit_runtime(runtime: Runtime) -> Runtime:
    runtime.connect(mcp.stdio(name="asks", command=sys.executable, args=[str(SERVER)]))
    return runtime


def _sent(runtime: Runtime) -> Any:
    outcome = runtime.run(runtime.server("asks").tool("register").call_outcome({}, timeout_seconds=WAIT_SECONDS))
    assert isinstance(outcome.output, str), outcome
    return json.loads(outcome.output)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ({"action": "accept"}, DEFAULTS),
        ({"action": "accept", "content": {}}, DEFAULTS),
        (
            {"action": "accept", "content": {"name": "Ada", "verified": False}},
            {**DEFAULTS, "name": "Ada", "verified": False},
        ),
    ],
)
def test_a_callbacks_accepted_answer_gets_the_defaults_of_the_fields_it_leaves_out(
    elicit_runtime: Runtime, answer: dict[str, Any], expected: dict[str, Any]
) -> None:
    with enable_elicitation("asks", runtime=elicit_runtime, callback=lambda _request: answer):
        assert _sent(elicit_runtime) == expected


def test_a_declined_answer_gets_no_content(elicit_runtime: Runtime) -> None:
    with enable_elicitation("asks", runtime=elicit_runtime, callback=lambda _request: {"action": "decline"}):
        assert _sent(elicit_runtime) is None


def test_the_prompt_sends_the_defaults_also_for_a_field_the_person_cleared(elicit_runtime: Runtime) -> None:
    router = enable_elicitation("asks", runtime=elicit_runtime)
    register = form("asks.register", runtime=elicit_runtime)
    register.call_button.click()
    wait_until(lambda: len(router.prompts) == 1, "the prompt")
    prompt: ElicitationPrompt = router.prompts[0]
    assert prompt.form is not None
    prompt.form.field("name").input.value = "Ada"
    prompt.form.field("age").input.value = "5"
    prompt.form.field("age").input.value = ""  # typed in, then cleared: left out, so its default (SEP-1034)
    prompt.accept_button.click()
    outcome = register.wait(WAIT_SECONDS)
    assert outcome is not None and isinstance(outcome.output, str)
    assert json.loads(outcome.output) == {**DEFAULTS, "name": "Ada"}


def test_a_handler_set_on_the_client_gets_the_defaults_too(elicit_runtime: Runtime) -> None:
    async def accept(_request: dict[str, Any]) -> dict[str, Any]:
        return {"action": "accept", "content": {"age": 7}}

    elicit_runtime.server("asks").client.set_elicitation_handler(accept)
    assert _sent(elicit_runtime) == {**DEFAULTS, "age": 7}
