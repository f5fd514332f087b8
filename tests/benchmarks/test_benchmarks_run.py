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


def titled_with_load(table: str, section: str) -> None:
    title = next((line for line in table.splitlines() if line.startswith(f"## {section}")), "")
    assert re.search(r"load [0-9.]+ [0-9.]+ [0-9.]+", title), f"no load average in {title!r}"


def assert_issue_41_rows(table: str) -> None:
    """The trace on and off, the map at 64 beside the SDK's gathers, the first big form: each a
    section with the load average, each row a figure (issue 41's last deliverable)."""
    for transport in ("stdio", "http"):
        for workload in ("trivial call", "0.2 MB text result"):
            section = f"trace on and off, {transport}: {workload}"
            titled_with_load(table, section)
            rows = rows_of(table, section)
            for mode in ("on", "off"):
                for what in ("client CPU", "wall"):
                    assert re.search(NUMBER, row(rows, f"anvia_nb, trace {mode}: {what}")), rows
            # off is a real off: the trace records nothing in those blocks, and something when on
            assert "recorded 0 messages" in row(rows, "anvia_nb, trace off: client CPU")
            assert "recorded 0 messages" not in row(rows, "anvia_nb, trace on: client CPU")
    titled_with_load(table, "map at concurrency 64: 64 rows")
    wall = next(line for line in table.splitlines() if line.startswith("## map at concurrency 64") and "wall" in line)
    # a map's figure is its own: each from a collected heap, no contender always after the same one
    assert "each map from a collected heap, the order rotated and reversed by round" in wall, wall
    for measure in ("wall per map", "client CPU per map"):
        titles = [line for line in table.splitlines() if line.startswith("## map at concurrency 64")]
        title = next(line for line in titles if measure in line)
        rows = rows_of(table, title[3:])
        for contender in (
            "SDK ClientSession, asyncio.gather, 64 at a time",
            "SDK ClientSession, asyncio.gather keeping its results, 64 at a time",
            "SDK Client, asyncio.gather, 64 at a time",
            "SDK Client declaring what anvia_nb declares, asyncio.gather keeping its results, 64 at a time",
            "anvia_nb tool.map on rows, concurrency 64",
            "anvia_nb tool.map on rows, concurrency 64, protocol 2025-11-25 (the gather's exchange)",
            "anvia_nb tool.map on a DataFrame, concurrency 64, progress shown",
            "anvia_nb %mcp map --concurrency 64, IPython shell",
            "anvia_nb %mcp map --concurrency 64, IPython shell, protocol 2025-11-25 (the gather's exchange)",
        ):
            assert re.search(NUMBER, row(rows, contender)), rows
            if contender.startswith("SDK Client declaring") and measure == "wall per map":  # what its name says
                assert "its tools/call request is anvia_nb's byte for byte" in row(rows, contender), rows
            if contender.startswith("anvia_nb"):  # a map keeps its outcomes: beside the gather that does too
                assert re.search(r"\d\.\d\d × the gather keeping its results", row(rows, contender)), rows
                # at the default protocol, beside the gather that sends the server the same requests
                same = re.search(r"\d\.\d\d × the one sending the same requests", row(rows, contender))
                assert bool(same) == ("2025-11-25" not in contender), row(rows, contender)
    # each map's server beside it: its CPU where this process started it, else why not (forked)
    title = next(line for line in titles if "its server's CPU per map" in line)
    served = rows_of(table, title[3:])
    forked = [line for line in served if line.startswith("| the bench servers' CPU |")]
    if forked:  # the quick run's servers are the fork server's children: said, not measured
        assert "not measured: the servers were forked by the test suite's fork server" in forked[0], served
    else:
        assert re.search(NUMBER, row(served, "anvia_nb tool.map on rows, concurrency 64")), served
    title = next(line for line in titles if "the peers in their own venvs" in line)
    for peer, package in PEERS.items():  # a peer's gather beside its venv's ClientSession, or why not
        found = [line for line in rows_of(table, title[3:]) if line.startswith((f"| {package} ", f"| {peer} |"))]
        assert found and (re.search(NUMBER, found[0]) or "skipped: " in found[0]), title
    shown = row(rows_of(table, "map at concurrency 64: 64 rows"), "anvia_nb tool.map on a DataFrame")
    assert re.search(r"its progress line (?:said|did not say) it was bound by the client: '.*64/64", shown), shown
    section = "the first form of a 300-property tool, fresh process, CPU"
    titled_with_load(table, section)
    form = rows_of(table, section)
    for contender in ("ArgumentsForm: imports, build and render", "%mcp form, end to end"):
        assert re.search(NUMBER, row(form, contender)), form
    assert re.search(r"\| [0-9]+ widgets \|", row(form, "ArgumentsForm: build")), form


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
        for section in (f"{transport}: trivial call", f"{transport}: trivial call, the client's own CPU per call"):
            # the SDK Client plus anvia_nb's guarantees, beside the Client and anvia_nb, wall and CPU
            trivial = rows_of(table, section)
            for contender in ("SDK Client", "floor: SDK Client + the call guarantees", "anvia_nb async API"):
                assert re.search(NUMBER, row(trivial, contender)), trivial
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
    assert_issue_41_rows(table)

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


def test_the_profile_splits_each_path_by_package() -> None:
    """``python -m benchmarks.profiles --check``: every path profiled in its own process, its own
    time split by package. The SDK's own clients run no code of anvia_nb's, anvia_nb's paths do, and
    the result mapping every call goes through is among anvia_nb's functions on both of its paths."""
    done = run_module("benchmarks.profiles", "--check", "--top", "100", seconds=BOUND_SECONDS)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    header = next(line for line in lines if line.startswith("| path | profiled"))
    columns = [cell.strip() for cell in header.strip("|").split("|")]
    by_package = {line.split("|")[1].strip(): line for line in lines if " per call |" in line or " per row |" in line}
    paths = [
        "SDK ClientSession",
        "SDK Client",
        "anvia_nb tool.call",
        "SDK Client's asyncio.gather",
        "anvia_nb tool.map",
    ]
    assert len(by_package) == len(paths) and all(path.startswith(tuple(paths)) for path in by_package), by_package
    for path, line in by_package.items():
        cells = dict(zip(columns, (cell.strip() for cell in line.strip("|").split("|")), strict=True))
        assert re.fullmatch(r"\d+ per (?:call|row)", cells["profiled µs per unit"]), line
        shares = [re.fullmatch(r"\d+ \((\d+)%\)", cells[name]) for name in columns[2:]]
        assert all(shares), line
        assert 96 <= sum(int(share.group(1)) for share in shares if share) <= 104, line  # rounded shares of one whole
        assert (cells["anvia_nb"] != "0 (0%)") == path.startswith("anvia_nb"), line
    functions = [line for line in lines if line.startswith("| anvia_nb ") and "(core/" in line]
    for path in ("anvia_nb tool.call: a trivial call", "anvia_nb tool.map at 64: a row"):
        mine = [line for line in functions if line.startswith(f"| {path} |")]
        assert any("output_from_result (core/protocol/mapping.py:" in line for line in mine), mine


@pytest.mark.parametrize(
    "command", ["benchmarks", "benchmarks.instructions", "benchmarks.attacks", "benchmarks.profiles"]
)
def test_each_benchmark_command_explains_its_options(command: str) -> None:
    """``--help`` is how a reader finds the options; a path named ``%mcp call`` once broke it
    (argparse formats help text with ``%``)."""
    done = run_module(command, "--help", seconds=BOUND_SECONDS)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("usage:")
    assert "--" in done.stdout
