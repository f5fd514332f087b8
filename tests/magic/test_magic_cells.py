"""Per-cell connections, re-running connects, unload, and no server process outliving its close.

The stdio servers here are ``lite_server.py`` (the demo's echo in a process that starts in
milliseconds): these tests follow a process's life, not the demo's tools."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.runtime import get_runtime
from tests.helpers.lite_server import LITE_STDIO
from tests.helpers.magic import run
from tests.helpers.waiting import wait_until


def test_a_cell_magic_connect_runs_its_body_with_the_connection_and_then_closes_it(
    ip: InteractiveShell, live_children: Callable[[], set[int]]
) -> None:
    before = live_children()
    result = ip.run_cell(
        f"%%mcp connect percell {LITE_STDIO}\n"
        "_anvia_test_names = list(get_ipython().run_line_magic('mcp', 'servers')['name'])\n"
        "_anvia_test_view = %mcp call percell.echo message=inside\n"
        "_anvia_test_view.output * 2\n"
    )
    assert result.error_in_exec is None, result.error_in_exec
    assert result.result == "insideinside"
    assert "percell" in ip.user_ns["_anvia_test_names"]
    assert "percell" not in get_runtime().names()
    wait_until(lambda: live_children() <= before, "the per-cell server to exit")


def test_a_cell_magic_connect_closes_when_its_body_raises(
    ip: InteractiveShell, live_children: Callable[[], set[int]]
) -> None:
    before = live_children()
    result = ip.run_cell(f"%%mcp connect percell {LITE_STDIO}\nraise ValueError('body failed')\n")
    assert isinstance(result.error_in_exec, ValueError)
    assert "percell" not in get_runtime().names()
    wait_until(lambda: live_children() <= before, "the per-cell server to exit")


def test_a_cell_magic_connect_closes_when_the_cell_is_interrupted(
    ip: InteractiveShell, live_children: Callable[[], set[int]]
) -> None:
    before = live_children()
    result = ip.run_cell(f"%%mcp connect percell {LITE_STDIO}\nraise KeyboardInterrupt\n")
    assert isinstance(result.error_in_exec, KeyboardInterrupt)
    assert "percell" not in get_runtime().names()
    wait_until(lambda: live_children() <= before, "the interrupted cell's server to exit")


def test_the_cell_option_closes_the_connection_after_the_cell_even_when_it_raised(
    ip: InteractiveShell, live_children: Callable[[], set[int]]
) -> None:
    before = live_children()
    ok = ip.run_cell(
        f"%mcp connect c1 --cell {LITE_STDIO}\n"
        "_anvia_test_open = 'c1' in get_ipython().run_line_magic('mcp', 'servers')['name'].tolist()\n"
    )
    assert ok.error_in_exec is None and ip.user_ns["_anvia_test_open"] is True
    assert "c1" not in get_runtime().names()
    failed = ip.run_cell(f"%mcp connect c2 --cell {LITE_STDIO}\nraise KeyboardInterrupt\n")
    assert isinstance(failed.error_in_exec, KeyboardInterrupt)
    assert "c2" not in get_runtime().names()
    wait_until(lambda: live_children() <= before, "the --cell servers to exit")


def test_kernel_scoped_connections_survive_the_cell(ip: InteractiveShell, demo_http_url: str) -> None:
    ip.run_cell(f"%mcp connect kept --http {demo_http_url}\n")  # the scope is the runtime's, whatever the transport
    ip.run_cell("x = 1\n")
    assert "kept" in get_runtime().names()
    assert get_runtime().entry("kept").scope == "kernel"


def test_rerunning_a_connect_cell_replaces_the_connection_without_leaking_its_process(
    ip: InteractiveShell, live_children: Callable[[], set[int]]
) -> None:
    before = live_children()
    cell = f"%mcp connect again {LITE_STDIO}\n"
    ip.run_cell(cell)
    first = get_runtime().server("again")
    after_first = live_children()
    ip.run_cell(cell)
    second = get_runtime().server("again")
    assert first is not second and not first.is_open and second.is_open
    wait_until(lambda: len(live_children() - before) == len(after_first - before), "the old server to exit")
    run(ip, "close again")
    wait_until(lambda: live_children() <= before, "every server to exit")


def test_close_all_leaves_no_child_process(
    ip: InteractiveShell, demo_http_url: str, live_children: Callable[[], set[int]]
) -> None:
    before = live_children()
    run(ip, f"connect one {LITE_STDIO}")
    run(ip, f"connect two --env LOG_LEVEL=debug {LITE_STDIO}")
    run(ip, f"connect three --http {demo_http_url}")
    assert len(live_children() - before) >= 2
    run(ip, "close one")
    run(ip, "close --all")
    assert get_runtime().names() == []
    wait_until(lambda: live_children() <= before, "every stdio server to exit")


def test_unloading_the_extension_closes_everything_and_loading_brings_it_back(
    ip: InteractiveShell, live_children: Callable[[], set[int]]
) -> None:
    before = live_children()
    run(ip, f"connect unloaded {LITE_STDIO}")
    ip.run_line_magic("unload_ext", "anvia_nb")
    try:
        assert get_runtime().names() == []
        assert "mcp" not in ip.magics_manager.magics["line"]
        wait_until(lambda: live_children() <= before, "the server to exit on unload")
    finally:
        ip.run_line_magic("load_ext", "anvia_nb")
    assert "mcp" in ip.magics_manager.magics["line"]


def test_servers_says_when_a_stdio_server_exited_on_its_own_until_it_is_closed(ip: InteractiveShell) -> None:
    run(ip, f"connect gone {LITE_STDIO}")
    assert run(ip, "servers").set_index("name").loc["gone", "status"] == "open"
    with contextlib.suppress(Exception):  # the call fails: its server is gone (what it says is tested elsewhere)
        run(ip, "call gone.crash")

    def status() -> str:
        return str(run(ip, "servers").set_index("name").loc["gone", "status"])

    wait_until(lambda: status() == "server exited (status 3)", "%mcp servers to say the server exited")
    assert "server exited (status 3)" in repr(get_runtime().server("gone"))
    assert not get_runtime().server("gone").is_open  # no call can be made on it
    run(ip, "close gone")
    assert "gone" not in get_runtime().names()
