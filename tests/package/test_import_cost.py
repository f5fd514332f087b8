"""Nothing is imported that a command does not need: checked in a fresh process, by what is
loaded, never by how long it took.

Loading the extension and ``%mcp help`` need no SDK. ``%mcp connect`` prints one line: it needs
no pandas. A valid call to a tool with a plain inputSchema needs no jsonschema (a quick check
accepts it); jsonschema is imported the first time a value needs the full validator, and even
then without its optional IRI grammar.

The three paths run one after the other in one fresh interpreter (starting one costs seconds):
each step's check says it loaded none of the modules the next step is asked about, so whatever
a step loads is its own. Both servers run over stdio: one in this process would load the SDK's
server side, which validates with jsonschema.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from tests.helpers.support import DEMO_ARGS, DEMO_STDIO, REPO

pytestmark = pytest.mark.slow  # one fresh interpreter runs the extension, the magic and the API

BOUND_SECONDS = 120
NOTE = """
import json, sys
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""
EXTENSION = """
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_line_magic("load_ext", "anvia_nb")
shell.run_cell("1 + 1")  # the end-of-cell hook runs too
shell.run_line_magic("mcp", "help")
"""
MAGIC = f"""
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
                                         args=DEMO_ARGS))
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
""".replace("DEMO_ARGS", repr(DEMO_ARGS))


@pytest.fixture(scope="module")
def loaded() -> list[set[str]]:
    """The top-level modules loaded after the extension's path, the magic's, then connect_mcp's."""
    code = "\n".join(textwrap.dedent(part) for part in (EXTENSION, NOTE, MAGIC, NOTE, CONNECT_MCP, NOTE))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=BOUND_SECONDS, cwd=REPO, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = [set(json.loads(line)) for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(found) == 3, done.stdout[-2000:]
    return found


def test_loading_the_extension_loads_no_sdk_and_no_pandas_until_a_command_needs_them(
    loaded: list[set[str]],
) -> None:
    assert "IPython" in loaded[0]
    assert not loaded[0] & {"mcp", "mcp_types", "pandas", "httpx2", "jsonschema"}


def test_mcp_connect_and_a_valid_call_import_neither_pandas_nor_jsonschema(loaded: list[set[str]]) -> None:
    assert "mcp" in loaded[1]  # the magic did connect
    assert not loaded[1] & {"pandas", "jsonschema", "rfc3987_syntax", "ipywidgets"}


def test_connect_mcp_imports_jsonschema_only_when_a_value_needs_the_full_validator(loaded: list[set[str]]) -> None:
    assert "jsonschema" not in loaded[1]  # so the magic's path did not load it for connect_mcp's
    found = loaded[2]
    assert "jsonschema" in found  # the invalid value needed the full validator's words
    assert "rfc3987_syntax" not in found  # imported without the grammar no check here uses
    assert "pandas" not in found


def test_stdio_connections_load_no_http_client(loaded: list[set[str]]) -> None:
    assert not (loaded[1] | loaded[2]) & {"httpcore2", "h11"}  # both servers here are over stdio
