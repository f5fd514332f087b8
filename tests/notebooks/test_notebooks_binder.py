"""Binder's environment, rebuilt here: a fresh virtual environment gets exactly the install steps the
``binder/`` files give (as repo2docker runs them, from the repository root), then runs the quickstart
notebook top to bottom in a kernel of that environment.

It installs from the package registry and takes one to three minutes: it is marked ``thirdparty``
(deselect with ``-m "not thirdparty"``), and CI runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
BINDER = REPO / "binder"
QUICKSTART = REPO / "notebooks" / "01-quickstart.ipynb"
INSTALL_TIMEOUT_SECONDS = 420
RUN_TIMEOUT_SECONDS = 240


def _environment(venv: Path, home: Path) -> dict[str, str]:
    """The venv first on PATH, Jupyter's data and config dirs isolated, nothing of pytest's."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTEST_", "JUPYTER_", "VIRTUAL_ENV", "PYTHONPATH", "IPYTHONDIR"))}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    env["JUPYTER_CONFIG_DIR"] = str(home / "jupyter-config")
    env["JUPYTER_DATA_DIR"] = str(home / "jupyter-data")
    env["IPYTHONDIR"] = str(home / "ipython")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(command: list[str], env: dict[str, str], timeout_seconds: float) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=timeout_seconds, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def binder_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A venv built by the binder files' own install steps."""
    home = tmp_path_factory.mktemp("binder")
    venv = home / "venv"
    env = _environment(venv, home)
    _run([sys.executable, "-m", "venv", str(venv)], env, 120)
    python = str(venv / "bin" / "python")
    requirements = BINDER / "requirements.txt"
    assert requirements.exists(), "binder/requirements.txt is what repo2docker installs"
    _run([python, "-m", "pip", "install", "--quiet", "-r", str(requirements.relative_to(REPO))], env,
         INSTALL_TIMEOUT_SECONDS)
    post_build = BINDER / "postBuild"
    if post_build.exists():
        _run(["bash", str(post_build.relative_to(REPO))], env, INSTALL_TIMEOUT_SECONDS)
    return venv, env


@pytest.mark.thirdparty
@pytest.mark.timeout(INSTALL_TIMEOUT_SECONDS + RUN_TIMEOUT_SECONDS + 60)
def test_the_quickstart_notebook_runs_top_to_bottom_in_the_binder_environment(
    binder_venv: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    venv, env = binder_venv
    _run([str(venv / "bin" / "jupyter"), "nbconvert", "--to", "notebook", "--execute", str(QUICKSTART),
          "--output-dir", str(tmp_path), f"--ExecutePreprocessor.timeout={RUN_TIMEOUT_SECONDS}",
          "--ExecutePreprocessor.kernel_name=python3"], env, RUN_TIMEOUT_SECONDS + 60)
    executed = nbformat.read(tmp_path / QUICKSTART.name, as_version=4)
    outputs = [output for cell in executed.cells if cell.cell_type == "code" for output in cell.outputs]
    assert [o for o in outputs if o.output_type == "error"] == []
    texts = "\n".join(str(o.get("text", "") or o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert "demo: stdio · anvia-demo" in texts
    assert "Hello from a notebook" in texts
    assert "('5', {'sum': 5})" in texts


@pytest.mark.thirdparty
def test_the_binder_kernel_is_the_binder_environments_python(binder_venv: tuple[Path, dict[str, str]]) -> None:
    venv, env = binder_venv
    spec = _run([str(venv / "bin" / "jupyter"), "kernelspec", "list", "--json"], env, 60)
    kernels = json.loads(spec.stdout)["kernelspecs"]
    assert str(venv) in kernels["python3"]["resource_dir"]


@pytest.mark.thirdparty
def test_the_binder_jupyterlab_has_the_widgets_extension_so_forms_render(
    binder_venv: tuple[Path, dict[str, str]],
) -> None:
    venv, env = binder_venv
    listing = _run([str(venv / "bin" / "jupyter"), "labextension", "list"], env, 120)
    text = listing.stdout + listing.stderr
    line = next((ln for ln in text.splitlines() if "@jupyter-widgets/jupyterlab-manager" in ln), "")
    assert "enabled" in line and "OK" in line, text
