"""Binder's environment: scripts/setup-test builds a virtual environment with exactly the install
steps the ``binder/`` files give (as repo2docker runs them, from the repository root), and rebuilds it
when they change; these tests run the quickstart and real-servers notebooks top to bottom, each in a fresh kernel
of that environment (one ``jupyter nbconvert`` for both: each Jupyter command there spends seconds
importing), and check its kernel and JupyterLab. They install nothing.

Its packages come from the registry: the tests are marked ``thirdparty`` (deselect with
``-m "not thirdparty"``) and skip with the reason when setup could not build it, except in CI.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.helpers.support import REPO, binder_venv, require_setup

BINDER = REPO / "binder"
QUICKSTART = REPO / "notebooks" / "01-quickstart.ipynb"
REAL_SERVERS = REPO / "notebooks" / "05-real-servers.ipynb"
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
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The venv scripts/setup-test built with the binder files' own install steps, and an
    environment for it with Jupyter's dirs in a fresh home."""
    venv = binder_venv()
    require_setup(venv.parent / "anvia-ready", "Binder's environment")
    return venv, _environment(venv, tmp_path_factory.mktemp("binder"))


@pytest.fixture(scope="module")
def executed(binder_env: tuple[Path, dict[str, str]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both notebooks executed by one ``jupyter nbconvert``, each in its own fresh kernel; a cell's
    error is kept in its notebook (``--allow-errors``) so that each test judges its own. No
    third-party server is installed for the kernels: the real-servers notebook replays its
    recordings, and the quickstart uses only the bundled demo server."""
    venv, env = binder_env
    env = {key: value for key, value in env.items() if key != "ANVIA_NB_SERVERS_VENV"}
    out = tmp_path_factory.mktemp("executed")
    env["ANVIA_NB_SERVERS_VENV"] = str(out / "no-servers-here")  # nothing to start: all replayed
    _run([str(venv / "bin" / "jupyter"), "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
          str(QUICKSTART), str(REAL_SERVERS), "--output-dir", str(out),
          f"--ExecutePreprocessor.timeout={RUN_TIMEOUT_SECONDS}", "--ExecutePreprocessor.kernel_name=python3"],
         env, 2 * RUN_TIMEOUT_SECONDS + 60)
    return out


def _outputs(executed: Path, notebook: Path) -> list[Any]:
    """The code cells' outputs of ``notebook`` as executed, after checking that none is an error."""
    found = nbformat.read(executed / notebook.name, as_version=4)
    outputs = [output for cell in found.cells if cell.cell_type == "code" for output in cell.outputs]
    assert [o for o in outputs if o.output_type == "error"] == []
    return outputs


@pytest.mark.thirdparty
@pytest.mark.timeout(2 * RUN_TIMEOUT_SECONDS + 120)
def test_the_quickstart_notebook_runs_top_to_bottom_in_the_binder_environment(executed: Path) -> None:
    outputs = _outputs(executed, QUICKSTART)
    texts = "\n".join(str(o.get("text", "") or o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert "demo: stdio · anvia-demo" in texts
    assert "Hello from a notebook" in texts
    assert "('5', {'sum': 5})" in texts


@pytest.mark.thirdparty
def test_the_binder_kernel_is_the_binder_environments_python(binder_env: tuple[Path, dict[str, str]]) -> None:
    venv, env = binder_env
    spec = _run([str(venv / "bin" / "jupyter"), "kernelspec", "list", "--json"], env, 60)
    kernels = json.loads(spec.stdout)["kernelspecs"]
    assert str(venv) in kernels["python3"]["resource_dir"]


@pytest.mark.thirdparty
def test_the_binder_jupyterlab_has_the_widgets_extension_so_forms_render(
    binder_env: tuple[Path, dict[str, str]],
) -> None:
    venv, env = binder_env
    listing = _run([str(venv / "bin" / "jupyter"), "labextension", "list"], env, 120)
    text = listing.stdout + listing.stderr
    line = next((ln for ln in text.splitlines() if "@jupyter-widgets/jupyterlab-manager" in ln), "")
    assert "enabled" in line and "OK" in line, text


def _teaching_recipe() -> str:
    """The recording recipe of docs/teaching.md, as the doc shows it (its first python block after
    "Make a recording")."""
    doc = (REPO / "docs" / "teaching.md").read_text(encoding="utf-8")
    after = doc[doc.index("Make a recording"):]
    return re.search(r"```python\n(.*?)```", after, re.S).group(1)  # type: ignore[union-attr]


@pytest.mark.thirdparty
@pytest.mark.timeout(RUN_TIMEOUT_SECONDS + 120)
def test_the_teaching_recording_recipe_runs_as_written_in_a_binder_kernel(
    binder_env: tuple[Path, dict[str, str]], tmp_path: Path,
) -> None:
    venv, env = binder_env
    servers = venv.parent / "servers"
    require_setup(servers / "anvia-ready", "Binder's MCP servers (postBuild)")
    env = {**env, "ANVIA_NB_SERVERS_VENV": str(servers)}  # where postBuild put them, as on Binder
    recipe = _teaching_recipe()
    assert "%mcp connect time --record recordings/time.jsonl --stdio mcp-server-time" in recipe
    notebook = tmp_path / "recipe.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("%load_ext anvia_nb"),
                                                   nbformat.v4.new_code_cell(recipe)]), notebook)
    (tmp_path / "recordings").mkdir()
    # Started the way Binder starts Jupyter: through binder/start, from the class's folder.
    done = subprocess.run(["bash", str(BINDER / "start"), str(venv / "bin" / "jupyter"), "nbconvert", "--to",
                           "notebook", "--execute", str(notebook), "--output-dir", str(tmp_path / "out"),
                           f"--ExecutePreprocessor.timeout={RUN_TIMEOUT_SECONDS}"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=RUN_TIMEOUT_SECONDS + 60, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    ran = nbformat.read(tmp_path / "out" / "recipe.ipynb", as_version=4)
    shown = json.dumps([cell.outputs for cell in ran.cells])
    assert "command not found" not in shown and "Traceback" not in shown, shown[-2000:]
    recording = (tmp_path / "recordings" / "time.jsonl").read_text(encoding="utf-8")
    assert "convert_time" in recording and "Asia/Tokyo" in recording


def _pins() -> dict[str, str]:
    pins = {}
    for line in (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines():
        name, eq, version = line.partition("==")
        if eq and not line.startswith("#"):
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


def test_binder_pins_every_requirement_but_the_package_itself() -> None:
    lines = [ln.strip() for ln in (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines()]
    requirements = [ln for ln in lines if ln and not ln.startswith("#")]
    assert requirements[0] == "-e ."
    assert all("==" in ln for ln in requirements[1:]), [ln for ln in requirements[1:] if "==" not in ln]
    # notebook: without it a rebuilt Binder image has no Notebook 7 (its /tree), only JupyterLab
    assert {"jupyterlab", "notebook", "ipywidgets", "jupyterlab-widgets", "ipykernel", "mcp"} <= set(_pins())


def test_the_readme_launches_the_quickstart_on_binder() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"https://mybinder\.org/v2/gh/[^)\s]+\?urlpath=lab/tree/([^)\s]+)", readme)
    assert links and all((REPO / link).exists() for link in links), links
    assert "notebooks/01-quickstart.ipynb" in links
    assert "badge_logo.svg" in readme


@pytest.mark.thirdparty
def test_the_binder_environment_has_exactly_the_pinned_versions(binder_env: tuple[Path, dict[str, str]]) -> None:
    venv, env = binder_env
    frozen = _run([str(venv / "bin" / "python"), "-m", "pip", "freeze", "--exclude-editable"], env, 120).stdout
    installed = {}
    for line in frozen.splitlines():
        name, eq, version = line.partition("==")
        if eq:
            installed[name.strip().lower().replace("_", "-")] = version.strip()
    assert {name: installed.get(name) for name in _pins()} == _pins()
    assert sorted(set(installed) - set(_pins())) == []  # a new dependency of the package is pinned too


@pytest.mark.thirdparty
def test_post_build_installed_the_third_party_servers(binder_env: tuple[Path, dict[str, str]]) -> None:
    servers = binder_env[0].parent / "servers"
    assert (servers / "anvia-ready").exists()
    for name in ("mcp-server-time", "mcp-server-git"):
        assert (servers / "bin" / name).exists(), name


@pytest.mark.thirdparty
@pytest.mark.timeout(2 * RUN_TIMEOUT_SECONDS + 120)
def test_the_real_servers_notebook_runs_offline_from_its_recordings_in_the_binder_environment(
    executed: Path,
) -> None:
    outputs = _outputs(executed, REAL_SERVERS)
    texts = "\n".join(str(o.get("text", "") or o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert "time: replayed from recordings/time.jsonl · mcp-time" in texts
    assert "Start the notes" in texts and "replayed from recordings/git.jsonl" in texts
