"""``python -m benchmarks.side_by_side`` runs and prints one row per contender with a figure for
each checkout (two copies of this repository here) and the second one's ratio to the first.

Nothing about time is asserted: this only keeps the side-by-side run from rotting.
"""

from __future__ import annotations

import re

import pytest

from tests.helpers.support import REPO, run_module

BOUND_SECONDS = 600  # proves only that nothing hangs
# pytest-timeout's per-test limit (pyproject.toml) is shorter than this bound: on a busy machine it
# would end the run first, a wall-clock assertion in disguise. The test's limit follows its process's.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(BOUND_SECONDS + 60)]
CONTENDERS = ["SDK ClientSession", "anvia_nb async API", "anvia_nb sync runtime", "anvia_nb %mcp call, rendered"]


def test_two_checkouts_side_by_side_give_every_contender_a_figure_and_a_ratio() -> None:
    before, after = f"before={REPO}", f"after={REPO}"
    done = run_module("benchmarks.side_by_side", before, after, "--rounds", "1", "--calls", "2", seconds=BOUND_SECONDS)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "| contender | before | after |" in done.stdout
    for contender in CONTENDERS:
        row = rf"^\| {re.escape(contender)} \| [0-9.e+]+ ms ±\d+% \| [0-9.e+]+ ms ±\d+% \([0-9.]+\) \|$"
        assert re.search(row, done.stdout, re.M), done.stdout
