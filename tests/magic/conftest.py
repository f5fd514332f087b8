"""A real IPython shell with ``%load_ext anvia_nb`` (helpers such as ``run`` are in tests/helpers/magic.py).

Every test starts with no connection but the shared ones (tests.helpers.magic.KEPT: the ``demo``
fixture's, one per test process, and a module's own) and ends by closing whatever else it
opened, so a failing test cannot leave a server process behind for the next one.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.testing.globalipapp import start_ipython

from anvia_nb.core import McpServer
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import DEMO_STDIO, KEPT, SHARED_DEMO, Fresh, answers, kept_open, open_kept


@pytest.fixture(scope="session")
def shell() -> InteractiveShell:
    ip: InteractiveShell | None = start_ipython()
    assert ip is not None
    ip.run_line_magic("load_ext", "anvia_nb")
    return ip


def _close_all_but_kept() -> None:
    runtime = get_runtime()
    for name in runtime.names():
        if name not in KEPT:
            runtime.close(name)


@pytest.fixture
def ip(shell: InteractiveShell) -> Iterator[InteractiveShell]:
    """The shell with default settings, an empty history and no connection but the shared ones."""
    _close_all_but_kept()
    get_runtime().history.clear()
    yield shell
    shell.run_line_magic("reset_selective", "-f ^_anvia_test")
    _close_all_but_kept()
    magics = shell.magics_manager.registry["McpMagics"]
    for name in magics.trait_names(config=True):  # every %config McpMagics setting, back to its default
        setattr(magics, name, magics.trait_defaults(name))


@pytest.fixture(scope="session")
def _shared_demo_scope(shell: InteractiveShell) -> Iterator[dict[str, McpServer]]:
    """Keeps ``demo`` open from the first test that asks for it to the end of the session; the
    dict holds the connection the ``demo`` fixture opened (a test may have replaced it)."""
    with kept_open(SHARED_DEMO):
        yield {}
    get_runtime().close_all()


@pytest.fixture
def demo(ip: InteractiveShell, _shared_demo_scope: dict[str, McpServer]) -> Iterator[str]:
    """A stdio demo connection named ``demo``, shared by the tests of this process: opened once, and
    again when a test closed or replaced it, its server died, or a test left it in a state that
    cannot be put back (see tests.helpers.magic.Fresh). Its handlers, listings and offered links are put
    back after each test; the ``ip`` fixture resets the settings and the history.

    The first call on a fresh demo server waits for it to import jsonschema (about a second), so
    the warm-up call is made here, not in the test that happens to run first.
    """
    opened = _shared_demo_scope

    def ours_and_alive(server: McpServer) -> bool:
        return server is opened.get(SHARED_DEMO) and answers(server)

    runtime = get_runtime()
    if open_kept(ip, SHARED_DEMO, DEMO_STDIO, alive=ours_and_alive):
        opened[SHARED_DEMO] = runtime.server(SHARED_DEMO)
        runtime.call(SHARED_DEMO, "echo", {"message": "warm up"})
    runtime.history.clear()
    server = opened[SHARED_DEMO]
    fresh = Fresh.of(server)
    yield SHARED_DEMO
    runtime = get_runtime()  # a test may have unloaded and loaded the extension
    if SHARED_DEMO in runtime.names() and runtime.server(SHARED_DEMO) is server and not fresh.put_back(server):
        runtime.close(SHARED_DEMO)
