"""A real IPython shell with ``%load_ext anvia_nb`` (helpers such as ``run`` are in magic_helpers.py).

Every test starts with no connection but the shared ones (magic_helpers.KEPT: the ``demo``
fixture's, and a module's own) and ends by closing whatever else it opened, so a failing test
cannot leave a server process behind for the next one.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.testing.globalipapp import start_ipython
from magic_helpers import DEMO_STDIO, KEPT, SHARED_DEMO, kept_open, open_kept

from anvia_nb.runtime import get_runtime


@pytest.fixture(scope="session")
def shell() -> InteractiveShell:
    ip = start_ipython()
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


@pytest.fixture(scope="module")
def _shared_demo_scope(shell: InteractiveShell) -> Iterator[None]:
    with kept_open(SHARED_DEMO):
        yield
    get_runtime().close_all()


@pytest.fixture
def demo(ip: InteractiveShell, _shared_demo_scope: None) -> str:
    """A stdio demo connection named ``demo``, opened once per module (and again if a test closed it).

    The first call on a fresh demo server waits for it to import jsonschema (about a second), so
    the warm-up call is made here, not in the test that happens to run first.
    """
    runtime = get_runtime()
    if open_kept(ip, SHARED_DEMO, DEMO_STDIO):
        runtime.call(SHARED_DEMO, "echo", {"message": "warm up"})
    runtime.history.clear()
    return SHARED_DEMO
