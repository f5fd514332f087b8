"""The kernel manager ``scripts/dashboard`` gives Voilà (``voila.json``), so that every closed page's
kernel is culled, with the MCP servers it started.

Voilà's culler (jupyter_server's) spares a kernel that has connections, and ``voila.json`` keeps it
so (``cull_connected: false``: an open page keeps its kernel, however long it idles). jupyter_server
keeps a count of each kernel's connections, up when a websocket connects and down when one closes.
A page that closes while its websocket is still being accepted (a tab closed while it loads, a
network that drops) is counted down when it closes and up again when the half-made connection
opens, then fails (jupyter_server issue 1265): the count says "connected" for good, and that kernel
would never be culled. Here, before each culling check, the count is set to the kernel's websockets
that are really open.

A page asks for its kernel to be shut down when it closes (a beacon carrying the ``_xsrf`` cookie's
value), but Voilà's page never sets that cookie, so the request is refused (an open Voilà issue) and
only the culler frees the kernel, 20 to 50 s later. This manager gives Voilà a ``prelaunch_hook``
(unless one is configured) that sets the cookie on the page's response: a page that closes then
shuts its kernel at once, and the MCP servers that kernel started stop with it. Nothing else
differs from Voilà's default manager.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

__all__ = ["DashboardKernelManager", "open_websockets", "set_xsrf_cookie"]


def _is_open(connection: Any) -> bool:
    websocket = getattr(getattr(connection, "websocket_handler", None), "ws_connection", None)
    return websocket is not None and not websocket.is_closing()


def open_websockets(kernel_id: str) -> int:
    """How many websockets to ``kernel_id`` are open now (a closed one may still be listed)."""
    listed = list(ZMQChannelsWebsocketConnection._open_sockets)
    return sum(1 for connection in listed if connection.kernel_id == kernel_id and _is_open(connection))


def set_xsrf_cookie(request_handler: Any, notebook: Any = None, cwd: Any = None) -> None:  # any: Voilà's hook
    """Voilà's ``prelaunch_hook``: set the ``_xsrf`` cookie on the page's response (tornado sets it
    when the token is first read), which the page's shutdown request sends back when it closes."""
    _ = request_handler.xsrf_token


class DashboardKernelManager(AsyncMappingKernelManager):
    """Voilà's default kernel manager, whose culler counts only the websockets that are open, and
    whose pages can shut their kernels when they close (:func:`set_xsrf_cookie`)."""

    def __init__(self, **kwargs: Any) -> None:  # any: jupyter_server's keywords, passed on
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]  # jupyter_server: untyped
        configuration = getattr(self.parent, "voila_configuration", None)
        if configuration is not None and configuration.prelaunch_hook is None:
            configuration.prelaunch_hook = set_xsrf_cookie

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        if kernel_id in self._kernel_connections:
            self._kernel_connections[kernel_id] = open_websockets(kernel_id)
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]  # jupyter_server: untyped
