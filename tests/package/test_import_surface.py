"""What `import anvia_nb` costs and exposes, checked in a fresh process.

Starting an interpreter that loads the SDK costs seconds, so one process answers every question
here, in the order a user meets them: each step only adds imports, and what is loaded is noted
after each. A step that must load nothing heavy therefore also proves it of the steps before it.
(Loading the IPython extension without the SDK needs the opposite order: test_import_cost.py.)
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import anvia_nb

HEAVY = ("IPython", "ipywidgets", "pandas", "mcp", "mcp_types", "jsonschema", "httpx2")
STEPS = {
    "package": "import anvia_nb",
    "errors": "from anvia_nb import ToolResultError, AnviaError",
    "first use": "from anvia_nb import connect_mcp, mcp",
}


@pytest.fixture(scope="module")
def loaded() -> dict[str, set[str]]:
    """The top-level modules loaded after each step of ``STEPS``, run one after the other."""
    note = "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))"
    script = "\n".join(["import json, sys", *(f"{code}\n{note}" for code in STEPS.values())])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    found = [set(json.loads(line)) for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(found) == len(STEPS), done.stdout[-2000:]
    return dict(zip(STEPS, found, strict=True))


@pytest.mark.slow  # a fresh interpreter (the module's one)
def test_importing_the_package_loads_no_jupyter_pandas_or_sdk(loaded: dict[str, set[str]]) -> None:
    assert not loaded["package"] & set(HEAVY)


@pytest.mark.slow  # a fresh interpreter (the module's one)
def test_the_error_tree_is_importable_without_the_sdk(loaded: dict[str, set[str]]) -> None:
    assert "mcp" not in loaded["errors"]


@pytest.mark.slow  # a fresh interpreter (the module's one)
def test_first_use_of_the_api_loads_the_sdk_but_not_jupyter(loaded: dict[str, set[str]]) -> None:
    assert "mcp" in loaded["first use"]
    assert not loaded["first use"] & {"IPython", "ipywidgets", "pandas"}


def test_every_public_name_resolves_and_errors_are_one_tree() -> None:
    for name in anvia_nb.__all__:
        assert getattr(anvia_nb, name) is not None, name
    errors = [getattr(anvia_nb, n) for n in anvia_nb.__all__ if n.endswith("Error")]
    assert errors
    assert all(issubclass(e, anvia_nb.AnviaError) for e in errors)
    assert issubclass(anvia_nb.ArgumentError, TypeError)
