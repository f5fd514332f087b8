"""A JSON body from an HTTP server is bounded like every other message (SSE events are bounded by
the SDK's ``max_sse_event_size``): reading more than the limit fails that request at once."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import httpx2

from anvia_nb.core.transport.sdk.errors import TOO_LARGE

__all__ = ["bound_json_bodies"]


class _BoundedBody(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, limit: int) -> None:
        self._inner = inner
        self._limit = limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        total = 0
        async for chunk in self._inner:
            total += len(chunk)
            if total > self._limit:
                raise httpx2.StreamError(f"the answer is {TOO_LARGE} {self._limit:,} bytes")
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


def bound_json_bodies(limit: int) -> Callable[[httpx2.Response], Awaitable[None]]:
    """A response hook that bounds every ``application/json`` body to ``limit`` bytes."""

    async def hook(response: httpx2.Response) -> None:
        headers = response.headers
        kind = headers.get("content-type", "").lower()
        if not kind.startswith("application/json") or not isinstance(response.stream, httpx2.AsyncByteStream):
            return
        if _declared_within(headers.get("content-length"), limit):
            return  # h11 reads no more than the declared length: nothing to count
        response.stream = _BoundedBody(response.stream, limit)

    return hook


def _declared_within(length: str | None, limit: int) -> bool:
    """Whether a ``Content-Length`` (as h11 passed it: checked, one value) is at most ``limit``.
    A body of a declared length is not wrapped to be counted: about 18k instructions a call, 0.5 %
    (issue 41)."""
    return length is not None and length.isascii() and length.isdigit() and int(length) <= limit
