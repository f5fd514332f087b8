"""The attacks of a hostile server, run against this checkout: what held, memory, output, time.

    python -m benchmarks.attacks            # every attack at full size, each in its own process
    python -m benchmarks.attacks --quick    # small sizes, no kernel, in this process (the full suite runs it)
    python -m benchmarks.attacks --markdown # the table as Markdown (for docs/safety.md)

Each attack (see ``attacks_faults``, ``attacks_shown`` and ``attacks_server_text``) uses the real
servers: the test fault servers (``tests/servers/rogue_server.py``, ``tests/helpers/rogue_http.py``,
``tests/servers/fault_servers.py``),
the demo server, in-memory hostile servers and, where a cell matters, a real ipykernel. For each
it reports whether the safe behaviour was observed (held), the peak resident memory of the
process that was attacked (the attack's own process, or the kernel), the characters a person
would be shown, and the elapsed seconds. Times are printed, never judged.

The quick mode runs the attacks that touch nothing the whole process shares (``Attack.overlaps``)
side by side in threads, then the others one at a time; rows come in the registry's order either
way, and each row is its own attack's (the peak memory is the process's, as in any quick run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import datetime, timezone

from benchmarks import attacks_faults, attacks_server_text, attacks_shown  # noqa: F401  (they register the attacks)
from benchmarks.attacks_common import ATTACKS, REPO, Attack, Result

__all__ = ["Row", "main", "run"]


@dataclass
class Row:
    name: str
    group: str
    what: str
    held: bool
    detail: str
    peak_mb: float
    output_chars: int
    seconds: float


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _attempt(attack: Attack, full: bool) -> Result:
    try:
        return attack.run(full)
    except Exception as exc:  # an attack that raised did not hold: say what it raised
        return Result(False, f"raised {type(exc).__name__}: {str(exc)[:120]}")


def _in_process(attack: Attack) -> Row:
    started = time.monotonic()
    result = _attempt(attack, False)
    seconds = time.monotonic() - started
    peak = result.peak_kb / 1024 if result.peak_kb else _peak_mb()
    return Row(attack.name, attack.group, attack.what, result.held, result.detail, peak, result.output_chars, seconds)


def _in_child(attack: Attack) -> Row:
    """Run one attack at full size in a fresh process; its peak memory is read from wait4."""
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.attacks", "--one", attack.name], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    out, _ = process.communicate()
    seconds = time.monotonic() - started
    lines = [line for line in out.splitlines() if line.startswith("{")]
    row = (
        Row(**json.loads(lines[-1]))
        if lines
        else Row(
            attack.name,
            attack.group,
            attack.what,
            False,
            f"the attack process exited {process.returncode}",
            0.0,
            0,
            0.0,
        )
    )
    row.seconds = seconds
    return row


OVERLAPPING = 8
"""How many overlapping attacks the quick mode runs at once."""


def run(*, quick: bool, names: list[str] | None = None, show: bool = False) -> list[Row]:
    """Run the attacks (quick: small sizes, no full_only ones, in this process); one row each, in
    the registry's order."""
    chosen = [ATTACKS[n] for n in names] if names else list(ATTACKS.values())
    if quick:
        chosen = [a for a in chosen if not a.full_only]
    rows = []
    with ThreadPoolExecutor(OVERLAPPING, thread_name_prefix="attack") as pool:
        overlapping: dict[str, Future[Row]] = {
            a.name: pool.submit(_in_process, a) for a in chosen if quick and a.overlaps
        }
        for attack in chosen:
            if attack.name in overlapping:
                row = overlapping[attack.name].result()
            else:
                for running in overlapping.values():  # the others run alone
                    running.result()
                row = _in_process(attack) if quick else _in_child(attack)
            rows.append(row)
            if show:
                print(_line(row), flush=True)
    return rows


def _line(row: Row) -> str:
    return (
        f"{row.name:<26} {row.group:<8} {'held' if row.held else 'FAILED':<6} {row.peak_mb:>8.0f} "
        f"{row.output_chars:>10,} {row.seconds:>7.1f}  {row.detail}"
    )


def summary(rows: list[Row], quick: bool) -> str:
    held = sum(r.held for r in rows)
    peak = max((r.peak_mb for r in rows), default=0.0)
    worst = max(rows, key=lambda r: r.peak_mb).name if rows else "-"
    return (
        f"{len(rows)} attacks tried, {held} held; memory peak {peak:,.0f} MB ({worst}); "
        f"{'quick' if quick else 'full'} mode, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{datetime.now(timezone.utc):%Y-%m-%d}"
    )


def _cell(text: str) -> str:
    """A table cell; text holding ``$`` or ``\\`` as code, so no Markdown viewer typesets it."""
    text = text.replace("|", "\\|")
    return f"`{text}`" if "$" in text or "\\" in text else text


def markdown(rows: list[Row]) -> str:
    out = [
        "| attack | kind | what the server does | held | peak MB | shown chars | seconds | observed |",
        "|---|---|---|---|---:|---:|---:|---|",
    ]
    for r in rows:
        detail, what = _cell(r.detail), _cell(r.what)
        out.append(
            f"| {r.name} | {r.group} | {what} | {'yes' if r.held else '**no**'} | {r.peak_mb:,.0f} | "
            f"{r.output_chars:,} | {r.seconds:.1f} | {detail} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, no kernel, in this process")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown too")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("names", nargs="*", help="attacks to run (default: all)")
    options = parser.parse_args(argv)
    if options.one:  # a child of the full mode: one attack at full size, its row as JSON
        attack = ATTACKS[options.one]
        started = time.monotonic()
        result = _attempt(attack, True)
        peak = result.peak_kb / 1024 if result.peak_kb else _peak_mb()
        row = Row(
            attack.name,
            attack.group,
            attack.what,
            result.held,
            result.detail,
            peak,
            result.output_chars,
            time.monotonic() - started,
        )
        print(json.dumps(asdict(row)), flush=True)
        os._exit(0)  # the kernel's and servers' threads are not waited for
    print(f"{'attack':<26} {'kind':<8} {'result':<6} {'peak MB':>8} {'shown':>10} {'seconds':>7}  observed")
    rows = run(quick=options.quick, names=options.names or None, show=True)
    print(summary(rows, options.quick))
    if options.markdown:
        print(markdown(rows))
    return 0 if all(r.held for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
