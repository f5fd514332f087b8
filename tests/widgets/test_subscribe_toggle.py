"""The Resources tab's Subscribe toggle, without a browser: pressing it subscribes to the chosen
resource, a bump of ``demo://counter`` is counted beside it, releasing it unsubscribes."""

from __future__ import annotations

import threading

from anvia_nb.runtime import Runtime
from anvia_nb.widgets import panel
from tests.helpers.waiting import WAIT_SECONDS

COUNTER = "demo://counter"


def test_the_subscribe_toggle_counts_the_updates_of_the_chosen_resource(demo_runtime: Runtime) -> None:
    tab = panel(runtime=demo_runtime).resources_tab
    assert tab.listing is not None
    tab.listing.result(WAIT_SECONDS)
    toggle = tab.subscription
    assert toggle.toggle.disabled  # nothing chosen
    tab.select(COUNTER)
    assert not toggle.toggle.disabled and not toggle.toggle.value
    server = demo_runtime.server("demo")
    heard = threading.Event()
    server.subscriptions.on_update(lambda _name, _uri: heard.set())
    toggle.toggle.value = True
    assert server.subscriptions.subscribed == [COUNTER]
    assert toggle.updates.value == "no updates"
    demo_runtime.run(server.tool("bump").call_outcome({}))
    assert heard.wait(WAIT_SECONDS)
    assert tab.listing is not None
    tab.listing.result(WAIT_SECONDS)  # the panel lists the resources again on an update; the choice stays
    assert tab.subscription.uri == COUNTER
    assert toggle.updates.value.startswith("1 update, the last at ")
    toggle.toggle.value = False
    assert server.subscriptions.subscribed == []
    tab.select("demo://readme")
    assert not toggle.toggle.value and toggle.updates.value == ""
