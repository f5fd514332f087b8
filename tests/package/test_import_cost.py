"""Nothing is imported that a command does not need: checked in fresh processes, by what is
loaded, never by how long it took.

``%mcp connect`` prints one line: it needs no pandas. A valid call to a tool with a plain
inputSchema needs no jsonschema (a quick check accepts it); jsonschema is imported the first time
a value needs the full validator, and even then without its optional IRI grammar.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from support import DEMO_STDIO, REPO

BOUND_SECONDS = 120
FLAGS = """
import json, sys
print(json.dumps({name: name in sys.modules for name in ("pandas", "jsonschema", "rfc3987_syntax", "ipywidgets")}))
"""


def loaded_after(code: str) -> dict[str, bool]:
    """Run ``code`` in a fresh interpreter, then say which of the heavy modules it loaded."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code) + FLAGS], capture_output=True, text=True,
                          timeout=BOUND_SECONDS, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    found: dict[str, bool] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_mcp_connect_and_a_valid_call_import_neither_pandas_nor_jsonschema() -> None:
    found = loaded_after(f"""
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        shell.run_line_magic("load_ext", "anvia_nb")
        shell.run_line_magic("mcp", "connect demo {DEMO_STDIO}")
        view = shell.run_line_magic("mcp", "call demo.echo message=hi")
        shell.display_formatter.format(view)
        assert view.output == "hi", view.output
        shell.run_line_magic("mcp", "close demo")
    """)
    assert found == {"pandas": False, "jsonschema": False, "rfc3987_syntax": False, "ipywidgets": False}


def test_connect_mcp_imports_jsonschema_only_when_a_value_needs_the_full_validator() -> None:
    found = loaded_after("""
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
    """)
    assert found["jsonschema"] is True  # the invalid value needed the full validator's words
    assert found["rfc3987_syntax"] is False  # imported without the grammar no check here uses
    assert found["pandas"] is False
