"""Person-in-the-loop without a browser: a server asks, the prompt shows, only a click answers.

``confirm_action`` of the demo server asks by form elicitation (``confirm`` boolean, optional
``reason``) and reports the answer as text, so each path is read back from the server's result.
"""

from __future__ import annotations

import contextvars
from typing import Any

import pytest

from anvia_nb.runtime import Runtime
from anvia_nb.widgets import enable_elicitation
from anvia_nb.widgets.forms.tool_form import ToolForm
from anvia_nb.widgets.prompts.elicitation import ElicitationPrompt, _host_for, answer_from, hosting, router_for
from tests.helpers.waiting import WAIT_SECONDS, wait_until
from tests.helpers.widgets import form


def ask(rt: Runtime, action: str) -> tuple[ToolForm, ElicitationPrompt]:
    """Call confirm_action from a form and wait (bounded) for its prompt to appear."""
    confirm = form("demo.confirm_action", runtime=rt)
    confirm.arguments.field("action").input.value = action
    confirm.call_button.click()
    wait_until(lambda: len(confirm.prompt_area.children) == 1, "the prompt")
    router = router_for(rt.server("demo"))
    assert router is not None and len(router.prompts) == 1
    prompt = router.prompts[0]
    assert confirm.prompt_area.children == (prompt.widget,)
    return confirm, prompt


def result_text(tool_form: ToolForm) -> str:
    text: str = tool_form.output.outputs[0]["data"]["text/plain"]
    return text


def test_accepting_with_confirm_true_sends_the_answer_and_the_server_confirms(demo_runtime: Runtime) -> None:
    confirm, prompt = ask(demo_runtime, "deploy")
    assert confirm.running and prompt.answer is None  # nothing is sent without the person's choice
    assert prompt.form is not None
    prompt.form.field("confirm").input.value = True
    prompt.form.field("reason").input.value = "tested"
    prompt.accept_button.click()
    outcome = confirm.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "Confirmed: deploy (reason: tested)"
    assert "Confirmed: deploy" in result_text(confirm)
    assert prompt.answer == {"action": "accept", "content": {"confirm": True, "reason": "tested"}}
    assert all(b.disabled for b in (prompt.accept_button, prompt.decline_button, prompt.cancel_button))
    assert prompt.status.value == "You accepted; the answer was sent."


@pytest.mark.parametrize(("button", "verdict"), [("decline_button", "Declined"), ("cancel_button", "Cancelled")])
def test_decline_and_cancel_reach_the_server_as_such(demo_runtime: Runtime, button: str, verdict: str) -> None:
    confirm, prompt = ask(demo_runtime, "drop table")
    getattr(prompt, button).click()
    outcome = confirm.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == f"{verdict}: drop table"
    assert prompt.answer == {"action": "decline" if verdict == "Declined" else "cancel"}


def test_the_prompt_shows_which_server_asks_and_its_message_escaped(demo_runtime: Runtime) -> None:
    confirm, prompt = ask(demo_runtime, '<img src=x onerror="window.__anvia_pwned=1">')
    header, message = prompt.widget.children[0].value, prompt.widget.children[1].value
    assert "<b>demo</b>" in header and "asks you for input" in header
    assert "message from server demo" in message
    assert "<img" not in message and "&lt;img src=x onerror=" in message
    assert prompt.server == "demo" and prompt.mode == "form"
    prompt.cancel_button.click()
    confirm.wait(WAIT_SECONDS)


def test_accept_is_disabled_with_a_reason_until_the_requested_form_is_valid() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string", "minLength": 3}}, "required": ["name"]}
    prompt = ElicitationPrompt({"server": "s", "mode": "form", "message": "Who?", "requestedSchema": schema})
    assert prompt.form is not None
    prompt.form.field("name").input.value = "ab"
    assert prompt.accept_button.disabled and prompt.reason.value.startswith("Cannot accept yet: name")
    prompt.accept()
    assert prompt.answer is None
    prompt.form.field("name").input.value = "abc"
    assert not prompt.accept_button.disabled
    seen: list[dict[str, Any]] = []
    prompt.on_answer(seen.append)
    prompt.accept_button.click()
    prompt.decline()  # settled once: later choices change nothing
    assert seen == [{"action": "accept", "content": {"name": "abc"}}] and prompt.answer == seen[0]


