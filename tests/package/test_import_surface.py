"""What `import anvia_nb` costs and exposes, checked in fresh processes."""

from __future__ import annotations

import json
import subprocess
import sys

import anvia_nb

HEAVY = ("IPython", "ipywidgets", "pandas", "mcp", "mcp_types", "jsonschema", "httpx2")


def _modules_after(code: str) -> list[str]:
    script = f"import sys\n{code}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_importing_the_package_loads_no_jupyter_pandas_or_sdk() -> None:
    loaded = {name.split(".")[0] for name in _modules_after("import anvia_nb")}
    assert not loaded & set(HEAVY)


def test_the_error_tree_is_importable_without_the_sdk() -> None:
    loaded = {name.split(".")[0] for name in _modules_after("from anvia_nb import ToolResultError, AnviaError")}
    assert "mcp" not in loaded


def test_first_use_of_the_api_loads_the_sdk_but_not_jupyter() -> None:
    loaded = {name.split(".")[0] for name in _modules_after("from anvia_nb import connect_mcp, mcp")}
    assert "mcp" in loaded
    assert not loaded & {"IPython", "ipywidgets", "pandas"}


def test_every_public_name_resolves_and_errors_are_one_tree() -> None:
    for name in anvia_nb.__all__:
        assert getattr(anvia_nb, name) is not None, name
    errors = [getattr(anvia_nb, n) for n in anvia_nb.__all__ if n.endswith("Error")]
    assert errors
    assert all(issubclass(e, anvia_nb.AnviaError) for e in errors)
    assert issubclass(anvia_nb.ArgumentError, TypeError)


def test_loading_the_extension_loads_no_sdk_and_no_pandas_until_a_command_needs_them() -> None:
    code = (
        "from IPython.testing.globalipapp import start_ipython\n"
        "ip = start_ipython()\n"
        "ip.run_line_magic('load_ext', 'anvia_nb')\n"
        "ip.run_cell('1 + 1')\n"  # the end-of-cell hook runs too
        "ip.run_line_magic('mcp', 'help')"
    )
    loaded = {name.split(".")[0] for name in _modules_after(code)}
    assert not loaded & {"mcp", "mcp_types", "pandas", "httpx2", "jsonschema"}
