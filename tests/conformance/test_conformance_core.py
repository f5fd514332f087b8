"""The MCP conformance suite's core client scenarios (``@modelcontextprotocol/conformance``, every
client scenario but ``auth/*``, which test_conformance_auth.py runs), the ``sep-2640`` skills
extension's among them, run against anvia_nb's public API (tests/helpers/conformance_client.py), each on the
protocol version it targets (the suite's ``MCP_CONFORMANCE_PROTOCOL_VERSION``, which the client pins),
and those that list 2026-07-28 beside an older version on 2026-07-28 as well.

Each scenario is one ``--scenario`` run of the suite, with a fresh client forked from one Python
that imported anvia_nb once (tests/helpers/client_forks.py), judged as the suite judges it: every
check passed, no warnings, and the client finished with status 0."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from anvia_nb.core.protocol.versions import MODERN
from tests.helpers.client_forks import EXIT_LINE
from tests.helpers.conformance_client import REFUSED, SKILL_REFUSED
from tests.helpers.conformance_suite import ConformanceSuite, conformance_suite

pytestmark = [pytest.mark.thirdparty, pytest.mark.slow]

PASSING = [
    "initialize",
    "tools_call",
    "sse-retry",
    "request-metadata",  # pinned to 2026-07-28: a -32022 answer is retried at the version the server names
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    "json-schema-2020-12-preservation",
    "http-custom-headers",
    "elicitation-sep1034-client-defaults",  # a handler that accepts with {} gets the request's defaults
    # the Skills extension (SEP-2640): skills listed without reading a file, a loaded skill checked
    # against its listing (digest, size, frontmatter) and refused, with nothing more of it read
    "sep-2640-client-no-prefetch",
    "sep-2640-client-verify-digest",
    "sep-2640-client-verify-size",
    "sep-2640-client-verify-frontmatter",
    # the scenarios that also list 2026-07-28, on that wire too (the suite runs them on 2025-11-25 by default)
    f"tools_call@{MODERN}",
    f"json-schema-2020-12-preservation@{MODERN}",
]


class Suite:
    """The cached suite and its fork server of clients, to run scenarios one at a time."""

    def __init__(self, work: Path, suite: ConformanceSuite) -> None:
        self.work, self.suite = work, suite
        self.done: dict[str, tuple[list[dict[str, object]], str]] = {}

    def run(self, scenario: str) -> tuple[list[dict[str, object]], str]:
        """The scenario's checks and what its client said (stdout and stderr), run once."""
        if scenario not in self.done:
            self.done[scenario] = self._run(scenario)
        return self.done[scenario]

    def _run(self, run: str) -> tuple[list[dict[str, object]], str]:
        """``run``: a scenario, or ``scenario@version`` for that spec version's wire."""
        scenario, _, version = run.partition("@")
        out = self.work / "out" / run.replace("/", "_")
        done = subprocess.run(
            self.suite.command(
                "client",
                "--command",
                self.suite.client_command,
                "--scenario",
                scenario,
                "--timeout",
                "120000",
                "-o",
                str(out),
                *(["--spec-version", version] if version else []),
            ),
            env=self.suite.env,
            capture_output=True,
            text=True,
            timeout=300,
            cwd=self.suite.root,
        )
        runs = sorted(out.glob("*/checks.json"))
        assert len(runs) == 1, f"the suite did not run {scenario}:\n" + (done.stdout + done.stderr)[-4000:]
        said = (runs[0].parent / "stdout.txt").read_text() + (runs[0].parent / "stderr.txt").read_text()
        return json.loads(runs[0].read_text()), said


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Suite]:
    work = tmp_path_factory.mktemp("conformance-core")
    with conformance_suite(work) as started:
        yield Suite(work, started)


@pytest.mark.parametrize("scenario", PASSING)
def test_client_core_scenario(suite: Suite, scenario: str) -> None:
    checks, said = suite.run(scenario)
    bad = [check for check in checks if check["status"] in ("FAILURE", "WARNING")]
    assert checks and not bad, json.dumps(bad, indent=1)[-4000:] + "\n" + said[-4000:]
    finished = [line for line in said.splitlines() if line.startswith(EXIT_LINE)]
    assert finished and finished[-1] == f"{EXIT_LINE} 0", said[-4000:]


def test_null_for_a_boolean_header_is_refused_before_sending_unless_overridden(suite: Suite) -> None:
    """``http-custom-headers`` sends ``verbose: null`` for a property whose schema says
    ``"type": "boolean"``, to see the ``Mcp-Param-Verbose`` header left out. anvia_nb's rule wins
    by default: arguments that do not match the tool's own inputSchema are refused before anything
    is sent, with a one-line error naming the property (a user's typo should not reach a server
    that declared it would not accept it). A user who knows the server wants such a value says so
    with ``validate_arguments=False``; then the call goes out and the header is omitted, as SEP-2243
    asks (the scenario's ``sep-2243-client-omit-null`` check, passing in the test above)."""
    checks, said = suite.run("http-custom-headers")
    refusals = [line for line in said.splitlines() if line.startswith(REFUSED)]
    assert len(refusals) == 1 and "verbose" in refusals[0] and "test_custom_headers_null" in refusals[0], said[-4000:]
    omitted = [check for check in checks if check["id"] == "sep-2243-client-omit-null"]
    assert omitted and all(check["status"] == "SUCCESS" for check in omitted), json.dumps(omitted)[-2000:]


@pytest.mark.parametrize(
    ("scenario", "check"),
    [
        ("sep-2640-client-no-prefetch", "sep-2640-host-no-prefetch"),
        ("sep-2640-client-verify-digest", "sep-2640-host-verify-digest"),
        ("sep-2640-client-verify-size", "sep-2640-host-size-mismatch-failure"),
        ("sep-2640-client-verify-frontmatter", "sep-2640-host-frontmatter-comparison"),
    ],
)
def test_each_skills_scenario_is_judged_and_passed_not_skipped(suite: Suite, scenario: str, check: str) -> None:
    """A skills check is SKIPPED when the client never listed or loaded a skill: passing means the
    suite watched anvia_nb list the skills, and (verify-*) load one, refuse it and read nothing more."""
    checks, said = suite.run(scenario)
    judged = [found for found in checks if found["id"] == check]
    assert judged and all(found["status"] == "SUCCESS" for found in judged), json.dumps(checks)[-3000:] + said[-2000:]
    if "verify" in scenario:
        assert f"{SKILL_REFUSED} Skill 'pdf-processing'" in said, said[-2000:]
