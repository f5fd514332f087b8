"""``Listeners``: the functions a session tells of one kind of news, ``listener(server_name, what)``.

Each is called on the session's loop and guarded: a widget's trouble is logged and never breaks
the session. ``add`` returns the function that stops one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

__all__ = ["Listener", "Listeners"]

Listener = Callable[[str, str], None]
"""``listener(server_name, what)``, on the session's loop; must not block."""


class Listeners:
    """The listeners of one kind of news (``kind`` names it in the log when one fails)."""

    def __init__(self, kind: str, logger: logging.Logger) -> None:
        self._kind = kind
        self._logger = logger
        self._listeners: list[Listener] = []

    def add(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(server_name, what)`` after each piece of news; returns the function that stops it."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def tell(self, server: str, what: str) -> None:
        for listener in list(self._listeners):
            try:
                listener(server, what)
            except Exception:  # a widget's trouble must never break the session
                self._logger.exception("a %s listener failed for %r", self._kind, server)
