"""Resources, templates, prompts, completion, resource links and maps over DataFrame rows, against a
server nobody here wrote: @modelcontextprotocol/server-everything from npm, cached by
scripts/setup-test (the test installs nothing; without it the test is skipped with the reason,
except in CI, where it fails)."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator

import numpy as np
import pandas as pd
import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.matcher import completions_for_line
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run
from tests.helpers.support import npm_servers, require_setup
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.thirdparty


@pytest.fixture(scope="module")
def everything() -> str:
    folder = npm_servers()
    require_setup(folder / "anvia-ready", "@modelcontextprotocol/server-everything")
    executable = folder / "node_modules" / ".bin" / "mcp-server-everything"
    assert executable.exists(), f"{executable} is missing: run scripts/setup-test again"
    return str(executable)


@pytest.fixture
def every(ip: InteractiveShell, everything: str, live_children: Callable[[], set[int]]) -> Iterator[str]:
    """server-everything connected as ``every`` for one test: closed after it, and its process gone."""
    before = live_children()
    run(ip, f"connect every --stdio {everything} stdio")
    try:
        yield "every"
    finally:
        run(ip, "close every")
    wait_until(lambda: live_children() <= before, "server-everything to exit")


def test_server_everything_resources_prompts_completion_and_links(ip: InteractiveShell, every: str) -> None:
    resources = run(ip, "resources every")
    assert len(resources) >= 5 and resources["uri"].str.startswith("demo://resource/").all()
    templates = run(ip, "templates every")
    assert "demo://resource/dynamic/text/{resourceId}" in set(templates["uriTemplate"])
    first = resources.iloc[0]["uri"]
    read = run(ip, f"read every {first}")
    assert read.text and "read from server every" in read._repr_mimebundle_()["text/html"]
    dynamic = run(ip, 'read every "Dynamic Text Resource" resourceId=2')
    assert dynamic.uri == "demo://resource/dynamic/text/2" and "Resource 2" in str(dynamic.text)

    prompts = run(ip, "prompts every")
    assert {"simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"} <= set(prompts["name"])
    weather = run(ip, "prompt every.args-prompt city=Oslo")
    assert "Oslo" in weather.messages[0]["content"]["text"]
    embedded = run(ip, "prompt every.resource-prompt resourceType=Text resourceId=1")
    assert "resource from server every: demo://resource/dynamic/text/1" in embedded._repr_mimebundle_()["text/html"]
    with pytest.raises(UsageError, match="every.args-prompt was not asked for: it needs city"):
        run(ip, "prompt every.args-prompt state=Oslo")

    runtime = get_runtime()
    line = "%mcp prompt every.completable-prompt department=Engineering name="
    assert completions_for_line(line, runtime) == ["name=Alice", "name=Bob", "name=Charlie"]
    assert "department=Sales" in completions_for_line("%mcp prompt every.completable-prompt department=S", runtime)

    links = run(ip, "call every.get-resource-links count=2")
    assert len(links.links) == 2 and "(not fetched)" in links._repr_mimebundle_()["text/html"]
    on_request = links.read_link(1)
    assert on_request.uri == links.links[1]["uri"]
    assert "read on request from server every" in on_request._repr_mimebundle_()["text/html"]


def test_a_map_over_a_real_dataframe_against_server_everything(ip: InteractiveShell, every: str) -> None:
    numbers = pd.DataFrame(
        {"a": np.array([1, 2, 3, 4], dtype=np.int64), "b": [0.5, 1.5, 2.5, 3.5], "who": list("wxyz")},
        index=["w", "x", "y", "z"],
    )
    ip.user_ns["_anvia_test_df"] = numbers
    sums = run(ip, "map every.get-sum --frame _anvia_test_df --concurrency 3")
    assert list(sums.index) == ["w", "x", "y", "z"] and list(sums.columns[:3]) == ["a", "b", "who"]
    assert list(sums["status"]) == ["ok"] * 4
    assert list(sums["output"]) == [
        "The sum of 1 and 0.5 is 1.5.",
        "The sum of 2 and 1.5 is 3.5.",
        "The sum of 3 and 2.5 is 5.5.",
        "The sum of 4 and 3.5 is 7.5.",
    ]

    ip.user_ns["_anvia_test_df"] = pd.DataFrame({"a": [1, "two"], "b": [1, 2]})
    invalid = run(ip, "map every.get-sum --frame _anvia_test_df")
    assert list(invalid["status"]) == ["ok", "invalid"]
    assert invalid["error"][1].startswith("not sent: a: 'two' is not of type 'number'")

    ip.user_ns["_anvia_test_df"] = pd.DataFrame({"location": ["Chicago", "New York", "Atlantis"]})
    weather = run(ip, "map every.get-structured-content --frame _anvia_test_df")
    assert list(weather["status"]) == ["ok", "ok", "invalid"]  # an enum the inputSchema does not list
    assert str(weather["temperature"].dtype) == "Float64"  # the outputSchema's number
    assert str(weather["conditions"].dtype) == "string"
    assert weather["humidity"][:2].notna().all() and weather["humidity"][2:].isna().all()


def test_tab_offers_every_city_of_get_structured_content_and_each_one_calls(ip: InteractiveShell, every: str) -> None:
    line = "%mcp call every.get-structured-content location="
    offered = completions_for_line(line, get_runtime())
    assert offered == [
        "location='New York'",
        "location=Chicago",
        "location='Los Angeles'",
    ]  # issue 40: not Chicago alone
    for word in offered:
        assert run(ip, f"call every.get-structured-content {word}").arguments == {"location": word[9:].strip("'")}


def test_interrupting_a_map_on_server_everything_cancels_its_calls_and_keeps_the_rows_done(
    ip: InteractiveShell, every: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [{"duration": 0, "steps": 1}] * 2 + [{"duration": 120, "steps": 120}] * 4
    ip.user_ns["_anvia_test_df"] = pd.DataFrame(rows)
    trace = get_runtime().server("every").client.trace

    def calls_sent() -> int:
        return sum(1 for e in trace.entries() if e.direction == "sent" and e.method == "tools/call")

    def interrupt_when_the_slow_rows_run() -> None:
        # Two at a time: once four calls were sent, the two quick rows are done.
        wait_until(lambda: calls_sent() >= 4, "the slow rows to start", seconds=60)
        os.kill(os.getpid(), signal.SIGINT)

    watcher = threading.Thread(target=interrupt_when_the_slow_rows_run, daemon=True)
    watcher.start()
    out = run(ip, "map every.trigger-long-running-operation --frame _anvia_test_df --concurrency 2")
    watcher.join(60)
    assert "interrupted after 2 of 6 rows; the calls in flight were cancelled" in capsys.readouterr().err
    assert list(out["status"]) == ["ok", "ok", "cancelled", "cancelled", "not run", "not run"]
    assert "Long running operation completed" in out["output"][0]
    cancelled = [e for e in trace.entries() if e.direction == "sent" and e.method == "notifications/cancelled"]
    assert len(cancelled) == 2  # the server was told, for each call in flight
    assert run(ip, "call every.echo message=after").output == "Echo: after"  # the session goes on
