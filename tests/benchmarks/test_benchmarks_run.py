"""The benchmark runs and prints every row (its quick mode: tiny sizes, one or two rounds, the stdio
bench servers forked from one that imported the SDK once: tests/helpers/server_forks.py).

Nothing about time is asserted: this only keeps ``python -m benchmarks`` from rotting. A peer
whose venv ``scripts/setup-test`` did not build is printed as skipped, with the reason; under
``CI=true``, where setup-test must build it, that fails the test.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.helpers.support import REPO, cache_dir, in_ci, run_module, setup_missing

BOUND_SECONDS = 900  # proves only that nothing hangs; the quick run takes seconds on an idle machine
# pytest-timeout's per-test limit (pyproject.toml) is shorter than this bound: on a busy machine it
# would end the run first, a wall-clock assertion in disguise. The test's limit follows its process's.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(BOUND_SECONDS + 60)]
CONTENDERS = [
    "SDK ClientSession",
    "SDK Client",
    "anvia_nb async API",
    "anvia_nb sync runtime",
    "anvia_nb %mcp call, rendered",
]
PEERS = {"langchain": "langchain-mcp-adapters", "fastmcp": "fastmcp"}
NUMBER = r"\| [0-9.e+]+ (?:ms|s|MiB) \|"


def rows_of(table: str, section: str) -> list[str]:
    """The table rows under the section whose title starts with ``section``."""
    found = re.search(rf"^## {re.escape(section)}.*?\n\n(.*?)(?:\n\n|\Z)", table, re.S | re.M)
    assert found is not None, f"no section {section!r} in:\n{table}"
    return [line for line in found.group(1).splitlines()[2:] if line.startswith("|")]


def assert_peer_rows(peers: list[str], package: str) -> None:
    for key in ("stdio: trivial call", "stdio: 0.2 MB text result", "http: trivial call", "http: 0.2 MB text result"):
        line = next((line for line in peers if line.startswith(f"| {package}") and key in line), "")
        assert re.search(NUMBER, line), f"{package} {key}: {peers}"
        if "MB text result" in key:
            assert "× the SDK's parse" in line, line


def row(rows: list[str], contender: str) -> str:
    matching = [line for line in rows if line.startswith(f"| {contender}")]
    assert matching, f"no row {contender!r} in {rows}"
    return matching[0]


def test_the_quick_benchmark_prints_every_row() -> None:
    done = run_module("benchmarks", "--quick", seconds=BOUND_SECONDS)
    assert done.returncode == 0, done.stderr[-3000:]
    table = done.stdout
    assert table.startswith("Machine: ") and "cores" in table.splitlines()[0]

    for part in ("first connect", "first call after connecting"):
        rows = rows_of(table, f"stdio, fresh process: {part}")
        for contender in ("SDK Client", "anvia_nb connect_mcp", "anvia_nb %mcp connect"):
            assert re.search(NUMBER, row(rows, contender)), row(rows, contender)
    for transport in ("stdio", "http"):
        for workload in ("trivial call", "0.2 MB text result"):
            rows = rows_of(table, f"{transport}: {workload}")
            for contender in CONTENDERS:
                assert re.search(NUMBER, row(rows, contender)), row(rows, contender)
        assert re.search(NUMBER, row(rows, "SDK parse of the same bytes"))
        floor = row(rows_of(table, f"{transport}: trivial call"), "floor: a bare line magic")
        assert re.search(NUMBER, floor), floor  # what no line magic goes below, on the trivial call only
        assert not [line for line in rows if line.startswith("| floor:")]
    for transport in ("stdio", "http"):
        memory = rows_of(table, f"{transport}: memory kept per dropped")
        peaks = rows_of(table, f"{transport}: peak memory during one")
        peak = r"\| [0-9]+ MiB \|  \| [0-9.]+ \| [0-9.]+ × its bytes"
        for contender in CONTENDERS:
            assert re.search(NUMBER, row(memory, contender)), row(memory, contender)
            assert re.search(peak, row(peaks, contender))
        assert re.search(peak, row(peaks, "SDK parse of the held bytes (the floor)"))
    frames = rows_of(table, "the tools DataFrame")
    assert re.search(NUMBER, row(frames, "plain pandas DataFrame"))
    assert re.search(NUMBER, row(frames, "anvia_nb %mcp tools DataFrame"))
    mapped = rows_of(table, "map:")
    for contender in ("tool.map, concurrency 64", "async API, asyncio.gather, 64 at a time"):
        assert re.search(NUMBER, row(mapped, contender)), row(mapped, contender)
    form = rows_of(table, "the arguments form of a 300-property tool")
    assert re.search(NUMBER, row(form, "form of 300 properties, ready")), form

    peers = rows_of(table, "peers in their own venvs")
    missing = []
    for peer, package in PEERS.items():
        reason = setup_missing(cache_dir() / f"bench-{peer}" / "anvia-ready", f"the benchmark's {peer} venv")
        if reason is not None:
            assert "skipped: " in row(peers, peer)
            missing.append(reason)
            continue
        assert_peer_rows(peers, package)
    assert_peer_rows(peers, "anvia_nb")  # in the same harness as the peers, from the project's venv
    if missing and in_ci():
        pytest.fail("; ".join(missing), pytrace=False)


def test_every_path_of_the_instruction_count_still_runs() -> None:
    """``python -m benchmarks.instructions`` counts under valgrind (too slow here); ``--check`` runs
    the same code paths uncounted, so a change in the API they call fails here, not on the day of a
    measurement."""
    code = "from benchmarks.instructions import PATHS; print(*PATHS, sep='\\n')"
    listed = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=BOUND_SECONDS, check=True
    )
    paths = listed.stdout.splitlines()
    assert paths
    done = run_module("benchmarks.instructions", "--check", seconds=BOUND_SECONDS)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == [f"ran: {path}" for path in paths]


@pytest.mark.parametrize("command", ["benchmarks", "benchmarks.instructions", "benchmarks.attacks"])
def test_each_benchmark_command_explains_its_options(command: str) -> None:
    """``--help`` is how a reader finds the options; a path named ``%mcp call`` once broke it
    (argparse formats help text with ``%``)."""
    done = run_module(command, "--help", seconds=BOUND_SECONDS)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("usage:")
    assert "--" in done.stdout
