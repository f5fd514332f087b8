"""The bench server over stdio, started fresh or (in ``--quick`` runs) forked from one that imported
the SDK once: a dozen stdio servers each importing the SDK cost ~1.4 s of CPU apiece, which is most
of what a quick run spends and none of what it checks.

``server_command(python)`` is the command every stdio contender, fresh-process run and peer starts.
Normally ``python bench_server.py``. While :class:`ServerForks` runs (it sets
``ANVIA_BENCH_SERVER_FORKS`` for this process and its children), it is a launcher that imports
nothing (``python -I -S server_forks.py run SOCKET``): it hands its stdin/stdout/stderr to the fork
server, whose child serves MCP on them exactly as ``bench_server.py`` would, and exits with the
child's status. The child ends when its client closes stdin, as a fresh server does.

Standard library only: peer.py imports this from the peers' venvs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

HERE = Path(__file__).resolve().parent
SERVER = str(HERE / "bench_server.py")
ENV = "ANVIA_BENCH_SERVER_FORKS"

__all__ = ["ENV", "SERVER", "ServerForks", "server_command"]


def server_command(python: str = sys.executable) -> list[str]:
    """The command line of one bench server over stdio, run by ``python`` (the project's venv)."""
    where = os.environ.get(ENV)
    if where:
        return [python, "-I", "-S", str(HERE / "server_forks.py"), "run", where]
    return [python, SERVER]


class ServerForks:
    """The fork server, running for the ``with`` block (in the project's venv)."""

    def __init__(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="bench-forks-")
        self.socket = str(Path(self._folder.name) / "server.sock")
        self._process: subprocess.Popen[str] | None = None

    def __enter__(self) -> ServerForks:
        self._process = subprocess.Popen([sys.executable, str(HERE / "server_forks.py"), "serve", self.socket],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
        assert self._process.stdout is not None
        if self._process.stdout.readline() != "ready\n":
            self.__exit__(None, None, None)
            raise RuntimeError("the bench fork server did not start")
        os.environ[ENV] = self.socket
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        os.environ.pop(ENV, None)
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=60)
        self._folder.cleanup()


def run(path: str) -> int:
    """The launcher: one stdio server, served by a child of the fork server."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        socket.send_fds(conn, [b"serve"], [0, 1, 2])
        conn.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := conn.recv(64):
            answer += chunk
    return int(answer or b"1")


def serve(path: str) -> None:
    sys.path.insert(0, str(HERE))
    import bench_server  # the import every child shares

    children: set[int] = set()

    def stop(*_: object) -> None:
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen(64)
        print("ready", flush=True)
        try:
            while True:
                conn, _ = listener.accept()
                _reap(children, block=False)
                pid = os.fork()
                if pid == 0:
                    listener.close()
                    signal.signal(signal.SIGTERM, signal.SIG_DFL)
                    _child(conn, bench_server.run_stdio)
                children.add(pid)
                conn.close()
        finally:  # wait for every child: their CPU time counts as this process's children's
            _reap(children, block=True)


def _reap(children: set[int], *, block: bool) -> None:
    while children:
        try:
            pid, _status = os.waitpid(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            children.clear()
            return
        if pid == 0:
            return
        children.discard(pid)


def _child(conn: socket.socket, serve_stdio: Callable[[], None]) -> None:
    status = 1
    try:
        _data, fds, _flags, _address = socket.recv_fds(conn, 64, 3)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        serve_stdio()
        status = 0
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        try:
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.flush()
                sys.stderr.flush()
            conn.sendall(str(status).encode())
        finally:
            os._exit(status)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        sys.exit(run(sys.argv[2]))
