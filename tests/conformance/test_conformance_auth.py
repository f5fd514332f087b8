"""The MCP conformance suite's client authorization scenarios (``@modelcontextprotocol/conformance``
0.2.0-alpha.12, every ``auth/*`` one, core and extensions), run against anvia_nb's public API:
``mcp.oauth(on_authorize=...)``, ``mcp.client_credentials(...)``, ``mcp.workload_identity(...)`` and
``mcp.identity_assertion(...)`` (tests/helpers/oauth_client.py).

scripts/setup-test caches the suite and the Node 22 it needs in ``.cache/conformance``. The suite
runs once per group of scenarios (``--suite auth``, ``backcompat``, ``extensions`` and ``draft``,
whose scenarios other than ``auth/*`` are not judged here), each scenario
with its own authorization and MCP servers on localhost and a fresh client forked from one Python
that imported anvia_nb once (tests/helpers/client_forks.py). Each scenario is judged here as the
suite judges a single ``--scenario`` run: every check passed, no warnings, and the client finished
with status 0 (or at all, where the scenario expects it to give up)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.client_forks import EXIT_LINE
from tests.helpers.conformance_suite import conformance_suite

pytestmark = [pytest.mark.thirdparty, pytest.mark.slow]

SUITES = ("auth", "backcompat", "extensions", "draft")  # together: every auth/* scenario
PASSING = [
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/2025-03-26-oauth-metadata-backcompat",
    # the 2026-07-28 draft
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
    # extensions: a machine's grants
    "auth/client-credentials-basic",
    "auth/client-credentials-jwt",
    "auth/enterprise-managed-authorization",
    "auth/wif-jwt-bearer",
    "auth/dpop",
    "auth/dpop-nonce",
]
# The scenarios where the suite expects the client may give up (it does not count the exit status).
GIVES_UP = {
    "auth/scope-retry-limit",
    "auth/resource-mismatch",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
}


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The suite's saved results (``<dir>/auth/<scenario>-<time>/``), both groups run once."""
    work = tmp_path_factory.mktemp("conformance")
    with conformance_suite(work) as suite:
        said = ""
        for name in SUITES:
            done = subprocess.run(
                suite.command(
                    "client",
                    "--command",
                    suite.client_command,
                    "--suite",
                    name,
                    "--timeout",
                    "120000",
                    "-o",
                    str(work / "out"),
                ),
                env=suite.env,
                capture_output=True,
                text=True,
                timeout=600,
                cwd=suite.root,
            )
            said += done.stdout + done.stderr
        (work / "said.txt").write_text(said)
        listed = subprocess.run(
            suite.command("list"), env=suite.env, capture_output=True, text=True, timeout=120, cwd=suite.root
        )
        (work / "list.txt").write_text(listed.stdout)
        yield work


def test_every_auth_scenario_of_the_suite_is_judged(results: Path) -> None:
    listed = {
        line.strip().removeprefix("- ").split(" ")[0]
        for line in (results / "list.txt").read_text().splitlines()
        if line.strip().startswith("- auth/")
    }
    judged = set(PASSING)
    assert listed and listed == judged


@pytest.mark.parametrize("scenario", PASSING)
def test_client_auth_scenario(results: Path, scenario: str) -> None:
    runs = sorted((results / "out").glob(f"{scenario}-[0-9]*/checks.json"))
    assert len(runs) == 1, f"the suite did not run {scenario}:\n" + (results / "said.txt").read_text()[-4000:]
    checks = json.loads(runs[0].read_text())
    client_said = (runs[0].parent / "stdout.txt").read_text() + (runs[0].parent / "stderr.txt").read_text()
    bad = [check for check in checks if check["status"] in ("FAILURE", "WARNING")]
    assert checks and not bad, json.dumps(bad, indent=1)[-4000:] + "\n" + client_said[-4000:]
    finished = [line for line in client_said.splitlines() if line.startswith(EXIT_LINE)]
    assert finished, "the client timed out:\n" + client_said[-4000:]
    assert scenario in GIVES_UP or finished[-1] == f"{EXIT_LINE} 0", client_said[-4000:]
