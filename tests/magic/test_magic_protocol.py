"""``%mcp connect NAME --protocol VERSION``: the connection speaks that protocol generation; an
unknown value is one usage line, before anything starts; Tab offers the values; a config file's
``"protocol"`` key does the same. ``lite_server.py`` answers ``server/discover``, so a connection
it speaks 2025-11-25 with asked for the handshake only."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from IPython.core.completer import provisionalcompleter
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.magic.commands.config_files import ConfigFileError, servers_from_config_text
from anvia_nb.runtime import get_runtime
from tests.helpers.lite_server import LITE_STDIO
from tests.helpers.magic import run


def test_the_protocol_option_chooses_the_generation_over_stdio_and_http(
    ip: InteractiveShell, demo_http_url: str
) -> None:
    run(ip, f"connect lite --protocol 2025-11-25 {LITE_STDIO}")
    assert get_runtime().server("lite").client.protocol_version == "2025-11-25"
    run(ip, f"connect web --protocol 2025-11-25 --http {demo_http_url}")
    assert get_runtime().server("web").client.protocol_version == "2025-11-25"
    run(ip, f"connect web --protocol 2026-07-28 --http {demo_http_url}")  # replaces it
    assert get_runtime().server("web").client.protocol_version == "2026-07-28"


@pytest.mark.parametrize("value", ["2025-06-18", "latest"])
def test_an_unknown_protocol_is_one_usage_line_before_anything_starts(
    ip: InteractiveShell, live_children: Callable[..., set[int]], value: str
) -> None:
    before = live_children()
    with pytest.raises(UsageError) as info:
        run(ip, f"connect lite --protocol {value} {LITE_STDIO}")
    message = str(info.value)
    assert "\n" not in message
    assert "'2025-11-25'" in message and "'2026-07-28'" in message and repr(value) in message
    assert "lite" not in get_runtime().names()
    assert live_children() == before


def test_protocol_does_not_go_with_replay(ip: InteractiveShell) -> None:
    with pytest.raises(UsageError, match="--replay FILE answers from a recording"):
        run(ip, "connect old --protocol 2025-11-25 --replay somewhere.jsonl")


def test_tab_offers_the_option_and_its_values(ip: InteractiveShell) -> None:
    def complete(line: str) -> list[str]:
        with provisionalcompleter():
            return [c.text for c in ip.Completer.completions(line, len(line))]

    assert "--protocol" in complete("%mcp connect x --prot")
    assert complete("%mcp connect x --protocol 20") == ["2025-11-25", "2026-07-28"]


def test_a_config_file_entry_may_name_its_protocol() -> None:
    entries = {"old": {"command": "server", "protocol": "2025-11-25"}, "web": {"url": "http://127.0.0.1:9/mcp"}}
    found = servers_from_config_text(json.dumps({"mcpServers": entries}))
    assert found.connections["old"].protocol == "2025-11-25"
    assert found.connections["web"].protocol is None
    bad = {"web": {"url": "http://127.0.0.1:9/mcp", "protocol": "2024"}}
    with pytest.raises(ConfigFileError, match="protocol must be '2025-11-25'"):
        servers_from_config_text(json.dumps({"mcpServers": bad}))
