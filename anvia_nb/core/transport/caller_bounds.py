"""Whose bound a call is held to: the connection's ``max_calls_in_flight``, or its caller's.

A map starts ``concurrency`` workers and its calls are bounded by them; held to the connection's
bound as well, ``concurrency=64`` meant 16. :func:`bounded_by_caller` marks the context of such
calls (the tasks started in it inherit it), and :class:`~anvia_nb.core.transport.client.McpClient`
lets them go at once. No SDK here: ``core.api.batch`` imports it, and ``%load_ext`` loads that.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

__all__ = ["bounded_by_caller", "caller_bounds"]

_BOUNDED_BY_CALLER: contextvars.ContextVar[bool] = contextvars.ContextVar("anvia_nb_bounded_by_caller", default=False)


@contextlib.contextmanager
def bounded_by_caller() -> Iterator[None]:
    """Calls made in this context, and in the tasks started in it, are bounded by their caller (a
    map's ``concurrency``: it starts that many workers), not by the connection's
    ``max_calls_in_flight``: a map asked for 64 at once sends 64 at once."""
    token = _BOUNDED_BY_CALLER.set(True)
    try:
        yield
    finally:
        _BOUNDED_BY_CALLER.reset(token)


def caller_bounds() -> bool:
    """Whether the calls of the current context are bounded by their caller."""
    return _BOUNDED_BY_CALLER.get()
