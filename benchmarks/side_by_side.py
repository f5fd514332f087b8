"""Checkouts of anvia_nb side by side, measured in the same interleaved rounds.

    python -m benchmarks.side_by_side before=/tmp/c5188ce after=. [--rounds 20] [--calls 200]
    python -m benchmarks.side_by_side before=/tmp/c5188ce after=. --first 7

Each ``NAME=PATH`` is a checkout (``git archive COMMIT | tar -x -C PATH`` makes one of any commit);
the first is the one the others are compared with. The warm trivial call: one worker process per
checkout (``PYTHONPATH=PATH``) opens that checkout's own contenders (``benchmarks/contenders.py``,
each with its own bench server over stdio) and, when asked, times a batch of ``--calls`` trivial
calls on each. Every round asks every worker once, the order rotating as the benchmark's rounds
do, so a burst of load from the rest of the machine falls on each checkout in turn; a ratio is
the median over the rounds of each round's ratio to the first checkout. ``--first N``: instead,
the fresh-process rows of ``first_call.py`` (first connect, first call) of each checkout, N
interleaved rounds after one unmeasured run each (which writes the bytecode caches).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.measure import Stats

__all__ = ["main"]

CONTENDERS = (
    "SDK ClientSession",
    "anvia_nb async API",
    "anvia_nb async API, protocol 2025-11-25",
    "anvia_nb sync runtime",
    "anvia_nb %mcp call, rendered",
)
FIRST = ("anvia", "magic")
_ANSWER = "SIDE "

# Run by each worker in its own checkout: that checkout's contenders, timed when asked.
_WORKER = """
import asyncio, contextlib, json, sys
from benchmarks.contenders import main_contenders
from benchmarks.run import FULL, TRIVIAL, workloads

wanted = json.loads(sys.argv[1])
tool, arguments, _ = workloads(FULL)[TRIVIAL]
with contextlib.redirect_stdout(sys.stderr):
    opened = main_contenders(asyncio.new_event_loop(), None)
    kept = {}
    for name, contender in opened.items():
        if isinstance(contender, str):
            print(name, contender, file=sys.stderr)
        elif name in wanted:
            kept[name] = contender
            contender.timed(tool, arguments, 20)
        else:
            contender.close()
print("SIDE " + json.dumps(sorted(kept)), flush=True)
names = [name for name in wanted if name in kept]
for turn, line in enumerate(sys.stdin):
    calls = int(line)
    if not calls:
        break
    shift = turn % len(names)
    with contextlib.redirect_stdout(sys.stderr):
        found = {name: kept[name].timed(tool, arguments, calls) for name in names[shift:] + names[:shift]}
    print("SIDE " + json.dumps(found), flush=True)
with contextlib.redirect_stdout(sys.stderr):
    for contender in kept.values():
        contender.close()
"""


def _environment(tree: Path) -> dict[str, str]:
    """The checkout first on the path, bytecode caches on (as an installed package has them)."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPATH"] = str(tree)
    return environment


