"""A fork server for Python MCP servers over stdio: one process imports a server's code once, and
each start of that server is a fork of it. Importing the MCP SDK costs about 1.4 s of CPU per
process; the test suite and the quick benchmark start dozens of servers whose start-up is not what
they check or measure.

``launcher(socket, [...])`` is the command line to start instead of ``[python, ...]``: a launcher
that imports nothing (``python -I -S server_forks.py run SOCKET ARGS...``). While a
:class:`ServerForks` listens on ``SOCKET`` for arguments that begin the same way, the launcher
hands its stdin, stdout and stderr, its arguments, environment and working directory to the fork
server, whose child runs ``python ARGS...`` (``-m module`` or a script) on them. Otherwise the
launcher becomes ``python ARGS...`` itself (``exec``). The socket is on the command line because
MCP clients start servers with a minimal environment.

To its client the launcher is the server: it exits with the child's status or dies of the same
signal, passes SIGTERM, SIGINT and SIGHUP on to it, and a child whose launcher dies (SIGKILL
included) is killed at once. The child runs in a session of its own, as a server started with
``start_new_session`` does; the fork server kills its children when it stops or its parent goes.

Standard library only: the benchmarks' peers import it in their own venvs (benchmarks/forks.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import runpy
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

HERE = Path(__file__).resolve().parent
ENV = "ANVIA_SERVER_FORKS"
_HEADER = struct.Struct("!I")
_PASSED_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

__all__ = ["ENV", "ServerForks", "launcher"]


def launcher(where: str, arguments: Sequence[str], python: str = sys.executable) -> list[str]:
    """The command line that starts ``python *arguments``, forked when a fork server listens on ``where``."""
    return [python, "-I", "-S", str(HERE / "server_forks.py"), "run", where, *arguments]


class ServerForks:
    """The fork server for the ``with`` block: it forks ``python ARGS...`` for the ``ARGS`` that
    begin like one of ``servers`` (e.g. ``["-m", "package.server"]`` or ``["path/server.py"]``),
    after importing each of ``preload`` once (``module``, or ``module:function`` to call it too)."""

    def __init__(self, servers: Sequence[Sequence[str]], preload: Sequence[str] = (), where: str | None = None) -> None:
        self._servers = [list(server) for server in servers]
        self._preload = list(preload)
        self._folder = tempfile.TemporaryDirectory(prefix="server-forks-")
        self.socket = where or str(Path(self._folder.name) / "forks.sock")
        self._process: subprocess.Popen[str] | None = None
        self._before: str | None = None

    def __enter__(self) -> ServerForks:
        command = [
            sys.executable,
            str(HERE / "server_forks.py"),
            "serve",
            self.socket,
            json.dumps({"servers": self._servers, "preload": self._preload}),
        ]
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._process.stdout is not None
        if self._process.stdout.readline() != "ready\n":
            self.__exit__(None, None, None)
            raise RuntimeError("the fork server did not start")
        self._before = os.environ.get(ENV)
        os.environ[ENV] = self.socket
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if os.environ.get(ENV) == self.socket:
            if self._before is None:
                os.environ.pop(ENV, None)
            else:
                os.environ[ENV] = self._before
        if self._process is not None:
            assert self._process.stdin is not None
            self._process.stdin.close()  # the fork server kills its children and exits
            try:
                self._process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        with contextlib.suppress(OSError):
            os.unlink(self.socket)
        self._folder.cleanup()


# The launcher.


def run(where: str, arguments: list[str]) -> int:
    if os.path.exists(where):
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.connect(where)
            request = json.dumps(
                {"arguments": arguments, "env": dict(os.environ), "cwd": os.getcwd(), "launcher": os.getpid()}
            ).encode()
            socket.send_fds(conn, [_HEADER.pack(len(request))], [0, 1, 2])
            conn.sendall(request)
            answers = conn.makefile("rb")
            answer = answers.readline()
            if answer.startswith(b"P"):
                return _wait(int(answer[1:]), answers)
    os.execv(sys.executable, [sys.executable, *arguments])


def _wait(child: int, answers: Any) -> int:
    def pass_on(number: int, _frame: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, number)

    for passed in _PASSED_SIGNALS:
        signal.signal(passed, pass_on)
    answer = answers.readline()
    if not answer.startswith(b"S"):
        return 1  # the fork server stopped: it killed the child
    status = int(answer[1:])
    if os.WIFSIGNALED(status):
        died_of = os.WTERMSIG(status)
        signal.signal(died_of, signal.SIG_DFL)
        os.kill(os.getpid(), died_of)
    return os.waitstatus_to_exitcode(status)


# The fork server.


def serve(path: str, servers: list[list[str]], preload: list[str]) -> None:
    for name in preload:
        module, _, function = name.partition(":")
        loaded = __import__(module, fromlist=["_"])
        if function:
            getattr(loaded, function)()
    children: dict[int, tuple[int, socket.socket]] = {}  # pidfd: (pid, the launcher's connection)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener, selectors.DefaultSelector() as selector:
        with contextlib.suppress(OSError):
            os.unlink(path)  # left by a fork server that was killed
        listener.bind(path)
        listener.listen(64)
        selector.register(listener, selectors.EVENT_READ, "accept")
        selector.register(0, selectors.EVENT_READ, "parent")
        print("ready", flush=True)
        try:
            while True:
                for key, _events in selector.select():
                    if key.data == "parent":
                        if not os.read(0, 4096):
                            return  # our parent closed our stdin or is gone
                    elif key.data == "accept":
                        conn, _ = listener.accept()
                        inherited = [listener.fileno(), selector.fileno(), *children]
                        inherited += [other.fileno() for _pid, other in children.values()]
                        started = _start(conn, servers, inherited)
                        if started is None:
                            conn.close()
                            continue
                        pidfd = os.pidfd_open(started)
                        children[pidfd] = (started, conn)
                        selector.register(pidfd, selectors.EVENT_READ, "child")
                    else:
                        pid, conn = children.pop(key.fd)
                        selector.unregister(key.fd)
                        os.close(key.fd)
                        _, status = os.waitpid(pid, 0)
                        with contextlib.suppress(OSError), conn:
                            conn.sendall(b"S%d\n" % status)
        finally:
            for pidfd, (pid, conn) in children.items():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(pidfd)
                conn.close()


def _start(conn: socket.socket, servers: list[list[str]], inherited: list[int]) -> int | None:
    """Fork the child for one launcher; its pid, or None when the request is not for this server."""
    conn.settimeout(30)
    fds: list[int] = []
    try:
        header, fds, _flags, _address = socket.recv_fds(conn, _HEADER.size, 3)
        (size,) = _HEADER.unpack(header)
        body = b""
        while len(body) < size:
            chunk = conn.recv(size - len(body))
            if not chunk:
                raise OSError("the launcher went away")
            body += chunk
        request = json.loads(body)
    except (OSError, ValueError, struct.error):
        for fd in fds:
            os.close(fd)
        return None
    try:
        asked: list[str] = request["arguments"]
        if not any(asked[: len(server)] == server for server in servers) or len(fds) != 3:
            conn.sendall(b"R\n")  # the launcher starts the server itself
            return None
        pid = os.fork()
        if pid == 0:
            for fd in [*inherited, 0]:
                with contextlib.suppress(OSError):
                    os.close(fd)
            _child(conn, fds, request)
        conn.sendall(b"P%d\n" % pid)
        return pid
    except OSError:
        return None
    finally:
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)


def _child(conn: socket.socket, fds: list[int], request: dict[str, Any]) -> None:
    code: Any = 1
    try:
        conn.close()
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _die_with(request["launcher"])
        arguments: list[str] = request["arguments"]
        if arguments[0] == "-m":  # as ``python -m``: the working directory first on the path
            sys.path[0] = os.getcwd()
            sys.argv = [arguments[1], *arguments[2:]]
            runpy.run_module(arguments[1], run_name="__main__", alter_sys=True)
        else:  # as ``python script.py``: the script's folder first on the path
            sys.path[0] = str(Path(arguments[0]).resolve().parent)
            sys.argv = list(arguments)
            runpy.run_path(arguments[0], run_name="__main__")
        code = 0
    except SystemExit as stop:
        code = stop.code
    except KeyboardInterrupt:
        _flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        _flush()
        if code is None:
            code = 0
        elif not isinstance(code, int):
            print(code, file=sys.stderr, flush=True)
            code = 1
        os._exit(code)


def _die_with(launcher_pid: int) -> None:
    """Kill this process as soon as its launcher is gone (the client sees the launcher as the server)."""
    try:
        pidfd = os.pidfd_open(launcher_pid)
    except ProcessLookupError:
        os.kill(os.getpid(), signal.SIGKILL)
        return

    def watch() -> None:
        with selectors.DefaultSelector() as selector:
            selector.register(pidfd, selectors.EVENT_READ)
            selector.select()
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True, name="server-forks-launcher-watch").start()


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        told = json.loads(sys.argv[3])
        serve(sys.argv[2], told["servers"], told["preload"])
    else:
        sys.exit(run(sys.argv[2], sys.argv[3:]))
