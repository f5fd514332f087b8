"""``%mcp tools`` says what each tool's definition costs a model's context, and its server's tools
together (issue 38): an estimate, documented in docs/audit.md, from the listed definition."""

from __future__ import annotations

import json

import pandas as pd
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.core.audit.tokens import estimate_tokens
from anvia_nb.runtime import get_runtime
from tests.helpers.magic import run


def test_each_tool_has_its_definitions_tokens_and_each_server_its_total(
    ip: InteractiveShell, demo: str, demo_http_url: str
) -> None:
    run(ip, f"connect other --http {demo_http_url}")
    frame = run(ip, "tools")
    assert isinstance(frame, pd.DataFrame)
    server = get_runtime().server(demo)
    listed = {tool.name: tool.info for tool in server.tools}
    mine = frame[frame["server"] == demo].set_index("name")
    for name, info in listed.items():
        body = {"name": name, "description": info.description, "inputSchema": info.input_schema}
        body |= {k: v for k, v in (("title", info.title), ("outputSchema", info.output_schema)) if v is not None}
        body |= {"annotations": info.annotations} if info.annotations is not None else {}
        size = len(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
        assert mine.loc[name, "tokens"] == -(-size // 4) == estimate_tokens(body), name
    assert set(mine["server_tokens"]) == {sum(mine["tokens"])}
    other = frame[frame["server"] == "other"]
    assert set(other["server_tokens"]) == {sum(other["tokens"])}


def test_a_longer_description_costs_more_tokens() -> None:
    short = {"name": "t", "description": "Adds two numbers."}
    long = {"name": "t", "description": "Adds two numbers. " * 100}
    assert estimate_tokens(long) > 50 * estimate_tokens(short) / 5
    assert estimate_tokens({"name": "日本語"}) == -(-len('{"name":"日本語"}'.encode()) // 4)
