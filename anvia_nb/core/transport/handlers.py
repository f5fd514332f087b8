"""``SessionHandlers``: what a session calls for what its server sends on its own initiative
(elicitation, logs, notifications, sampling, roots), and what it tells the client it learned (a
stdio server's exit status, a credential).

:class:`~anvia_nb.core.transport.client.McpClient` makes one per connection and hands it to its
:class:`~anvia_nb.core.transport.session.SessionOpener`; the SDK border
(:mod:`anvia_nb.core.transport.sdk.connect`) turns it into the SDK's callbacks. Plain data and
callables only: no SDK here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.protocol.sampling import SamplingHandler
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.errors import AnviaError

__all__ = ["ElicitationHandler", "LogHandler", "NotificationHandler", "SamplingState", "SessionHandlers"]

ElicitationHandler = Callable[[JsonObject], Awaitable[JsonObject]]
"""Takes ``{"message", "mode", "requestedSchema" | "url", "server"}``, returns ``{"action", "content"}``."""
LogHandler = Callable[[str, str | None, Any], None]
"""``log(level, logger, data)``: one ``notifications/message`` (or a note of the client's own)."""
NotificationHandler = Callable[[str], None]


class SamplingState:
    """A session's own sampling handler and how many requests it declined."""

    def __init__(self) -> None:
        self.handler: SamplingHandler | None = None
        self.declined = 0


@dataclass
class SessionHandlers:
    """Callbacks a session calls for what the server sends on its own initiative."""

    elicitation: ElicitationHandler | None = None
    log: LogHandler | None = None
    note: Callable[[str, str], None] | None = None
    """``note(level, text)``: a note of anvia_nb's own in the connection's log."""
    notification: NotificationHandler | None = None
    resource_updated: Callable[[str], None] | None = None
    """``resource_updated(uri)`` for each ``notifications/resources/updated`` (core/subscriptions.py)."""
    unanswered_elicitations: int = 0
    log_level: str | None = None
    """The least severe ``notifications/message`` level asked of the server, or ``None``."""
    roots: tuple[str, ...] = ()
    """Absolute paths offered to the server as roots (none: the roots capability is not declared)."""
    sampling: SamplingState = field(default_factory=SamplingState)
    trace: ProtocolTrace | None = None
    """Where the JSON-RPC messages of a stdio or HTTP connection are recorded (``%mcp trace``)."""
    server_exit_status: int | None = None
    """A stdio server's exit status once its process ended (negative: the signal that ended it)."""
    credential: Callable[[str], None] | None = None
    """Called with the ``Authorization`` value each HTTP request carries (an OAuth token, a refreshed
    one): a secret from then on, before any answer can echo it."""
    secrets: list[Callable[[Iterable[str]], None]] = field(default_factory=list)
    """Told every secret the connection knows each time it learns more (a recording masks them too)."""
    explained: Callable[[AnviaError], AnviaError] | None = None
    """How the client explains an error as its caller hears it (a server's last stderr lines, an
    OAuth failure: :meth:`~anvia_nb.core.transport.client.McpClient.explained`); a recording
    writes a call's error so."""
    closed: list[Callable[[], None]] = field(default_factory=list)
    """Told once the client is done with its session: closed (opened or never), or its connect
    failed or was cancelled, even before the session began to open (a recording ends its file)."""

    def client_closed(self) -> None:
        """Tell each of :attr:`closed` once."""
        while self.closed:
            self.closed.pop(0)()
