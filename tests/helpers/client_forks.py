"""One Python that imports oauth_client.py (anvia_nb and the MCP SDK) once, then forks a fresh
client for each scenario the conformance suite starts: the import costs ~2 s of CPU, the fork
almost nothing, and the suite runs sixteen clients.

``python client_forks.py serve SOCKET`` listens on a Unix socket, single-threaded until it forks.
The suite's ``--command`` is ``python -I -S client_forks.py run SOCKET`` (imports nothing of ours):
it hands the server its stdin/stdout/stderr, the server URL and the suite's ``MCP_CONFORMANCE_*``
variables; the forked child runs ``oauth_client.main`` (``auth/*`` scenarios) or
``conformance_client.main`` (the others) with them, exactly as ``oauth_client.py URL`` would, and
sends back its exit status. The launcher exits with it and prints it last on stdout (the suite
saves each client's stdout; in ``--suite`` mode it does not look at the status itself, the test
does)."""

from __future__ import annotations

import importlib
import json
import os
import signal
import socket
import sys

EXIT_LINE = "conformance client exit status:"
# What a client imports only once it connects (the HTTP transport): imported before forking too.
WARM = (
    "httpcore2",
    "anyio._core._sockets",
    "anyio._core._streams",
    "anyio.streams.stapled",
    "anyio.streams.tls",
    "concurrent.futures.thread",
    "encodings.idna",
)
PASSED_ON = ("MCP_CONFORMANCE_SCENARIO", "MCP_CONFORMANCE_CONTEXT", "MCP_CONFORMANCE_PROTOCOL_VERSION")


def run(path: str, url: str) -> int:
    """The suite's client command: one scenario, run by a child of the fork server."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        request = {"url": url, "env": {name: os.environ[name] for name in PASSED_ON if name in os.environ}}
        socket.send_fds(conn, [json.dumps(request).encode()], [0, 1, 2])
        conn.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := conn.recv(64):
            answer += chunk
    status = int(answer or b"1")
    print(EXIT_LINE, status, flush=True)
    return status


def client(conn: socket.socket) -> int:
    """In the forked child: take the launcher's stdio and variables, run the real client."""
    import asyncio
    import traceback

    from tests.helpers import conformance_client, oauth_client

    data, fds, _flags, _address = socket.recv_fds(conn, 1 << 16, 3)
    while chunk := conn.recv(1 << 16):
        data += chunk
    request = json.loads(data)
    sys.stdout.flush()
    sys.stderr.flush()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    for name in PASSED_ON:
        os.environ.pop(name, None)
    os.environ.update(request["env"])
    try:
        scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
        client_main = oauth_client.main if scenario.startswith("auth/") else conformance_client.main
        return asyncio.run(client_main(request["url"]))
    except BaseException:
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()


def serve(path: str) -> None:
    from tests.helpers import conformance_client, oauth_client  # noqa: F401  (the import every child shares)

    for name in WARM:
        try:
            importlib.import_module(name)
        except ImportError:  # only a saving: the child imports what it needs anyway
            pass

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen(64)
        print("ready", flush=True)
        try:
            accept(listener)
        finally:  # wait for every child (their CPU time then counts as this process's children's)
            while True:
                try:
                    os.wait()
                except ChildProcessError:
                    break


def accept(listener: socket.socket) -> None:
    while True:
        conn, _ = listener.accept()
        while True:  # reap the children that finished
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            status = 1
            try:
                status = client(conn)
            finally:
                try:
                    conn.sendall(str(status).encode())
                finally:
                    os._exit(status)
        conn.close()


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        sys.path.insert(0, os.path.abspath(os.path.join(__file__, "..", "..", "..")))  # the repository
        serve(sys.argv[2])
    else:
        sys.exit(run(sys.argv[2], sys.argv[3]))