def test_url_mode_shows_the_url_as_escaped_text_without_any_link() -> None:
    url = 'https://example.invalid/"><script>window.__anvia_pwned=1</script>'
    prompt = ElicitationPrompt({"server": "s", "mode": "url", "message": "Sign in", "url": url})
    markup = " ".join(
        child.value for child in prompt.widget.children if hasattr(child, "value") and isinstance(child.value, str)
    )
    assert prompt.form is None
    assert "<script" not in markup and "&lt;script&gt;" in markup
    assert "<a" not in markup and "href" not in markup
    assert "never opens this link" in markup and "asks you to visit a URL" in markup
    prompt.accept_button.click()
    assert prompt.answer == {"action": "accept"}


def test_an_unanswered_prompt_is_cancelled_after_its_timeout(demo_runtime: Runtime) -> None:
    enable_elicitation("demo", runtime=demo_runtime, timeout_seconds=0.3)
    confirm, prompt = ask(demo_runtime, "wait")
    outcome = confirm.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "Cancelled: wait"
    assert prompt.answer == {"action": "cancel"} and "No answer within 0.3 s" in prompt.status.value


def test_cancelling_the_call_withdraws_the_open_prompt(demo_runtime: Runtime) -> None:
    confirm, prompt = ask(demo_runtime, "deploy")
    confirm.cancel_button.click()
    confirm.wait(30)
    assert result_text(confirm).startswith("Cancelled: the call to demo · confirm_action")
    wait_until(lambda: prompt.answer is not None, "the prompt to be withdrawn")
    assert prompt.answer == {"action": "cancel"} and prompt.accept_button.disabled
    echo = form("demo.echo", runtime=demo_runtime)
    echo.arguments.field("message").input.value = "usable"
    echo.call()
    assert (outcome := echo.wait(WAIT_SECONDS)) is not None and outcome.output == "usable"


def test_a_callback_answers_outside_a_notebook(demo_runtime: Runtime) -> None:
    asked: list[dict[str, Any]] = []

    def callback(request: dict[str, Any]) -> dict[str, Any]:
        asked.append(request)
        return {"action": "accept", "content": {"confirm": True, "reason": "by callback"}}

    router = enable_elicitation(demo_runtime.server("demo"), callback=callback)
    outcome = demo_runtime.call("demo", "confirm_action", {"action": "ship"})
    assert outcome.output == "Confirmed: ship (reason: by callback)"
    assert len(asked) == 1 and asked[0]["server"] == "demo" and asked[0]["mode"] == "form"
    assert asked[0]["requestedSchema"]["required"] == ["confirm"]
    assert router.answers[-1][1]["action"] == "accept" and router.prompts == []

    confirm = form("demo.confirm_action", runtime=demo_runtime)  # a form keeps the user's callback
    confirm.arguments.field("action").input.value = "from a form"
    confirm.call()
    done = confirm.wait(WAIT_SECONDS)
    assert done is not None and done.output == "Confirmed: from a form (reason: by callback)"
    assert confirm.prompt_area.children == () and len(asked) == 2


def test_an_async_callback_answers_too(demo_runtime: Runtime) -> None:
    async def callback(request: dict[str, Any]) -> dict[str, Any]:
        return {"action": "decline"}

    enable_elicitation("demo", runtime=demo_runtime, callback=callback)
    assert demo_runtime.call("demo", "confirm_action", {"action": "x"}).output == "Declined: x"


def test_without_a_notebook_a_form_or_a_callback_the_request_is_cancelled(demo_runtime: Runtime) -> None:
    enable_elicitation("demo", runtime=demo_runtime)
    outcome = demo_runtime.call("demo", "confirm_action", {"action": "nobody"})
    assert outcome.output == "Cancelled: nobody"  # at once: nobody is asked, nothing waits for an answer


def test_a_malformed_callback_answer_fails_the_call_instead_of_reaching_the_server(demo_runtime: Runtime) -> None:
    enable_elicitation("demo", runtime=demo_runtime, callback=lambda request: {"action": "yes please"})
    outcome = demo_runtime.call("demo", "confirm_action", {"action": "x"})
    assert outcome.output is None and outcome.raw is None
    assert "elicitation failed: an elicitation answer's action must be one of" in str(outcome.error)
    with pytest.raises(ValueError, match="action must be one of accept, decline, cancel"):
        answer_from({"action": "yes please"})
    with pytest.raises(ValueError, match="must be a dict"):
        answer_from(["accept"])
    assert answer_from({"action": "decline", "content": {"x": 1}}) == {"action": "decline"}


