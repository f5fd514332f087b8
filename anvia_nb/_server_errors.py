"""Which errors are about a server, and which quote one: the structure the policy reads to decide
what a viewer is told (:meth:`anvia_nb.policy.ShowPolicy.hides`). Decided on the error's class and
its ``__cause__`` chain, never on its wording. The stdlib and the error tree only."""

from __future__ import annotations

from anvia_nb.errors import (
    ConnectError,
    ConnectionClosedError,
    ProtocolError,
    ToolCallError,
    UnknownConnectionError,
)

__all__ = ["about_a_server", "quotes_a_server"]


def quotes_a_server(error: BaseException | None) -> bool:
    """Whether an error, or one it was raised from, carries text a server wrote.

    Decided on structure, never on wording: a tool-call or protocol error, or any error with a
    non-empty ``server_text``, anywhere in the ``__cause__`` chain. (A connect error's ``stderr``
    tail is not: the magic keeps its own first line and hides just that tail.)
    """
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, (ToolCallError, ProtocolError)) or getattr(error, "server_text", None):
            return True
        error, seen = error.__cause__, seen + 1
    return False


def about_a_server(error: BaseException | None) -> bool:
    """Whether an error is about a server rather than about what a person typed: it could not be
    reached or started, it stopped, it is not connected, or it quotes a server (see
    :func:`quotes_a_server`). With server errors hidden these are said in a viewer's words."""
    about = (ConnectError, ConnectionClosedError, UnknownConnectionError, ToolCallError, ProtocolError, TimeoutError)
    return isinstance(error, about) or quotes_a_server(error)
