"""What a client's server asks of it and tells it: requests for input (elicitation), sampling, the
roots offered, and notifications, each answered or heard through the session's
:class:`~anvia_nb.core.transport.handlers.SessionHandlers`.

:class:`ServerTraffic` is what :class:`~anvia_nb.core.transport.client.McpClient` has of it (the
client makes the handlers and the log); the client itself opens, calls and closes.
"""

from __future__ import annotations

import collections
from collections.abc import Callable

from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.protocol.sampling import SamplingHandler
from anvia_nb.core.transport.handlers import ElicitationHandler, SessionHandlers

__all__ = ["ServerTraffic"]


class ServerTraffic:
    """The handlers, counts and listeners of what a server starts, over a client's session."""

    log: ServerLog
    notifications: collections.Counter[str]
    _handlers: SessionHandlers
    _notification_listeners: list[Callable[[str], None]]

    @property
    def elicitation_handler(self) -> ElicitationHandler | None:
        """Who answers the server's elicitation requests now (``None``: they are cancelled)."""
        return self._handlers.elicitation

    def set_elicitation_handler(self, handler: ElicitationHandler | None) -> None:
        """Who answers the server's elicitation requests; without one they are cancelled.

        Parameters
        ----------
        handler : callable or None
            ``await handler(request)`` returns the answer (``enable_elicitation`` installs one);
            ``None``: cancel every request.
        """
        self._handlers.elicitation = handler

    @property
    def roots(self) -> tuple[str, ...]:
        """The paths this connection offers its server as roots."""
        return self._handlers.roots

    @property
    def sampling_handler(self) -> SamplingHandler | None:
        """This connection's own answer to sampling requests (``None``: the global one, if any)."""
        return self._handlers.sampling.handler

    def set_sampling_handler(self, handler: SamplingHandler | None) -> None:
        """Who answers this server's sampling requests (see ``enable_sampling``).

        Parameters
        ----------
        handler : callable or None
            ``await handler(request)`` returns a ``CreateMessageResult`` as JSON; ``None``: the global
            handler, if any, else decline.
        """
        self._handlers.sampling.handler = handler

    @property
    def declined_samplings(self) -> int:
        """How many sampling requests of this server were declined."""
        return self._handlers.sampling.declined

    @property
    def unanswered_elicitations(self) -> int:
        """How many requests for input were cancelled because nothing could answer them."""
        return self._handlers.unanswered_elicitations

    def record_unanswered_elicitation(self, reason: str) -> None:
        """A handler that had to cancel a request says why (shown by ``%mcp log``).

        Parameters
        ----------
        reason : str
            One line, e.g. ``"no notebook and no callback to ask"``.
        """
        self._handlers.unanswered_elicitations += 1
        self.log.note("warning", f"the server asked for input: cancelled, {reason}")

    # -- notifications -----------------------------------------------------------------------

    def _on_notification(self, method: str) -> None:
        self.notifications[method] += 1
        for listener in list(self._notification_listeners):
            try:
                listener(method)
            except Exception as exc:  # a listener's trouble must never break the session
                self.log.note("warning", f"handling {method} failed: {type(exc).__name__}: {exc}")

    def on_notification(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(method)`` on the session's loop for each notification the server sends
        (``notifications/tools/list_changed``...), also for the change events of a 2026-07-28
        ``subscriptions/listen`` stream.

        Parameters
        ----------
        listener : callable
            Takes the method's name. It must not block: schedule work, do not await it; what it raises
            is noted in the log.
        """
        self._notification_listeners.append(listener)

    def on_close(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` once this client is done: closed (opened or never), or its connect failed.

        Parameters
        ----------
        listener : callable
            Takes nothing.
        """
        self._handlers.closed.append(listener)

    def on_resource_updated(self, listener: Callable[[str], None]) -> None:
        """Call ``listener(uri)`` on the session's loop for each ``notifications/resources/updated``.

        Parameters
        ----------
        listener : callable
            Takes the resource's URI; replaces the listener before.
        """
        self._handlers.resource_updated = listener
