"""``python -m benchmarks.audit --quick`` prints every row: the listing beside the audit for a big
server, and each kind of hostile text at a quarter and at the full size. Nothing about time is
asserted (the benchmark's figures are in benchmarks/README.md); this keeps it from rotting."""

from __future__ import annotations

import re

import pytest

from tests.helpers.support import run_module

pytestmark = [pytest.mark.slow]
MS = r"[0-9.e+]+ ms"


def test_the_quick_audit_benchmark_prints_every_row() -> None:
    done = run_module("benchmarks.audit", "--quick", seconds=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert re.search(rf"^\| list 200 tools again \(tools/list, every page\) \| {MS} \| 1\.00 \|$", out, re.M), out
    assert re.search(rf"^\| audit 200 tools \(audit_definitions\) \| {MS} \| [0-9.]+ \|$", out, re.M), out
    kinds = re.findall(rf"^\| ([a-z-]+) \| {MS} \| {MS} \| {MS} \| [0-9.]+ \| [0-9.]+ \|$", out, re.M)
    assert kinds == ["instructions", "brackets", "zero-width", "tags", "identifiers", "do-not", "whitespace"], out
