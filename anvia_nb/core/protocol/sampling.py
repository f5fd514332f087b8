"""Sampling: a server asking the client's model for a completion (MCP ``sampling/createMessage``).

Nothing is ever sent to a model on a server's say alone. Unless the person installed a handler,
the request is declined: the server gets an error that says so (:data:`DECLINED_MESSAGE`), and
the connection's log (``%mcp log NAME``) gets a warning line. A handler is installed with
:func:`enable_sampling`, for one connection or for all of them (a connection's own handler wins)::

    from anvia_nb import enable_sampling
    enable_sampling(lambda request: "a reply I wrote myself")          # every connection
    enable_sampling(ask_my_model, server=server)                       # one connection

The handler gets the request as JSON with wire keys (``messages``, ``systemPrompt``,
``maxTokens``...) plus ``"server"``, the connection's name; it returns the reply: a ``str`` (sent
as one text message) or a ``CreateMessageResult`` as a dict (``role``, ``content``, ``model``,
``stopReason``). It may be a plain function (run in a worker thread, so it may block on a model's
API) or a coroutine function. An exception in it declines the request with its message.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from anvia_nb._docs import fill_docstring
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.errors import InvalidTypeError, InvalidValueError

__all__ = [
    "DECLINED_MESSAGE",
    "SamplingCallback",
    "SamplingClient",
    "SamplingServer",
    "disable_sampling",
    "enable_sampling",
    "global_sampling_handler",
    "reply_from",
]

_SERVER = {
    "server": """
server : McpServer or McpClient, optional
    One connection (from ``connect_mcp``, or its client); ``None``: the global handler, used by
    every connection that has no handler of its own.
"""
}
"""The ``server`` both ``enable_sampling`` and ``disable_sampling`` take, described once (see ``anvia_nb._docs``)."""

SamplingCallback = Callable[[JsonObject], Any]
"""``callback(request) -> str | dict`` (or a coroutine function returning one)."""
SamplingHandler = Callable[[JsonObject], Awaitable[JsonObject]]
"""What a session calls: the request in, a ``CreateMessageResult`` as JSON out."""


class SamplingClient(Protocol):
    """A connection's client, which a sampling handler is set on (``McpClient`` is one)."""

    def set_sampling_handler(self, handler: SamplingHandler | None) -> None: ...


class SamplingServer(Protocol):
    """A connected server, whose client takes the handler (``McpServer`` is one)."""

    @property
    def client(self) -> SamplingClient: ...


DECLINED_MESSAGE = (
    "anvia_nb declined the sampling request: the notebook's user has not allowed this server to use a model "
    "(anvia_nb.enable_sampling installs a handler)"
)
"""What the server is told when no handler is installed."""

DEFAULT_MODEL_NAME = "anvia_nb-sampling-handler"

_lock = threading.Lock()
_global: SamplingHandler | None = None


def reply_from(value: object) -> JsonObject:
    """A handler's answer as a ``CreateMessageResult`` (wire keys); a str becomes one text message."""
    if isinstance(value, str):
        return {
            "role": "assistant",
            "content": {"type": "text", "text": value},
            "model": DEFAULT_MODEL_NAME,
            "stopReason": "endTurn",
        }
    if not isinstance(value, Mapping):
        raise InvalidValueError(f"a sampling handler must return a str or a dict, not {type(value).__name__}.")
    reply = dict(value)
    reply.setdefault("role", "assistant")
    reply.setdefault("model", DEFAULT_MODEL_NAME)
    if "content" not in reply:
        raise InvalidValueError(
            "a sampling handler's dict needs 'content' (for example {'type': 'text', 'text': ...})."
        )
    return reply


def handler_from(callback: SamplingCallback) -> SamplingHandler:
    """``callback`` as a session's handler: sync ones run in a worker thread, replies checked."""
    if not callable(callback):
        raise InvalidTypeError(f"enable_sampling takes a function, not {type(callback).__name__}.")

    async def handle(request: JsonObject) -> JsonObject:
        if inspect.iscoroutinefunction(callback):
            value = await callback(request)
        else:
            value = await asyncio.to_thread(callback, request)
            if inspect.isawaitable(value):
                value = await value
        return reply_from(value)

    return handle


@fill_docstring(_SERVER)
def enable_sampling(callback: SamplingCallback, *, server: SamplingServer | SamplingClient | None = None) -> None:
    """Answer servers' sampling requests (``sampling/createMessage``) with ``callback``.

    A connection's own handler wins over the global one; without any, requests are declined.

    Parameters
    ----------
    callback : callable
        ``callback(request)``: the request as JSON with wire keys (``messages``, ``systemPrompt``,
        ``maxTokens``...) and ``"server"``; returns a ``str`` (one text message) or a
        ``CreateMessageResult`` as a dict. A plain function runs in a worker thread (it may block
        on a model's API); a coroutine function is awaited. What it raises declines the request.
    {server}

    Raises
    ------
    InvalidTypeError
        ``callback`` is not callable, or ``server`` is neither a connected server nor its client.

    Examples
    --------
    >>> enable_sampling(lambda request: "a reply I wrote myself", server=server)
    """
    handler = handler_from(callback)
    if server is None:
        global _global
        with _lock:
            _global = handler
        return
    _client_of(server).set_sampling_handler(handler)


@fill_docstring(_SERVER)
def disable_sampling(*, server: SamplingServer | SamplingClient | None = None) -> None:
    """Decline sampling again: on one connection (its own handler removed), else the global one.

    Parameters
    ----------
    {server}

    Raises
    ------
    InvalidTypeError
        ``server`` is neither a connected server nor its client.
    """
    if server is None:
        global _global
        with _lock:
            _global = None
        return
    _client_of(server).set_sampling_handler(None)


def global_sampling_handler() -> SamplingHandler | None:
    """The handler for connections without their own, or ``None``."""
    with _lock:
        return _global


def _client_of(server: object) -> SamplingClient:
    client = getattr(server, "client", server)
    if not hasattr(client, "set_sampling_handler"):
        raise InvalidTypeError(
            f"server must be a connected server (from connect_mcp) or its client, not {type(server).__name__}."
        )
    handled: SamplingClient = client
    return handled
