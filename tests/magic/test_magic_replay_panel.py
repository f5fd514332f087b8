"""A replayed connection (``%mcp connect t --replay FILE``) in the panel and the exchange commands.

The recording is made once against the demo server (its tools, resources and prompts listed, one
call made); each test replays it. What a recording holds works (tools, listings, the recorded call,
the server's handshake); what it cannot hold (messages, a server log, resource reads, prompts,
updates) is said in one line, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.errors import NotOfferedError
from anvia_nb.widgets.explorer.panel import Panel
from tests.helpers.magic import DEMO_STDIO, run
from tests.helpers.waiting import WAIT_SECONDS

NAME = "replayed"


@pytest.fixture(scope="module")
def recording(shell: InteractiveShell, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "demo.jsonl"
    run(shell, f"connect rec_panel --record {path} {DEMO_STDIO}")
    try:
        run(shell, "call rec_panel.add a=2 b=3")
        run(shell, "resources rec_panel")
        run(shell, "prompts rec_panel")
    finally:
        run(shell, "close rec_panel")
    return path


@pytest.fixture
def replayed(ip: InteractiveShell, recording: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    run(ip, f"connect {NAME} --replay {recording}")
    capsys.readouterr()
    return recording


def test_the_panel_of_a_replayed_connection_shows_what_the_recording_holds(
    ip: InteractiveShell, replayed: Path
) -> None:
    explorer = run(ip, f"panel {NAME}")
    assert isinstance(explorer, Panel)
    assert explorer.tabs.titles == ("Tools", "Resources", "Prompts", "Audit", "Server", "Log", "Trace")
    assert "add" in explorer.tool_names()

    exchange = explorer.exchange
    assert explorer.tabs.children[4:] == tuple(exchange.pages)
    server_text = exchange.server_view.value
    assert "transport: replay" in server_text and "anvia-demo" in server_text
    assert '"resources": {' in server_text and '"subscribe": true' in server_text  # as the server declared them
    assert f"replayed from {replayed}: a recording holds no server log." in exchange.log_view.value
    assert f"replayed from {replayed}: a recording holds no messages, so none are traced." in exchange.trace_view.value

    add = explorer.select(NAME, "add")
    assert add is not None
    add.arguments.set_value({"a": 2, "b": 3})
    assert add.call()
    outcome = add.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.status == "ok" and outcome.output == "5"


def test_the_resources_and_prompts_tabs_list_the_recording_and_refuse_reads_in_one_line(
    ip: InteractiveShell, replayed: Path
) -> None:
    explorer = run(ip, f"panel {NAME}")
    resources = explorer.resources_tab
    assert resources.listing is not None
    resources.listing.result(WAIT_SECONDS)
    assert "demo://counter" in [item.get("uri") for item in resources.resources]
    resources.select("demo://counter")
    toggle = resources.subscription.toggle
    assert toggle.disabled and toggle.tooltip == f"replayed from {replayed}: a recording holds no resource updates"
    assert resources.read() is None
    (shown,) = resources.output.outputs
    said = shown["data"]["text/plain"]
    assert said == (
        f"'{NAME}' is replayed from {replayed}: its listings and tool calls are recorded, but not resource reads, "
        "prompts or completions. Connect to the live server for those."
    )

    prompts = explorer.prompts_tab
    assert prompts.listing is not None
    prompts.listing.result(WAIT_SECONDS)
    names = [item.get("name") for item in prompts.prompts]
    assert "greet" in names
    fields = prompts.select("greet")
    assert fields is not None and fields.inputs
    fields.set_values({name: "Ada" for name in fields.inputs})  # all given: only the recording refuses
    assert fields.completing is not None  # typing asks for suggestions: a recording has none to give
    with pytest.raises(NotOfferedError):
        fields.completing.result(WAIT_SECONDS)
    assert all(box.options == () for box in fields.inputs.values())
    assert prompts.get() is None
    (shown,) = prompts.output.outputs
    assert shown["data"]["text/plain"] == said


def test_trace_and_log_of_a_replayed_connection_say_what_a_recording_holds(
    ip: InteractiveShell, replayed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(ip, f"call {NAME}.add a=2 b=3")
    trace = run(ip, f"trace {NAME}")
    assert len(trace) == 0
    assert capsys.readouterr().out == (
        f"note: {NAME} is replayed from {replayed}: a recording holds no messages, so none are traced.\n"
    )
    log = run(ip, f"log {NAME}")
    assert list(log["source"]) == []
    assert capsys.readouterr().out == (
        f"note: {NAME} is replayed from {replayed}: a recording holds no server log, only anvia_nb's own notes.\n"
    )


def test_subscribing_on_a_replayed_connection_is_refused_in_one_line(ip: InteractiveShell, replayed: Path) -> None:
    expected = (
        f"'{NAME}' is replayed from {replayed}: a recording holds no resource updates, so it cannot subscribe to "
        "any. Connect to the live server for those."
    )
    with pytest.raises(UsageError) as refused:
        run(ip, f"subscribe {NAME} demo://counter")
    assert str(refused.value) == expected
    with pytest.raises(UsageError, match="not subscribed to demo://counter"):
        run(ip, f"unsubscribe {NAME} demo://counter")
    resources = run(ip, f"resources {NAME}")
    assert "demo://counter" in set(resources["uri"])
