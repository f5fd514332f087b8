"""The kernel manager ``scripts/dashboard`` gives Voilà (``voila.json``), so that every closed page's
kernel is culled, with the MCP servers it started.

Voilà's culler (jupyter_server's) spares a kernel that has connections, and ``voila.json`` keeps it
so (``cull_connected: false``: an open page keeps its kernel, however long it idles). jupyter_server
keeps a count of each kernel's connections, up when a websocket connects and down when one closes.
A page that closes while its websocket is still being accepted (a tab closed while it loads, a
network that drops) is counted down when it closes and up again when the half-made connection
opens, then fails (jupyter_server issue 1265): the count says "connected" for good, and that kernel
would never be culled. Here, before each culling check, the count is set to the kernel's websockets
that are really open. Nothing else differs from Voilà's default manager.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

__all__ = ["DashboardKernelManager", "open_websockets"]


def _is_open(connection: Any) -> bool:
    websocket = getattr(getattr(connection, "websocket_handler", None), "ws_connection", None)
    return websocket is not None and not websocket.is_closing()


def open_websockets(kernel_id: str) -> int:
    """How many websockets to ``kernel_id`` are open now (a closed one may still be listed)."""
    listed = list(ZMQChannelsWebsocketConnection._open_sockets)
    return sum(1 for connection in listed if connection.kernel_id == kernel_id and _is_open(connection))


class DashboardKernelManager(AsyncMappingKernelManager):
    """Voilà's default kernel manager, whose culler counts only the websockets that are open."""

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        if kernel_id in self._kernel_connections:
            self._kernel_connections[kernel_id] = open_websockets(kernel_id)
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]  # jupyter_server: untyped
