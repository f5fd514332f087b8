"""The HTTP client of a streamable HTTP connection, reading what the socket has, not 64 KiB at a time.

httpcore asks its network stream for at most 64 KiB per read, and anyio then cuts each piece the
event loop received (up to 256 KiB) into 64 KiB slices, copying what is left after each: a 24 MB
answer took about 1,000 reads through anyio, httpcore and h11, a quarter of the client's CPU for
that call. :class:`LargeReads` is an httpcore network backend (httpcore's own extension point)
whose streams ask for up to :data:`~anvia_nb.core.protocol.limits.HTTP_READ_BYTES`, so each read
takes whatever piece has arrived, whole.
Nothing else changes: the same connection pool, TLS, timeouts and proxies from the environment.
``benchmarks/README.md`` has the figures, side by side.

:class:`JsonBodies` writes a request's JSON body (``json=``, each message the SDK's transport posts)
with pydantic-core, the serializer the SDK's models and the trace already use, instead of httpx2's
``json.dumps`` with its own encoder made again for every request.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterable
from typing import Any

import httpcore2
import httpx2
import pydantic_core

from anvia_nb.core.protocol import limits

__all__ = ["JsonBodies", "LargeReadStream", "LargeReads", "http_client"]


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


class JsonBodies(httpx2.AsyncClient):
    """httpx2's client, writing the body of the SDK transport's POSTs (a message dumped in JSON mode,
    under its own ``content-type``) with ``pydantic_core.to_json`` instead of ``json.dumps``: the
    same compact UTF-8 JSON but a float's exponent (``1e-7``, not ``1e-07``), which is how the trace
    writes it, so the trace shows the body as it was sent. 42k instructions fewer a trivial call over
    HTTP at the default protocol, 1.1 % (issue 41, benchmarks/README.md). A body pydantic-core cannot
    write, or may have written with ``NaN``, goes httpx2's own way and fails there as before; so does
    every other request."""

    def build_request(
        self,
        method: str,
        url: httpx2.URL | str,
        **options: Any,  # any: httpx2's keyword arguments, passed on as given
    ) -> httpx2.Request:
        body, headers = options.get("json"), options.get("headers")
        if body is None or options.get("content") is not None or not _names_json(headers):
            return super().build_request(method, url, **options)  # not the SDK transport's POST: httpx2's way
        try:
            content = pydantic_core.to_json(body)
        except pydantic_core.PydanticSerializationError:  # a lone surrogate, say
            return super().build_request(method, url, **options)
        if b"NaN" in content or b"Infinity" in content:  # maybe a float that json.dumps refuses
            return super().build_request(method, url, **options)
        return super().build_request(method, url, **{**options, "json": None, "content": content})


def _names_json(headers: object) -> bool:
    """Whether ``headers`` are the SDK transport's own (a dict naming the body's type, as every POST
    of its ``_prepare_headers`` does): the body is then sent under that type as it is."""
    return isinstance(headers, dict) and "content-type" in headers


def http_client(headers: dict[str, str], timeout: httpx2.Timeout, auth: httpx2.Auth | None) -> httpx2.AsyncClient:
    """What the SDK's ``create_mcp_http_client`` makes, on a transport of :class:`LargeReads`.

    httpx takes no network backend, so the transport's pool gets it once it is built (a test
    checks that a response's stream is a :class:`LargeReadStream`, in case httpx changes)."""
    transport = httpx2.AsyncHTTPTransport()
    pool = transport._pool
    if isinstance(pool, httpcore2.AsyncConnectionPool):
        pool._network_backend = LargeReads(pool._network_backend)
    if auth is None:
        return JsonBodies(headers=headers, timeout=timeout, transport=transport)
    return JsonBodies(headers=headers, timeout=timeout, transport=transport, auth=auth)
