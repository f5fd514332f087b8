"""%mcp subscribe and unsubscribe in a real IPython shell against the demo server: the updates of
``demo://counter`` counted in %mcp resources; bad input and a server without subscriptions are
one-line errors and nothing is sent."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run
from tests.helpers.waiting import WAIT_SECONDS

LOG_SERVER = str(Path(__file__).parents[1] / "servers" / "log_server.py")
COUNTER = "demo://counter"


def _row(ip: InteractiveShell) -> tuple[bool, int]:
    resources = run(ip, "resources demo")
    row = resources[resources["uri"] == COUNTER].iloc[0]
    return bool(row["subscribed"]), int(row["updates"])


def test_subscribe_counts_updates_in_resources_and_unsubscribe_stops_them(
    ip: InteractiveShell, demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _row(ip) == (False, 0)
    server = get_runtime().server("demo")
    heard = threading.Event()
    server.subscriptions.on_update(lambda _name, _uri: heard.set())
    run(ip, f"subscribe demo {COUNTER}")
    assert f"subscribed to {COUNTER} on demo" in capsys.readouterr().out
    run(ip, "call demo.bump")
    assert heard.wait(WAIT_SECONDS)
    assert _row(ip) == (True, 1)
    run(ip, f"unsubscribe demo {COUNTER}")
    run(ip, "call demo.bump")
    assert _row(ip) == (False, 1)
    with pytest.raises(UsageError, match=f"not subscribed to {COUNTER} on demo"):
        run(ip, f"unsubscribe demo {COUNTER}")
    with pytest.raises(UsageError, match="Usage: %mcp subscribe NAME URI"):
        run(ip, "subscribe demo")


def test_a_server_without_subscriptions_is_refused_before_anything_is_sent(ip: InteractiveShell) -> None:
    run(ip, f"connect legacy --stdio {sys.executable} {LOG_SERVER} legacy")
    with pytest.raises(UsageError) as info:
        run(ip, f"subscribe legacy {COUNTER}")
    assert "does not offer resource subscriptions" in str(info.value) and "\n" not in str(info.value)
    sent = get_runtime().server("legacy").trace.entries()
    assert not [entry for entry in sent if "subscri" in str(entry.message)]
