"""The HTTP client of a streamable HTTP connection, reading what the socket has, not 64 KiB at a time.

httpcore asks its network stream for at most 64 KiB per read, and anyio then cuts each piece the
event loop received (up to 256 KiB) into 64 KiB slices, copying what is left after each: a 24 MB
answer took about 1,000 reads through anyio, httpcore and h11, a quarter of the client's CPU for
that call. :class:`LargeReads` is an httpcore network backend (httpcore's own extension point)
whose streams ask for up to :data:`~anvia_nb.core.protocol.limits.HTTP_READ_BYTES`, so each read
takes whatever piece has arrived, whole.
Nothing else changes: the same connection pool, TLS, timeouts and proxies from the environment.
``benchmarks/README.md`` has the figures, side by side.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterable
from typing import Any

import httpcore2
import httpx2

from anvia_nb.core.protocol import limits

__all__ = ["LargeReadStream", "LargeReads", "http_client"]


class LargeReadStream(httpcore2.AsyncNetworkStream):
    """A network stream whose reads ask for at least :data:`~anvia_nb.core.protocol.limits.HTTP_READ_BYTES`."""

    def __init__(self, stream: httpcore2.AsyncNetworkStream) -> None:
        self._stream = stream

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._stream.read(max(max_bytes, limits.HTTP_READ_BYTES), timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._stream.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore2.AsyncNetworkStream:
        return LargeReadStream(await self._stream.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:  # any: anyio's extra info, as its stream gives it
        return self._stream.get_extra_info(info)


class LargeReads(httpcore2.AsyncNetworkBackend):
    """httpcore's network backend, with every stream it opens a :class:`LargeReadStream`."""

    def __init__(self, backend: httpcore2.AsyncNetworkBackend) -> None:
        self._backend = backend

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        stream = await self._backend.connect_tcp(host, port, timeout, local_address, socket_options)
        return LargeReadStream(stream)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore2.AsyncNetworkStream:
        return LargeReadStream(await self._backend.connect_unix_socket(path, timeout, socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._backend.sleep(seconds)


def http_client(headers: dict[str, str], timeout: httpx2.Timeout, auth: httpx2.Auth | None) -> httpx2.AsyncClient:
    """What the SDK's ``create_mcp_http_client`` makes, on a transport of :class:`LargeReads`.

    httpx takes no network backend, so the transport's pool gets it once it is built (a test
    checks that a response's stream is a :class:`LargeReadStream`, in case httpx changes)."""
    transport = httpx2.AsyncHTTPTransport()
    pool = transport._pool
    if isinstance(pool, httpcore2.AsyncConnectionPool):
        pool._network_backend = LargeReads(pool._network_backend)
    if auth is None:
        return httpx2.AsyncClient(headers=headers, timeout=timeout, transport=transport)
    return httpx2.AsyncClient(headers=headers, timeout=timeout, transport=transport, auth=auth)
