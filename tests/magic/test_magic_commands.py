"""Every %mcp subcommand in a real IPython shell, against the demo server over stdio and HTTP."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.display import ResultView
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import DEMO_STDIO, connect_demo, run
from tests.helpers.waiting import wait_until

CONNECT_LINE = re.compile(r"^fresh: stdio · anvia-demo \S+ · protocol \S+ · \d+ tools$")


def test_connect_prints_one_line_with_transport_server_protocol_and_tool_count(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    connect_demo(ip, "fresh")
    out = capsys.readouterr().out.strip()
    assert CONNECT_LINE.match(out), out
    assert out.endswith(f"· {len(get_runtime().server('fresh').tools)} tools")


def test_connect_over_http_and_list_servers(
    ip: InteractiveShell, demo: str, demo_http_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run(ip, f"connect web --http {demo_http_url}")
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("web: http · anvia-demo")
    frame = run(ip, "servers")
    assert isinstance(frame, pd.DataFrame)
    frame = frame.set_index("name").loc[["demo", "web"]].reset_index()
    assert list(frame["transport"]) == ["stdio", "http"]
    assert list(frame["status"]) == ["open", "open"]
    assert list(frame["scope"]) == ["kernel", "kernel"]
    assert frame["target"][1] == demo_http_url
    assert frame["tools"][0] == frame["tools"][1] > 10
    assert frame["protocol"][0]


def test_tools_is_a_dataframe_of_every_tool_with_hints_and_arguments(
    ip: InteractiveShell, demo: str, demo_http_url: str
) -> None:
    run(ip, f"connect other --http {demo_http_url}")  # a second connection; its own process is not needed
    ip.run_cell("_anvia_test_tools = %mcp tools")
    frame = ip.user_ns["_anvia_test_tools"]
    assert isinstance(frame, pd.DataFrame)
    assert set(frame["server"]) == {"demo", "other"}
    add = frame[(frame["server"] == "demo") & (frame["name"] == "add")].iloc[0]
    assert add["required"] == ["a", "b"]
    assert add["arguments"] == ["a", "b"]
    assert add["title"] == "Add"
    assert bool(add["output_schema"]) is True
    assert add["readOnly"] is True
    assert add["destructive"] is False
    crash = frame[frame["name"] == "crash"].iloc[0]
    assert crash["destructive"] is True
    only_other = run(ip, "tools other")
    assert set(only_other["server"]) == {"other"}
    with pytest.raises(UsageError, match="No connection named 'othr'. Did you mean other"):
        run(ip, "tools othr")


def test_call_returns_a_result_view_with_output_raw_and_structured(ip: InteractiveShell, demo: str) -> None:
    view = run(ip, 'call demo.add {"a": 2, "b": 3.5}')
    assert isinstance(view, ResultView)
    assert (view.server, view.tool, view.is_error) == ("demo", "add", False)
    assert view.output == "5.5"
    assert view.structured == {"sum": 5.5}
    assert view.raw is not None and view.raw["structuredContent"] == {"sum": 5.5}
    assert view.seconds >= 0
    assert run(ip, "call demo.add a=1 b=2").structured == {"sum": 3}
    assert run(ip, "call demo.echo message=").output == ""


def test_cell_call_takes_its_arguments_from_the_body(ip: InteractiveShell, demo: str) -> None:
    result = ip.run_cell('%%mcp call demo.echo_arguments\n{\n  "x": [1, 2],\n  "y": "$HOME {z}"\n}\n')
    assert result.error_in_exec is None
    assert result.result.structured == {"x": [1, 2], "y": "$HOME {z}"}


def test_a_tool_error_is_returned_and_shown_as_an_error_not_raised(ip: InteractiveShell, demo: str) -> None:
    result = ip.run_cell("%mcp call demo.fail message=boom")
    assert result.error_in_exec is None
    view = result.result
    assert view.is_error and view.output is None
    plain = view._repr_mimebundle_()["text/plain"]
    assert "demo" in plain and "fail" in plain and "boom" in plain and "error" in plain


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("call nope.echo message=x", "No connection named 'nope'"),
        ("call dem.echo message=x", "Did you mean demo?"),
        ("call demo.ehco message=x", "'demo' has no tool 'ehco'. Did you mean echo"),
        ('call demo.add {"a": 1,, "b": 2}', "do not parse at line 1, column 9"),
        ("call demo.add a=1", "demo.add was not called: its arguments do not match the inputSchema: 'b' is a"),
        ("call demo.add a=x b=2", "a: 'x' is not of type 'number'"),
    ],
)
def test_call_errors_are_one_usage_error_before_anything_is_sent(
    ip: InteractiveShell, demo: str, line: str, message: str
) -> None:
    with pytest.raises(UsageError) as info:
        run(ip, line)
    assert message in str(info.value)
    assert len(get_runtime().history) == 0


def test_usage_errors_are_shown_without_a_traceback_unless_asked(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    result = ip.run_cell("%mcp call nope.echo")
    assert isinstance(result.error_in_exec, UsageError)
    err = capsys.readouterr().err
    assert "UsageError: No connection named 'nope'" in err and "Traceback" not in err
    ip.run_line_magic("config", "McpMagics.show_tracebacks = True")
    result = ip.run_cell("%mcp call nope.echo")
    assert type(result.error_in_exec).__name__ == "UnknownConnectionError"


def test_timeout_seconds_bounds_a_call_and_the_option_overrides_it(ip: InteractiveShell, demo: str) -> None:
    ip.run_line_magic("config", "McpMagics.timeout_seconds = 0.3")
    view = run(ip, "call demo.slow steps=1 delay_seconds=60")  # silent: progress would keep it alive
    assert view.is_error and view.status == "timeout"
    assert not run(ip, "call --timeout 30 demo.slow steps=2 delay_seconds=0").is_error


def test_max_output_chars_bounds_what_is_rendered_not_the_output(ip: InteractiveShell, demo: str) -> None:
    ip.run_line_magic("config", "McpMagics.max_output_chars = 1000")
    view = run(ip, "call demo.large size_chars=50000")
    assert len(view.output) == 50_000
    assert len(view._repr_mimebundle_()["text/plain"]) < 5_000


def test_history_lists_calls_with_status_seconds_and_output_size(ip: InteractiveShell, demo: str) -> None:
    run(ip, "call demo.echo message=hello")
    run(ip, "call demo.fail message=no")
    frame = run(ip, "history")
    assert list(frame.columns) == [
        "time",
        "server",
        "tool",
        "arguments",
        "status",
        "seconds",
        "output_chars",
        "error",
        "requested_by",
    ]
    assert list(frame["tool"]) == ["echo", "fail"]
    assert list(frame["status"]) == ["ok", "tool error"]
    assert frame["arguments"][0] == '{"message": "hello"}'
    assert frame["output_chars"][0] == 5 and pd.isna(frame["output_chars"][1])
    ip.run_line_magic("config", "McpMagics.history_limit = 1")
    assert list(run(ip, "history")["tool"]) == ["fail"]


def test_hide_server_errors_keeps_server_text_out_of_history_and_rendering(ip: InteractiveShell, demo: str) -> None:
    ip.run_line_magic("config", "McpMagics.hide_server_errors = True")
    view = run(ip, "call demo.fail message=internal-path-/srv/x")
    assert "internal-path" not in str(view._repr_mimebundle_())
    assert "internal-path" not in str(list(run(ip, "history")["error"]))
    assert "internal-path" in str(view.error)


def test_log_is_a_frame_of_the_servers_stderr_and_log_messages(ip: InteractiveShell, demo: str) -> None:
    run(ip, "call demo.slow steps=1 delay_seconds=60 --timeout 1")  # the server logs the cancellation

    def cancellation_shown() -> bool:  # the server writes it once the cancel reached it, after the call returned
        return any("slow cancelled" in text for text in run(ip, "log demo --lines 5")["text"])

    wait_until(cancellation_shown, "the server's cancellation line in the log")
    frame = run(ip, "log demo --lines 5")
    assert list(frame.columns) == ["time", "source", "level", "logger", "text"]
    assert len(frame) <= 5
    assert set(frame["source"]) <= {"stderr", "server log", "client"}


def test_log_of_an_http_connection_has_no_stderr_rows(ip: InteractiveShell, demo_http_url: str) -> None:
    run(ip, f"connect web --http {demo_http_url}")
    run(ip, "call web.echo message=hi")
    assert "stderr" not in set(run(ip, "log web")["source"])


def test_close_names_or_all_and_unknown_names_are_usage_errors(ip: InteractiveShell, demo_http_url: str) -> None:
    for name in ("a", "b", "c"):
        run(ip, f"connect {name} --http {demo_http_url}")
    with pytest.raises(UsageError, match="No connection named 'x'"):
        run(ip, "close a x")
    assert {"a", "b", "c"} <= set(get_runtime().names())  # nothing closed when one name is wrong
    run(ip, "close a")
    assert {"b", "c"} <= set(get_runtime().names()) and "a" not in get_runtime().names()
    run(ip, "close --all")
    assert get_runtime().names() == []
    with pytest.raises(UsageError, match="There are no open connections"):
        run(ip, "close a")


def test_help_lists_every_subcommand_and_setting(ip: InteractiveShell, capsys: pytest.CaptureFixture[str]) -> None:
    for line in ("", "help", "--help"):
        run(ip, line)
        text = capsys.readouterr().out
        for word in ("connect", "servers", "tools", "call", "form", "panel", "history", "log", "trace", "close"):
            assert f"%mcp {word}" in text
        for trait in ("timeout_seconds", "max_output_chars", "show_tracebacks", "hide_server_errors", "history_limit"):
            assert trait in text
        assert len(text.splitlines()) <= 40  # one screen


def test_connect_failures_are_one_line(ip: InteractiveShell, unused_port: int) -> None:
    with pytest.raises(UsageError) as info:
        run(ip, f"connect web --timeout 5 --http http://127.0.0.1:{unused_port}/mcp")
    assert "\n" not in str(info.value) and "web" in str(info.value)
    with pytest.raises(UsageError, match="Connection name 'bad.name' is not usable"):
        run(ip, f"connect bad.name {DEMO_STDIO}")
    with pytest.raises(UsageError) as info:
        run(ip, "connect ghost --stdio /nonexistent/server-binary")
    assert "ghost" in str(info.value) and "\n" not in str(info.value)
    assert not {"web", "ghost"} & set(get_runtime().names())


def test_form_and_panel_open_widgets_and_check_names_first(ip: InteractiveShell, demo: str) -> None:
    with pytest.raises(UsageError, match="'demo' has no tool 'nope'"):
        run(ip, "form demo.nope")
    assert type(run(ip, "form demo.add")).__name__ == "ToolForm"
    assert type(run(ip, "panel")).__name__ == "Panel"


def test_the_history_limit_is_the_runtimes_and_applies_at_once(ip: InteractiveShell, demo: str) -> None:
    ip.run_line_magic("config", "McpMagics.history_limit = 2")
    runtime = get_runtime()
    for word in ("one", "two", "three"):  # as a form or a panel calls: through the runtime
        runtime.call(demo, "echo", {"message": word})
    assert [o.arguments for o in runtime.calls()] == [{"message": "two"}, {"message": "three"}]
    assert list(run(ip, "history")["arguments"]) == ['{"message": "two"}', '{"message": "three"}']
