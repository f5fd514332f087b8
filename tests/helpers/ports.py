"""Ports for servers that must be told theirs before they start (JupyterLab, Voila, a node server),
and for "nothing listens here" addresses.

A port got by binding ``("127.0.0.1", 0)`` and closing comes from the kernel's ephemeral range,
the range every outgoing connection on the machine draws its local port from. Between the probe
closing it and the server binding it, another connection can take it: the server then fails with
"address in use" (JupyterLab even prints its URL first, then exits). JupyterLab's own ``--port 0``
does the same probe-then-bind. Ports below that range are handed out by nobody but a process that
asks for one by number, so each pytest-xdist worker walks its own slice of them, probes each before
giving it, and never gives one twice.
"""

from __future__ import annotations

import itertools
import os
import socket
from collections.abc import Iterator
from pathlib import Path

LOWEST = 10_000
SLICE = 1_000  # ports per xdist worker


def _ephemeral_low() -> int:
    """The lowest port the kernel hands out on its own (Linux's default range starts at 32768)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def _worker_index() -> int:
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")  # "gw3"
    return int(name[2:]) if name[2:].isdigit() else 0


def _slice() -> Iterator[int]:
    slices = max(1, (_ephemeral_low() - LOWEST) // SLICE)
    start = LOWEST + (_worker_index() % slices) * SLICE
    return itertools.cycle(range(start, start + SLICE))


_ports = _slice()


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on and nothing else in this run will be given."""
    for port in itertools.islice(_ports, SLICE):
        if _bindable(port):
            return port
    raise RuntimeError(f"no free port on 127.0.0.1 among this worker's {SLICE} below the ephemeral range")
