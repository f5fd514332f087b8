"""What every attack shares: its result, the registry, the reused fault servers, bounded waits.

An attack is a function ``run(full) -> Result`` registered with :func:`attack`; ``full`` asks for
the sizes of the issue (gigabytes, thousands of requests), otherwise small sizes that prove the
same bound quickly. ``held`` is whether the safe behaviour was observed; nothing here asserts a
time: elapsed seconds are measured by the runner and only printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parents[1]
ROGUE = str(REPO / "tests" / "servers" / "rogue_server.py")
FAULTS = str(REPO / "tests" / "servers" / "fault_servers.py")
FAILING_INIT = str(REPO / "tests" / "servers" / "failing_init_server.py")
BOUND_SECONDS = 60.0
"""How long an attack may take before it counts as a freeze (a bound, never a measured figure)."""
QUICK_TIMEOUT_SECONDS = 0.5
"""The timeout an attack of the quick mode asks for when it waits for one to pass (the full mode
asks for seconds): what is shown is that the bound asked for ends the wait, whatever its size."""

T = TypeVar("T")


@dataclass
class Result:
    held: bool
    detail: str
    output_chars: int = 0
    """Characters a person would be shown (a bundle, an error line, a table, a cell's output)."""
    peak_kb: int | None = None
    """Peak resident memory of a kernel the attack ran in, when it used one."""


@dataclass(frozen=True)
class Attack:
    name: str
    group: str
    what: str
    run: Callable[[bool], Result]
    full_only: bool = False
    """Runs only in the full mode: it needs a kernel, or spends seconds waiting on servers (the
    demo server behind a proxy, the SDK's fallback for old servers) that its own tests cover."""
    overlaps: bool = False
    """Touches nothing the whole process shares (the limits, file descriptors 1 and 2, the list of
    widgets made), so the quick mode runs it beside the other attacks that overlap: most of them
    wait on a server, not on the processor."""


ATTACKS: dict[str, Attack] = {}


def attack(
    name: str, group: str, what: str, *, full_only: bool = False, overlaps: bool = False
) -> Callable[[Callable[[bool], Result]], Callable[[bool], Result]]:
    def register(run: Callable[[bool], Result]) -> Callable[[bool], Result]:
        ATTACKS[name] = Attack(name, group, what, run, full_only, overlaps)
        return run

    return register


def sync(work: Callable[[], Awaitable[T]], seconds: float = BOUND_SECONDS) -> T:
    """Run a coroutine function to its end, on a fresh event loop, bounded by ``seconds``."""

    async def bounded() -> T:
        return await asyncio.wait_for(work(), seconds)

    return asyncio.run(bounded())


def finishes(work: Callable[[], Any], seconds: float = BOUND_SECONDS) -> tuple[bool, Any]:
    """Run ``work`` in a daemon thread: (whether it finished within ``seconds``, its value)."""
    found: list[Any] = []
    done = threading.Event()

    def run() -> None:
        try:
            found.append(work())
        except BaseException as exc:  # reported as the value
            found.append(exc)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    finished = done.wait(seconds)
    return finished, found[0] if found else None


@contextlib.contextmanager
def captured_fds() -> Iterator[list[str]]:
    """Everything written to file descriptors 1 and 2 while the block runs (a cell's stdout and
    stderr in a kernel), as one text in the yielded list once the block ends."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    found: list[str] = []
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield found
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
            sink.seek(0)
            found.append(sink.read().decode("utf-8", "replace"))


def pid_alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_for(predicate: Callable[[], bool], seconds: float = BOUND_SECONDS) -> bool:
    """Poll ``predicate`` until true or ``seconds`` pass; whether it became true."""
    done = threading.Event()
    for _ in range(int(seconds * 20)):
        if predicate():
            return True
        done.wait(0.05)
    return predicate()
