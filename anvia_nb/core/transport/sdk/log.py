"""The SDK's own log records go to the log of the connection they concern, never to a cell.

The SDK logs every message it cannot validate with a traceback quoting the server's data; left
unconfigured, Python prints those to stderr, which in a notebook is the running cell: a server
could flood it and make it quote secrets. Here the ``mcp`` logger keeps its records to itself
(``propagate = False``) and hands each one, as one bounded line without traceback, to the
:class:`~anvia_nb.core.exchange.logs.ServerLog` of the connection whose task logged it (a context variable
set by the connection's owner task), where it is masked with that connection's secrets and
counted. A record outside any connection is only counted.
"""

from __future__ import annotations

import contextvars
import logging
import os
import threading

import mcp

from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.protocol import limits

__all__ = ["current_log", "install", "unattributed_records"]

_LOGGERS = ("mcp", "mcp_types")
_SHARED_LOGGER = "client"
_SDK_DIRECTORY = os.path.dirname(mcp.__file__) + os.sep

current_log: contextvars.ContextVar[ServerLog | None] = contextvars.ContextVar("anvia_nb_server_log", default=None)
"""The log of the connection the running task belongs to."""

_installed = False
_lock = threading.Lock()
_unattributed = 0


def unattributed_records() -> int:
    """SDK records logged outside any connection (kept nowhere, only counted)."""
    return _unattributed


def _route(record: logging.LogRecord) -> None:
    global _unattributed
    log = current_log.get()
    if log is None:
        _unattributed += 1
        return
    try:
        text = record.getMessage()
    except Exception:  # a bad format string must not break logging
        text = str(record.msg)
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        text = f"{text}: {type(error).__name__}: {' '.join(str(error).split())}"
    log.add_sdk(record.levelname.lower(), record.name, text[: limits.LOG_RECORD_CHARS * 4])


class _ToConnectionLog(logging.Handler):
    """On the SDK's own loggers (``mcp...``), which no longer propagate."""

    def emit(self, record: logging.LogRecord) -> None:
        _route(record)


class _SdkRecordsOnly(logging.Filter):
    """On a logger the SDK shares with others (it logs as ``client``): takes the SDK's records
    away to their connection's log and lets everyone else's through."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.pathname.startswith(_SDK_DIRECTORY):
            return True
        _route(record)
        return False


def install() -> None:
    """Route the SDK's loggers once per process; warnings and up only, unless someone asked for more."""
    global _installed
    with _lock:
        if _installed:
            return
        for name in _LOGGERS:
            logger = logging.getLogger(name)
            logger.addHandler(_ToConnectionLog())
            logger.propagate = False
            if logger.level == logging.NOTSET:
                logger.setLevel(logging.WARNING)
        logging.getLogger(_SHARED_LOGGER).addFilter(_SdkRecordsOnly())
        _installed = True
