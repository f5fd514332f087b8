"""``%mcp`` on a dashboard, in a real IPython shell: ``connect --soft`` shows a notice and the
notebook goes on, ``hide_server_errors`` speaks to viewers (what happened, nothing to type), and
``%mcp panel NAME --tools a,b`` offers only those tools. Real servers: one that exits at once
(exiting_server.py), the demo over stdio where it must die, and the shared ones otherwise."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb import ConnectError, mcp
from anvia_nb.dashboard import soft_connect
from anvia_nb.display import RenderSettings
from anvia_nb.errors import CommandLineError
from anvia_nb.magic.parse.connect import parse_connect
from anvia_nb.magic.parse.library import parse_panel
from anvia_nb.policy import MASK, NOT_MATH_CLASSES
from anvia_nb.runtime import get_runtime
from anvia_nb.widgets import Panel, UnavailableForm
from tests.helpers.magic import DEMO_STDIO, displayed, run

EXITING_SERVER = str(Path(__file__).parents[1] / "servers" / "exiting_server.py")
TOKEN = "tok-5e7c1d9a2b8f"
FATAL = f"--env DEMO_TOKEN={TOKEN} --stdio {sys.executable} {EXITING_SERVER}"
NOT_STARTED = "The server “broken” could not be started, so the parts of this page that use it are not available."


def _viewers(ip: InteractiveShell) -> None:
    ip.run_line_magic("config", "McpMagics.hide_server_errors = True")


def test_connect_soft_parses_as_a_flag_anywhere_before_the_command() -> None:
    command = parse_connect(f"broken --soft {FATAL}")
    assert command.soft and not command.cell
    assert parse_connect("--config servers.json --soft").soft
    assert not parse_connect(f"broken {DEMO_STDIO}").soft
    with pytest.raises(CommandLineError, match="--soft takes no value"):
        parse_connect(f"broken --soft=yes {FATAL}")


def test_a_soft_connect_that_fails_shows_the_authors_notice_and_the_cell_goes_on(ip: InteractiveShell) -> None:
    value, bundles = displayed(ip, f"connect broken --soft {FATAL}")
    assert value is None and len(bundles) == 1
    plain = bundles[0]["text/plain"]
    assert "fatal: missing API key" in plain and TOKEN not in plain and MASK in plain  # the author's words, masked
    assert plain.splitlines()[-1] == "%mcp log broken shows the whole log."
    assert NOT_MATH_CLASSES in bundles[0]["text/html"] and "anvia-notice" in bundles[0]["text/html"]
    ip.run_cell("_anvia_test_after = 'the next line ran'")
    assert ip.user_ns["_anvia_test_after"] == "the next line ran"
    assert "broken" not in ip.run_line_magic("mcp", "servers")["name"].tolist()
    run(ip, "close broken")


def test_without_soft_a_failed_connect_still_raises_for_the_author(ip: InteractiveShell) -> None:
    with pytest.raises(UsageError, match="fatal: missing API key"):
        run(ip, f"connect broken {FATAL}")
    run(ip, "close broken")


def test_for_viewers_a_failed_connect_and_what_depends_on_it_say_it_plainly(ip: InteractiveShell) -> None:
    _viewers(ip)
    ip.run_cell(f"%mcp connect broken {FATAL}\n_anvia_test_after = True")  # no --soft needed for viewers
    assert ip.user_ns.get("_anvia_test_after") is True  # the cell went on past the failed connect
    _, bundles = displayed(ip, f"connect broken {FATAL}")
    assert [b["text/plain"] for b in bundles] == [NOT_STARTED]
    _, called = displayed(ip, "call broken.echo message=hi")
    assert [b["text/plain"] for b in called] == ["The server “broken” is not available right now."]
    waiting = run(ip, "form broken.echo")
    assert isinstance(waiting, UnavailableForm) and waiting.text() == "The server “broken” is not available right now."
    for shown in (bundles, called):
        text = str(shown)
        assert "%mcp" not in text and "fatal" not in text and "Error" not in text and TOKEN not in text
    assert "fatal: missing API key" in get_runtime().log("broken").stderr_text(10_000)  # the author's details
    run(ip, "close broken")


def test_for_viewers_a_server_that_dies_mid_call_is_said_to_have_stopped(ip: InteractiveShell) -> None:
    _viewers(ip)
    run(ip, f"connect fragile {DEMO_STDIO}")
    view = run(ip, "call fragile.crash")
    plain = view._repr_mimebundle_()["text/plain"]
    assert "The server “fragile” stopped, so this is not available now." in plain
    assert "reported an error" not in plain
    assert "went away" in str(view.outcome.error)  # the author's details stay in Python
    after = run(ip, "call fragile.echo message=hi")._repr_mimebundle_()["text/plain"]  # gone: still plain words
    assert "The server “fragile” stopped, so this is not available now." in after
    run(ip, "close fragile")


def test_panel_name_tools_offers_only_those_tools(ip: InteractiveShell, demo: str) -> None:
    assert parse_panel(f"{demo} --tools echo,add").tools == ("echo", "add")
    assert parse_panel("--tools=echo").name is None
    explorer = run(ip, f"panel {demo} --tools echo,add")
    assert isinstance(explorer, Panel) and explorer.tool_names() == ["echo", "add"]
    with pytest.raises(UsageError, match="has no tool 'ech'"):
        run(ip, f"panel {demo} --tools ech")
    with pytest.raises(UsageError, match="--tools takes tool names separated by commas"):
        run(ip, f"panel {demo} --tools")
    with pytest.raises(UsageError, match="No connection named 'dmeo'"):
        run(ip, "panel dmeo")


def test_soft_connect_from_python_returns_a_notice_instead_of_raising(demo_http_url: str) -> None:
    from anvia_nb.runtime import Runtime

    runtime = Runtime()
    try:
        broken = mcp.stdio(name="broken", command=sys.executable, args=[EXITING_SERVER])
        notice = soft_connect(broken, runtime=runtime, settings=RenderSettings(hide_server_errors=True))
        assert not notice.ok and isinstance(notice.error, ConnectError) and notice.server is None
        assert notice._repr_mimebundle_()["text/plain"] == NOT_STARTED
        assert "fatal: missing API key" in runtime.log("broken").stderr_text(10_000)  # the author's details
        opened = soft_connect(mcp.http(name="demo", url=demo_http_url), runtime=runtime)
        assert opened.ok and opened.server is runtime.server("demo") and "demo: http" in opened.text
    finally:
        runtime.shutdown()


def test_shutting_down_a_runtime_of_its_own_leaves_the_kernels_servers_running(
    ip: InteractiveShell, demo: str, demo_http_url: str
) -> None:
    """A dashboard's own runtime (``soft_connect(..., runtime=)``) stops what it started, not the
    stdio servers of the kernel's ``%mcp`` connections."""
    from anvia_nb.runtime import Runtime

    runtime = Runtime()
    try:
        assert soft_connect(mcp.http(name="web", url=demo_http_url), runtime=runtime).ok
    finally:
        runtime.shutdown()
    assert run(ip, f"call {demo}.echo message=still").output == "still"
