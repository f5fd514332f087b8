"""Viewer mode (``%config McpMagics.hide_server_errors = True``), every surface, in a real IPython
shell against a real server that writes one secret-looking string in its stderr, log messages,
errors, capabilities and instructions (tests/servers/leaky_server.py): ``%mcp log``, ``%mcp
trace``, results, forms and the panel's tabs say what happened in plain words, none of that string,
nothing to type, no "error" where nothing failed; the details stay reachable from Python."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.display import RenderSettings
from anvia_nb.display.settings import viewer_words
from anvia_nb.runtime import get_runtime
from anvia_nb.widgets import form
from anvia_nb.widgets.explorer.panel import Panel
from anvia_nb.widgets.forms.tool_form import ToolForm
from tests.helpers.leaky_server import FRAGMENT
from tests.helpers.magic import displayed, run
from tests.helpers.waiting import WAIT_SECONDS, wait_until

LEAKY = str(Path(__file__).parents[1] / "helpers" / "leaky_server.py")
CONNECT = f"--stdio {sys.executable} {LEAKY}"
AUTHOR_HINT = re.compile(r"%mcp|%config|get_runtime|\.message\(")


def _viewers(ip: InteractiveShell) -> None:
    ip.run_line_magic("config", "McpMagics.hide_server_errors = True")


def _clean(text: str, where: str) -> None:
    """Nothing of the server's text and nothing to type."""
    assert FRAGMENT not in text and "10.0.0.5" not in text, f"{where}: {text[:300]}"
    assert AUTHOR_HINT.search(text) is None, f"{where}: {text[:300]}"


def _connect(ip: InteractiveShell, name: str = "leaky") -> None:
    run(ip, f"connect {name} {CONNECT}")
    runtime = get_runtime()
    runtime.call(name, "chatter", {})
    server = runtime.server(name)
    wait_until(
        lambda: sum(1 for row in server.log.rows(50) if row.source == "server log") >= 2,
        what="both log messages to arrive",
    )


def test_log_says_how_many_lines_were_written_none_of_them_and_no_error(ip: InteractiveShell) -> None:
    _connect(ip)
    _viewers(ip)
    frame = run(ip, "log leaky")
    shown = frame.to_string() + frame._repr_html_()
    _clean(shown, "%mcp log")
    assert "error" not in shown.lower()  # nothing failed: no "The server reported an error."
    said = str(frame["text"].iloc[0])
    assert said.startswith("The server “leaky” has written ") and len(frame) == 1
    assert said.endswith("log lines; they are kept for this notebook's author.")
    log = get_runtime().log("leaky")  # the author's details, from Python
    assert any(FRAGMENT in row.text for row in log.rows(50))


def test_trace_shows_no_log_text_no_error_text_and_only_the_protocols_methods(ip: InteractiveShell) -> None:
    _connect(ip)
    displayed(ip, "call leaky.fail")
    _viewers(ip)
    trace = run(ip, "trace leaky")
    _clean(trace.to_string() + trace._repr_html_(), "%mcp trace")
    errors = trace[trace["kind"] == "error"]
    assert len(errors) >= 1 and set(errors["summary"]) == {"error: The server reported an error."}
    assert set(trace["summary"]) <= {"", "error: The server reported an error."}
    assert "notifications/message" in set(trace["method"])  # what happened, in the protocol's words
    logged = trace[trace["method"] == "notifications/message"].index[0]
    assert FRAGMENT in trace.json(logged) and FRAGMENT in trace.message(errors.index[0])["error"]["message"]


def test_a_result_and_a_form_say_a_server_error_in_plain_words(ip: InteractiveShell) -> None:
    _connect(ip)
    _viewers(ip)
    for tool in ("fail", "boom"):
        _value, bundles = displayed(ip, f"call leaky.{tool}")
        value = run(ip, f"call leaky.{tool}")
        texts = [str(b) for b in bundles] + ([str(value._repr_mimebundle_())] if value is not None else [])
        assert texts
        for text in texts:
            _clean(text, f"call leaky.{tool}")
    settings = RenderSettings(hide_server_errors=True)
    failing = form("leaky.fail", settings=settings)
    assert isinstance(failing, ToolForm) and failing.call()
    outcome = failing.wait(WAIT_SECONDS)
    shown = str(failing.output.outputs) + failing.status.value
    _clean(shown, "form")
    assert "The server reported an error." in shown
    assert outcome is not None and FRAGMENT in str(outcome.error)  # the author's, from Python


def _views(explorer: Panel) -> dict[str, str]:
    explorer.exchange.refresh()
    return {
        "server": explorer.exchange.server_view.value,
        "log": explorer.exchange.log_view.value,
        "trace": explorer.exchange.trace_view.value,
    }


