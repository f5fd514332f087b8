"""The attack run's quick mode holds: every attack of a hostile server that it tries (small sizes,
no kernel) shows the safe behaviour. Only that is asserted; its times and memory are figures for
``python -m benchmarks.attacks`` to print (the full mode adds gigabyte payloads and a kernel).

Slow (left out of the quick set): two dozen attacks, each starting servers, in one test; each
bound it shows has its own unit test (tests/core/test_hostile_*.py, test_bounded_waits.py,
tests/runtime/test_bounded_memory.py, ...), and this run keeps the attack run from rotting."""

from __future__ import annotations

import sys

import pytest
from support import REPO

sys.path.insert(0, str(REPO))

from benchmarks.attacks import run
from benchmarks.attacks_common import ATTACKS

pytestmark = pytest.mark.slow


def test_every_quick_attack_holds() -> None:
    rows = run(quick=True)
    assert len(rows) == sum(not a.full_only for a in ATTACKS.values()) >= 20
    failed = [f"{r.name}: {r.detail}" for r in rows if not r.held]
    assert not failed, "attacks that did not hold:\n" + "\n".join(failed)
