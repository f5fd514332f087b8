"""The attack run's quick mode holds: every attack of a hostile server that it tries (small sizes,
no kernel) shows the safe behaviour. Only that is asserted; its times and memory are figures for
``python -m benchmarks.attacks`` to print (the full mode adds gigabyte payloads and a kernel)."""

from __future__ import annotations

import sys

from support import REPO

sys.path.insert(0, str(REPO))

from benchmarks.attacks import run
from benchmarks.attacks_common import ATTACKS


def test_every_quick_attack_holds() -> None:
    rows = run(quick=True)
    assert len(rows) == sum(not a.full_only for a in ATTACKS.values()) >= 20
    failed = [f"{r.name}: {r.detail}" for r in rows if not r.held]
    assert not failed, "attacks that did not hold:\n" + "\n".join(failed)
