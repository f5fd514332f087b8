"""A dashboard page that closes while its browser is still connecting to the kernel frees that
kernel and the MCP servers it started, like any closed page (scripts/dashboard, voila.json).

jupyter_server counts a kernel's websocket connections, and Voilà's culler spares a kernel with
any (``cull_connected: false`` keeps every open page's kernel). A connection closed before it was
accepted is counted as a disconnect without a connect: the count falls to -1, which reads as
connected, and that kernel would never be culled. Here the early close is a raw websocket upgrade
request closed at once, as a tab closed during loading does. A page that stays open keeps its
kernel meanwhile."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import re
import secrets
import socket
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from tornado.websocket import WebSocketClientConnection, websocket_connect

from tests.helpers.support import REPO, pid_alive
from tests.helpers.voila import RunningVoila, serve_dashboard
from tests.helpers.waiting import wait_until

pytestmark = pytest.mark.slow  # starts Voilà and a kernel: left out of scripts/test --quick

FREED_SECONDS = 180.0  # culled within about 30 s (voila.json); a busy machine, not a broken setting
SERVERS = (
    "%load_ext anvia_nb\n"
    f"%mcp connect demo --cwd {REPO} --stdio python -m anvia_nb.demo_server\n"
    "print('END-OF-PAGE')"
)


def _close_while_connecting(base_url: str, kernel_id: str) -> None:
    """Ask for the kernel's websocket and hang up before the server has answered."""
    host, port = base_url.removeprefix("http://").rstrip("/").split(":")
    key = base64.b64encode(secrets.token_bytes(16)).decode()
    request = (
        f"GET /api/kernels/{kernel_id}/channels?session_id={secrets.token_hex(8)} HTTP/1.1\r\n"
        f"Host: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Protocol: v1.kernel.websocket.jupyter.org\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(request.encode())


@contextlib.contextmanager
def _open_page(base_url: str, kernel_id: str) -> Iterator[None]:
    """A page that stays open: its websocket to the kernel, answering the server's pings."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    url = f"ws{base_url.removeprefix('http')}/api/kernels/{kernel_id}/channels?session_id={secrets.token_hex(8)}"
    connection = asyncio.run_coroutine_threadsafe(_connected(url), loop).result(60)
    try:
        yield
    finally:
        loop.call_soon_threadsafe(connection.close)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


async def _connected(url: str) -> WebSocketClientConnection:
    return await websocket_connect(url, subprotocols=["v1.kernel.websocket.jupyter.org"])


def _page(voila: RunningVoila) -> tuple[str, set[int]]:
    """Open a page of the dashboard: its kernel's ID, and the processes it started (the kernel, the MCP server)."""
    existing = voila.descendants()
    with urllib.request.urlopen(f"{voila.base_url}/voila/render/page.ipynb", timeout=120) as page:
        html = page.read().decode()
    assert "END-OF-PAGE" in html
    found = re.search(r'"kernelId": "([0-9a-f-]+)"', html)
    assert found is not None, html[-2000:]
    started = voila.descendants() - existing
    assert len(started) >= 2, started
    return found.group(1), started


def test_a_page_closed_while_connecting_frees_its_kernel_and_mcp_servers(tmp_path: Path) -> None:
    with serve_dashboard(tmp_path) as voila:
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SERVERS)])
        nbformat.write(notebook, voila.root / "page.ipynb")
        kept_kernel, kept = _page(voila)
        with _open_page(voila.base_url, kept_kernel):
            # Opened first, so idle for longer: culled no later than the other if it were not connected.
            gone_kernel, gone = _page(voila)
            _close_while_connecting(voila.base_url, gone_kernel)
            wait_until(
                lambda: not any(pid_alive(pid) for pid in gone),
                lambda: f"the gone page's processes to end; still running: {sorted(p for p in gone if pid_alive(p))}"
                f"\n{voila.log()}",
                seconds=FREED_SECONDS,
            )
            assert f"({gone_kernel}) with 0 connections" in voila.log()  # culled, not shut down by a goodbye
            assert all(pid_alive(pid) for pid in kept), voila.log()  # the open page keeps its kernel
            assert f"({kept_kernel}) with" not in voila.log()