def test_a_request_delivered_outside_the_calls_task_still_finds_the_running_form(demo_runtime: Runtime) -> None:
    client = demo_runtime.server("demo").client
    host = form("demo.echo", runtime=demo_runtime)
    assert _host_for(client) is None
    with hosting(client, host):
        assert contextvars.Context().run(_host_for, client) is host  # e.g. the SDK's receive loop
    assert _host_for(client) is None


def test_a_callback_used_as_a_context_manager_is_removed_on_leaving_the_block(demo_runtime: Runtime) -> None:
    with enable_elicitation("demo", runtime=demo_runtime, callback=lambda request: {"action": "decline"}) as router:
        assert router_for(demo_runtime.server("demo")) is router
        assert demo_runtime.call("demo", "confirm_action", {"action": "inside"}).output == "Declined: inside"
    assert router_for(demo_runtime.server("demo")) is None
    assert demo_runtime.server("demo").client.elicitation_handler is None
    confirm, prompt = ask(demo_runtime, "after")  # a later form asks the person again
    assert prompt.form is not None
    prompt.form.field("confirm").input.value = True
    prompt.accept_button.click()
    outcome = confirm.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "Confirmed: after"


def test_removing_a_callback_restores_the_handler_it_replaced(demo_runtime: Runtime) -> None:
    server = demo_runtime.server("demo")
    approve = enable_elicitation(server, callback=lambda r: {"action": "accept", "content": {"confirm": True}})
    decline = enable_elicitation(server, callback=lambda r: {"action": "decline"})
    assert demo_runtime.call("demo", "confirm_action", {"action": "a"}).output == "Declined: a"
    decline.remove()
    decline.remove()  # idempotent
    assert router_for(server) is approve
    assert demo_runtime.call("demo", "confirm_action", {"action": "b"}).output == "Confirmed: b"
    outer = enable_elicitation(server, callback=lambda r: {"action": "decline"})
    approve.remove()  # out of order: the newer one stays in charge, then falls back past it
    assert demo_runtime.call("demo", "confirm_action", {"action": "c"}).output == "Declined: c"
    outer.remove()
    assert server.client.elicitation_handler is None and router_for(server) is None
    assert demo_runtime.call("demo", "confirm_action", {"action": "d"}).output == "Cancelled: d"


SEP1034_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "default": True},
    },
}


def test_accept_sends_the_defaults_shown_with_what_the_person_typed() -> None:
    prompt = ElicitationPrompt({"server": "s", "mode": "form", "requestedSchema": SEP1034_SCHEMA})
    assert not prompt.accept_button.disabled
    prompt.accept_button.click()
    assert prompt.answer == {
        "action": "accept",
        "content": {"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": True},
    }

    typed = ElicitationPrompt({"server": "s", "mode": "form", "requestedSchema": SEP1034_SCHEMA})
    assert typed.form is not None
    typed.form.field("name").input.value = "Ann"
    typed.form.field("age").input.value = "41"
    typed.accept()
    assert typed.answer == {
        "action": "accept",
        "content": {"name": "Ann", "age": 41, "score": 95.5, "status": "active", "verified": True},
    }


def test_accept_stays_disabled_while_a_required_field_is_empty() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "note": {"type": "string"}},
        "required": ["name"],
    }
    prompt = ElicitationPrompt({"server": "s", "mode": "form", "message": "Who?", "requestedSchema": schema})
    assert prompt.form is not None
    assert prompt.accept_button.disabled and prompt.reason.value == "Cannot accept yet: name: required, but empty"
    prompt.accept()
    assert prompt.answer is None
    prompt.form.field("name").input.value = "Ann"
    assert not prompt.accept_button.disabled and prompt.reason.value == ""
    prompt.form.field("name").input.value = ""
    assert prompt.accept_button.disabled
    prompt.form.field("name").input.value = "Bo"
    prompt.accept_button.click()
    assert prompt.answer == {"action": "accept", "content": {"name": "Bo"}}


def test_a_prompt_reads_as_text_without_widgets() -> None:
    prompt = ElicitationPrompt({"server": "s\u202e", "mode": "url", "url": "https://example.invalid"})
    text = prompt._repr_mimebundle_()["text/plain"]
    assert text.startswith("anvia_nb prompt: server s⟨U+202E⟩ asks for input (url mode)") and "VBox" not in text
