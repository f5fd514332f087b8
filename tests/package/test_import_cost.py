"""Nothing is imported that a command does not need: checked in a fresh process, by what is
loaded, never by how long it took.

``%mcp connect`` prints one line: it needs no pandas. A valid call to a tool with a plain
inputSchema needs no jsonschema (a quick check accepts it); jsonschema is imported the first time
a value needs the full validator, and even then without its optional IRI grammar.

Both paths run one after the other in one fresh interpreter (starting one costs seconds): the
magic's first, whose check says it loaded none of the heavy modules, so whatever the second path
loads is its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from support import DEMO_STDIO, REPO

BOUND_SECONDS = 120
FLAGS = """
import json, sys
print(json.dumps({name: name in sys.modules for name in ("pandas", "jsonschema", "rfc3987_syntax", "ipywidgets")}))
"""
MAGIC = f"""
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_line_magic("load_ext", "anvia_nb")
shell.run_line_magic("mcp", "connect demo {DEMO_STDIO}")
view = shell.run_line_magic("mcp", "call demo.echo message=hi")
shell.display_formatter.format(view)
assert view.output == "hi", view.output
shell.run_line_magic("mcp", "close demo")
"""
CONNECT_MCP = """
import asyncio, json, sys
from anvia_nb import connect_mcp, mcp

async def main():
    server = await connect_mcp(mcp.stdio(name="demo", command=sys.executable,
                                         args=["-m", "anvia_nb.demo_server"]))
    try:
        echo = server.tool("echo")
        assert await echo.call({"message": "hi"}) == "hi"
        assert (await echo.call_outcome({"message": "hi"})).status == "ok"
        valid = {name: name in sys.modules for name in ("jsonschema",)}
        problems = echo.check_arguments({"message": 1})
    finally:
        await server.close()
    return valid, problems

valid, problems = asyncio.run(main())
assert valid == {"jsonschema": False}, valid
assert problems == ["message: 1 is not of type 'string'"], problems
"""


@pytest.fixture(scope="module")
def loaded() -> list[dict[str, bool]]:
    """Which heavy modules were loaded after the magic's path, then after connect_mcp's."""
    code = "\n".join(textwrap.dedent(part) for part in (MAGIC, FLAGS, CONNECT_MCP, FLAGS))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=BOUND_SECONDS,
                          cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    found: list[dict[str, bool]] = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(found) == 2, done.stdout[-2000:]
    return found


def test_mcp_connect_and_a_valid_call_import_neither_pandas_nor_jsonschema(loaded: list[dict[str, bool]]) -> None:
    assert loaded[0] == {"pandas": False, "jsonschema": False, "rfc3987_syntax": False, "ipywidgets": False}


def test_connect_mcp_imports_jsonschema_only_when_a_value_needs_the_full_validator(
    loaded: list[dict[str, bool]],
) -> None:
    assert loaded[0]["jsonschema"] is False  # so the magic's path did not load it for connect_mcp's
    found = loaded[1]
    assert found["jsonschema"] is True  # the invalid value needed the full validator's words
    assert found["rfc3987_syntax"] is False  # imported without the grammar no check here uses
    assert found["pandas"] is False
