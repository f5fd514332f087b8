"""The loopback side of the authorization-code flow: a port on 127.0.0.1 for the one-shot
redirect (:class:`anvia_nb.core.transport.oauth.person.NotebookOAuthProvider` listens on it while a
person authorizes)."""

from __future__ import annotations

import socket

__all__ = ["CALLBACK_PATH", "free_port", "loopback_socket"]

CALLBACK_PATH = "/callback"


def loopback_socket(port: int = 0) -> socket.socket | None:
    """A listening socket on 127.0.0.1 (``None`` when that port is taken)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError:
        sock.close()
        return None
    sock.listen(8)
    sock.setblocking(False)
    return sock


def free_port(wanted: int) -> int:
    """``wanted`` if it is free on 127.0.0.1, else another free port (0 when none is)."""
    for port in (wanted, 0) if wanted else (0,):
        sock = loopback_socket(port)
        if sock is not None:
            with sock:
                return int(sock.getsockname()[1])
    return 0