class Worker:
    """One checkout's contenders in a process of their own."""

    def __init__(self, tree: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER, json.dumps(CONTENDERS)],
            cwd=tree,
            env=_environment(tree),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.names: list[str] = self._answer()

    def _answer(self) -> Any:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(_ANSWER):
                return json.loads(line[len(_ANSWER) :])
        raise RuntimeError(f"a worker ended early (status {self.process.wait()})")

    def batch(self, calls: int) -> dict[str, float]:
        """Seconds per call of each contender, over ``calls`` trivial calls each."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{calls}\n")
        self.process.stdin.flush()
        found: dict[str, float] = self._answer()
        return found

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("0\n")
        self.process.stdin.close()
        self.process.wait(timeout=120)


def warm_rounds(trees: dict[str, Path], rounds: int, calls: int) -> list[dict[str, dict[str, float]]]:
    """Per round, per checkout, seconds per trivial call of each contender."""
    workers = {name: Worker(tree) for name, tree in trees.items()}
    names = list(workers)
    found: list[dict[str, dict[str, float]]] = []
    try:
        for round_ in range(rounds):
            shift = round_ % len(names)
            found.append({name: workers[name].batch(calls) for name in names[shift:] + names[:shift]})
            print(f"round {round_ + 1}/{rounds}", file=sys.stderr, flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    return found


def first_rounds(trees: dict[str, Path], rounds: int) -> list[dict[str, dict[str, Any]]]:
    """Per round, per checkout, what ``first_call.py anvia`` and ``magic`` found in fresh processes."""

    def fresh(tree: Path, who: str) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, str(tree / "benchmarks" / "first_call.py"), who],
            cwd=tree,
            env=_environment(tree),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"first_call.py {who} failed in {tree}: {done.stderr.strip()[-300:]}")
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return result

    for tree in trees.values():
        for who in FIRST:
            fresh(tree, who)  # unmeasured: writes the bytecode caches
    names = list(trees)
    found: list[dict[str, dict[str, Any]]] = []
    for round_ in range(rounds):
        shift = round_ % len(names)
        found.append(
            {f"{name} {who}": fresh(trees[name], who) for name in names[shift:] + names[:shift] for who in FIRST}
        )
        print(f"round {round_ + 1}/{rounds}", file=sys.stderr, flush=True)
    return found


def _reference(names: list[str], name: str, chain: bool) -> str | None:
    """What ``name`` is compared with: the first checkout, or (``chain``) the one before it."""
    if name == names[0]:
        return None
    return names[names.index(name) - 1] if chain else names[0]


def _cell(samples: list[float], base: list[float] | None, unit: float = 1e3) -> str:
    stats = Stats(samples)
    text = f"{stats.median * unit:.3g} ms ±{stats.spread:.0%}"
    if base is not None:
        text += f" ({statistics.median(s / b for s, b in zip(samples, base, strict=True)):.3f})"
    return text


def _against(column: dict[str, list[float]], names: list[str], name: str, chain: bool) -> list[float] | None:
    reference = _reference(names, name, chain)
    return None if reference is None else column[reference]


def warm_table(found: list[dict[str, dict[str, float]]], names: list[str], chain: bool) -> list[str]:
    """One row per contender: each checkout's median ±spread and (its round-by-round ratio to the
    checkout it is compared with)."""
    lines = ["| contender | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for contender in CONTENDERS:
        if not all(contender in found[0][name] for name in names):
            continue
        column = {name: [r[name][contender] for r in found] for name in names}
        cells = [_cell(column[name], _against(column, names, name, chain)) for name in names]
        lines.append(f"| {contender} | " + " | ".join(cells) + " |")
    return lines


def first_table(found: list[dict[str, dict[str, Any]]], names: list[str], chain: bool) -> list[str]:
    lines = ["| fresh process | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for who in FIRST:
        for part in ("connect", "first_call"):
            column = {name: [r[f"{name} {who}"][part] for r in found] for name in names}
            cells = [_cell(column[name], _against(column, names, name, chain)) for name in names]
            lines.append(f"| {who} {part.replace('_', ' ')} | " + " | ".join(cells) + " |")
    loaded = {name: sorted({m for r in found for m in r[f"{name} magic"]["loaded"]}) for name in names}
    shown = [", ".join(modules) or "none" for modules in loaded.values()]
    lines.append("| magic: heavy modules loaded | " + " | ".join(shown) + " |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Checkouts of anvia_nb side by side, in the same rounds.")
    parser.add_argument("trees", nargs="+", help="NAME=PATH, the first one the reference")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--calls", type=int, default=200, help="trivial calls per contender per round")
    parser.add_argument("--first", type=int, default=0, help="rounds of first connect and call instead")
    parser.add_argument("--chain", action="store_true", help="compare each checkout with the one before it")
    parser.add_argument("--save", help="write every round's figures to this JSON file")
    args = parser.parse_args(argv)
    trees = {name: Path(path).resolve() for name, _, path in (tree.partition("=") for tree in args.trees)}
    names = list(trees)
    found: list[Any]
    if args.first:
        found = first_rounds(trees, args.first)
        lines = first_table(found, names, args.chain)
        what = f"{args.first} rounds of fresh processes"
    else:
        found = warm_rounds(trees, args.rounds, args.calls)
        lines = warm_table(found, names, args.chain)
        what = f"{args.rounds} rounds of {args.calls} trivial calls per contender (stdio)"
    if args.save:
        Path(args.save).write_text(json.dumps(found))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    against = "the checkout before it" if args.chain else names[0]
    print(f"{what}; load average {load}; in brackets: the median of each round's ratio to {against}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
