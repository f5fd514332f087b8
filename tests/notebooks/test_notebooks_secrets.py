"""The notebooks as stored hold no secret and no path of the machine that ran them: no token-like
string, no value a connection was given as a secret, and every echo of one masked."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.helpers.stored_notebooks import NAMES, NOTEBOOK_DIR, code_cells, output_texts, read

TOKEN_PATTERNS = {
    "GitHub token": r"\bgh[pousr]_[A-Za-z0-9]{20,}",
    "OpenAI/Anthropic-style key": r"\bsk-(?:ant-)?[A-Za-z0-9_-]{20,}",
    "AWS access key": r"\bAKIA[0-9A-Z]{16}\b",
    "Slack token": r"\bxox[abprs]-[A-Za-z0-9-]{10,}",
    "JWT": r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}",
    "private key": r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
    "Jupyter server token": r"[?&]token=[0-9a-f]{24,}",
    "bearer token": r"Bearer [A-Za-z0-9._~+/-]{16,}",
}
SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASS|AUTH|CREDENTIAL", re.IGNORECASE)


def _machine_paths() -> list[str]:
    paths = {"/tmp/", "/root/", "/home/", "/Users/", "/private/var/", str(NOTEBOOK_DIR.parent)}
    paths.add(str(Path.home()))
    paths.add(tempfile.gettempdir())
    return sorted(p for p in paths if len(p) > 1)


@pytest.mark.parametrize("name", NAMES)
def test_no_token_like_string_or_absolute_path_of_this_machine_is_stored(name: str) -> None:
    text = (NOTEBOOK_DIR / name).read_text(encoding="utf-8")
    for what, pattern in TOKEN_PATTERNS.items():
        assert not re.search(pattern, text), f"{name} holds something like a {what}"
    for path in _machine_paths():
        assert path not in text, f"{name} holds the machine path {path!r}"


_ENV_OPTION = re.compile(r"--env\s+([A-Za-z_][A-Za-z0-9_]*)=(\S+)")
_ENV_ASSIGNMENT = re.compile(r"""os\.environ\[["']([A-Za-z_][A-Za-z0-9_]*)["']\]\s*=\s*["']([^"']+)["']""")


def secret_values_in_the_source(nb: Any) -> list[str]:
    """Values of secret-named variables written in code: ``--env NAME=value`` or ``os.environ[NAME] = ...``."""
    found = []
    for cell in code_cells(nb):
        pairs = _ENV_OPTION.findall(cell.source) + _ENV_ASSIGNMENT.findall(cell.source)
        found += [value for key, value in pairs if SECRET_NAME.search(key)]
    return found


@pytest.mark.parametrize("name", NAMES)
def test_secret_values_given_to_a_connection_never_appear_in_an_output(name: str) -> None:
    nb = read(name)
    stored = "\n".join(output_texts(nb)) + json.dumps(nb.metadata.get("widgets", {}))
    for secret in secret_values_in_the_source(nb):
        assert secret not in stored


@pytest.mark.parametrize("name", NAMES)
def test_no_connect_line_writes_a_secret_value_into_the_notebook(name: str) -> None:
    lines = [line for cell in code_cells(read(name)) for line in cell.source.splitlines() if "%mcp connect" in line]
    written = [line for line in lines for key in re.findall(r"--env\s+([A-Za-z_][A-Za-z0-9_]*)=", line)
               if SECRET_NAME.search(key)]
    assert written == [], "pass secrets with --secret-env NAME (the kernel's variable), not --env NAME=value"


def test_the_untrusted_output_notebook_passes_the_kernels_token_and_every_echo_of_it_is_masked() -> None:
    nb = read("04-untrusted-output.ipynb")
    assert any(re.search(r"%mcp connect demo .*--secret-env API_TOKEN\b", cell.source) for cell in code_cells(nb))
    (token,) = set(secret_values_in_the_source(nb))  # the fake value the notebook puts in the kernel's environment
    echoes = [cell for cell in code_cells(nb) if "env_value name=API_TOKEN" in cell.source]
    assert len(echoes) >= 2
    compared = next(cell for cell in echoes if "==" in cell.source)
    for cell in echoes:
        shown = "\n".join(output_texts(nbformat.v4.new_notebook(cells=[cell])))
        assert token not in shown
        assert cell is compared or "••••" in shown
    assert compared.outputs[0]["data"]["text/plain"] == "True"  # the exact value stays in Python