def test_the_panels_server_log_and_trace_tabs_speak_to_a_viewer(ip: InteractiveShell) -> None:
    _connect(ip)
    _viewers(ip)
    explorer = run(ip, "panel leaky --tools echo,add")
    assert isinstance(explorer, Panel)
    views = _views(explorer)
    for tab, html in views.items():
        _clean(html, tab)
        assert "capabilities" not in html and "experimental" not in html and "reported an error" not in html
    assert viewer_words("server", "leaky") in views["server"]
    assert "has written" in views["log"] and "they are kept for this notebook’s author" in views["log"].replace(
        "'", "’"
    ).replace("&#x27;", "’")
    assert "messages went between this page and the server “leaky”" in views["trace"]
    assert explorer.instructions.value == ""  # written for the model and the author
    _clean(explorer.text(), "panel text")


def test_the_author_reads_the_whole_tabs_when_not_serving_viewers(ip: InteractiveShell) -> None:
    _connect(ip)
    explorer = run(ip, "panel leaky")
    views = _views(explorer)
    assert FRAGMENT in views["log"] and "capabilities" in views["server"] and "%mcp trace leaky" in views["trace"]


def _titles(explorer: Panel) -> list[str]:
    return [explorer.tabs.get_title(i) for i in range(len(explorer.tabs.children))]


def test_a_scoped_panel_has_no_tab_it_was_not_given(ip: InteractiveShell) -> None:
    _connect(ip)
    explorer = run(ip, "panel leaky --tools echo,add")
    assert _titles(explorer) == ["Tools", "Audit", "Server", "Log", "Trace"]
    with pytest.raises(Exception, match="This panel does not offer resources"):
        explorer.resources_tab  # noqa: B018
    assert explorer.tool_names() == ["add", "echo"] or sorted(explorer.tool_names()) == ["add", "echo"]
    readme = run(ip, "panel leaky --tools echo --resources public://readme --prompts leak")
    assert _titles(readme) == ["Tools", "Resources", "Prompts", "Audit", "Server", "Log", "Trace"]
    tab = readme.resources_tab
    assert tab.listing is not None
    tab.listing.result(WAIT_SECONDS)
    assert [r["uri"] for r in tab.resources] == ["public://readme"] and tab.templates == []
    assert [label for label, _i in tab.resource_list.options] == ["readme — public://readme"]
    only_resources = run(ip, "panel leaky --resources public://readme")
    assert _titles(only_resources) == ["Resources", "Server", "Log", "Trace"]
    assert only_resources.tool_names() == []


def test_tools_with_several_connections_open_and_none_named_is_refused(ip: InteractiveShell) -> None:
    _connect(ip)
    run(ip, f"connect admin {CONNECT}")
    with pytest.raises(UsageError) as refused:
        run(ip, "panel --tools add")
    message = str(refused.value)
    assert "\n" not in message and re.search(r"\d+ are open: name it", message)
    explorer = run(ip, "panel leaky --tools add")
    assert [value for _label, value in explorer.connection.options] == ["leaky"]
    for name in ("leaky", "admin"):
        run(ip, f"close {name}")


def test_the_connect_line_for_viewers_has_none_of_the_servers_words(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    _viewers(ip)
    run(ip, f"connect leaky {CONNECT}")
    out = capsys.readouterr().out
    assert out.strip() == "leaky: stdio · 6 tools"


def test_a_read_and_a_result_tell_viewers_nothing_to_type(ip: InteractiveShell, demo: str) -> None:
    for viewers in (False, True):
        ip.run_line_magic("config", f"McpMagics.hide_server_errors = {viewers}")
        link = str(run(ip, f"call {demo}.resource_link")._repr_mimebundle_())
        blob = str(run(ip, f"read {demo} demo://data/sample.bin")._repr_mimebundle_())
        assert ("read_link" in link and ".save(0, PATH)" in blob) is not viewers, (viewers, link, blob)
        if viewers:
            _clean(link + blob, "a read and a resource link")
            assert "Binary content, not shown." in blob


def test_the_servers_table_shows_viewers_neither_the_command_nor_the_servers_words(ip: InteractiveShell) -> None:
    _connect(ip)
    ip.run_line_magic("config", "McpMagics.hide_server_errors = False")
    author = run(ip, "servers").set_index("name").loc["leaky"]
    assert LEAKY in str(author["target"]) and author["instructions"]  # the author sees both
    _viewers(ip)
    frame = run(ip, "servers")
    shown = frame.drop(columns="opened_at").to_string() + frame._repr_html_()
    _clean(shown, "%mcp servers")
    assert LEAKY not in shown and sys.executable not in shown
    leaky = frame.set_index("name").loc["leaky"]
    assert leaky["status"] == "open" and leaky["tools"] > 0
