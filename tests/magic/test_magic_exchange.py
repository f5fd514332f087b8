"""``%mcp log``, ``%mcp trace`` and the note ``%mcp tools`` prints when a tool list changed, in a
real IPython shell against the demo server: the shared stdio connection, a session of
its own on the shared HTTP demo server when a test needs a connection of its own, and a process
of its own only to change the tool list (the listing is per process)."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.errors import ProtocolError
from anvia_nb.magic.parse.exchange import TraceCommand, parse_trace
from anvia_nb.magic.subcommands import parse_command
from anvia_nb.policy import HIDDEN_SERVER_ERROR, MASK, NOT_MATH_CLASSES
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import DEMO_STDIO, run
from tests.helpers.waiting import wait_until

TOKEN = "sk-live-exchange-7c2d9e"


def test_trace_is_a_frame_of_the_exchange_with_each_message_as_json(ip: InteractiveShell, demo: str) -> None:
    run(ip, "call demo.echo message=hello")
    trace = run(ip, "trace demo")
    assert list(trace.columns) == ["time", "direction", "kind", "method", "id", "size", "summary"]
    assert trace.index.name == "n" and list(trace.index) == sorted(trace.index)
    request = trace[(trace["method"] == "tools/call") & (trace["kind"] == "request")].index[-1]
    answer = trace[(trace["method"] == "tools/call") & (trace["kind"] == "result")].index[-1]
    assert trace.loc[request, "direction"] == "→ sent" and trace.loc[answer, "direction"] == "← received"
    assert trace.message(request)["params"] == {"name": "echo", "arguments": {"message": "hello"}} | {
        k: v for k, v in trace.message(request)["params"].items() if k == "_meta"
    }
    assert trace.message(answer)["result"]["content"] == [{"type": "text", "text": "hello"}]
    assert '"method":"tools/call"' in trace.json(request)
    assert len(run(ip, "trace demo --last 2")) == 2
    with pytest.raises(ValueError, match="No message 0 in this trace"):
        trace.message(0)


def test_trace_of_one_call_shows_its_request_progress_and_answer(ip: InteractiveShell, demo: str) -> None:
    run(ip, "call demo.echo message=before")
    run(ip, "call demo.slow steps=2 delay_seconds=0.01")
    run(ip, "call demo.echo message=after")
    call = run(ip, "trace demo --call -2")
    assert list(call["kind"]) == ["request", "notification", "notification", "result"]
    assert list(call["summary"])[1:3] == ["progress 1/2 step 1 of 2", "progress 2/2 step 2 of 2"]
    assert run(ip, "trace demo --call 0")["summary"].iloc[0].startswith("tools/call echo")
    with pytest.raises(UsageError, match="There is no call 5 in %mcp history"):
        run(ip, "trace demo --call 5")


def test_trace_of_a_call_to_another_server_says_which_to_ask(
    ip: InteractiveShell, demo: str, demo_http_url: str
) -> None:
    run(ip, f"connect other --http {demo_http_url}")
    run(ip, "call other.echo message=x")
    with pytest.raises(UsageError, match="went to 'other', not 'demo': use %mcp trace other --call -1"):
        run(ip, "trace demo --call -1")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("trace", "Usage: %mcp trace NAME"),
        ("trace a b", "one connection at a time"),
        ("trace a --last 0", "--last takes a positive whole number"),
        ("trace a --call x", "--call takes a whole number"),
        ("trace a --lines 3", "Unknown option '--lines'"),
    ],
)
def test_trace_lines_that_do_not_parse_are_one_clear_line(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_command(line)


def test_trace_options_parse_both_ways() -> None:
    assert parse_trace("a --last=3 --call -1") == TraceCommand("a", 3, -1)
    assert parse_trace("--call 2 a") == TraceCommand("a", None, 2)


def test_log_shows_the_servers_log_messages_from_the_level_asked(ip: InteractiveShell, demo_http_url: str) -> None:
    run(ip, f"connect logs --http {demo_http_url}")
    run(ip, "call logs.log_levels message=hi")
    frame = run(ip, "log logs")
    messages = frame[frame["source"] == "server log"]
    assert list(messages["level"]) == ["info", "notice", "warning", "error"]  # McpMagics.log_level is info
    assert list(messages["text"]) == ["info: hi", "notice: hi", "warning: hi", "error: hi"]
    assert list(messages["logger"]) == ["demo.logs"] * 4


def test_secrets_are_masked_in_log_and_trace(ip: InteractiveShell, demo_http_url: str) -> None:
    run(ip, f'connect sec --header "X-Api-Key: {TOKEN}" --http {demo_http_url}')
    run(ip, f"call sec.echo message={TOKEN}")  # the server answers with the secret
    run(ip, f"call sec.log_levels message={TOKEN}")
    log, trace = run(ip, "log sec"), run(ip, "trace sec")
    shown = log.to_string() + log._repr_html_() + trace.to_string() + trace._repr_html_()
    shown += "".join(trace.json(n) for n in trace.index)
    assert TOKEN not in shown
    assert MASK in log.to_string() and MASK in "".join(trace.json(n) for n in trace.index)


def test_hostile_log_lines_and_trace_summaries_are_inert(ip: InteractiveShell, demo_http_url: str) -> None:
    run(ip, f"connect hostile --http {demo_http_url}")
    run(ip, "call hostile.log_levels hostile=true")
    for frame in (run(ip, "log hostile --lines 40"), run(ip, "trace hostile --last 40")):
        html = frame._repr_html_()
        assert "<img" not in html and "<script" not in html and "<iframe" not in html
        assert "&lt;img" in html or "&lt;script" in html
        cells = " ".join(str(value) for value in frame.to_numpy().ravel())  # what a cut cell holds, whole
        assert "\u202e" not in html + cells and "\x1b" not in html + cells
        assert "⟨U+202E⟩" in cells and "⟨ESC⟩" in cells
        assert NOT_MATH_CLASSES.split()[0] in html or "tex2jax_ignore" in html


def test_tools_notes_a_changed_tool_list_once(ip: InteractiveShell, capsys: pytest.CaptureFixture[str]) -> None:
    run(ip, f"connect chg {DEMO_STDIO}")
    server = get_runtime().server("chg")
    capsys.readouterr()
    run(ip, "call chg.change_tools")
    # The news may arrive just after the answer (on 2026-07-28 it travels on its own stream).
    wait_until(lambda: bool(server.changes.pending), what="the tool list to be listed again")
    frame = run(ip, "tools chg")
    out = capsys.readouterr().out
    assert "bonus" in list(frame["name"])
    assert out.startswith("note: the tool list of chg changed since ")
    assert out.strip().endswith(": added bonus")
    run(ip, "tools chg")
    assert capsys.readouterr().out == ""  # said once


def test_with_server_errors_hidden_the_log_and_the_errors_of_the_trace_say_so(
    ip: InteractiveShell, demo_http_url: str
) -> None:
    run(ip, f"connect quiet --http {demo_http_url}")
    ip.magics_manager.registry["McpMagics"].hide_server_errors = True
    run(ip, "call quiet.log_levels message=internal-path-/srv/x")
    assert "internal-path" not in run(ip, "log quiet").to_string()
    runtime = get_runtime()
    with pytest.raises(ProtocolError):  # the demo server answers an unknown tool with an MCP error
        runtime.run(runtime.server("quiet").client.call_tool("internal_tool_x"))
    trace = run(ip, "trace quiet")
    errors = trace[trace["kind"] == "error"]
    assert list(errors["summary"]) == [f"error: {HIDDEN_SERVER_ERROR}"]
    assert "Unknown tool" not in trace.to_string()  # the server's words
    assert "Unknown tool" in trace.message(errors.index[0])["error"]["message"]  # kept for the author
