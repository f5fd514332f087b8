"""Why a connection failed or ended, said where it is heard: in the error of a connect or a call
on it, and not again when it is closed.

- A stdio server's last stderr lines are added to a failed connect and to "connection closed".
- Every error of the chain (its cause, its context, the errors of a group) is masked with the
  connection's secrets, whatever encoding the secret took in it (a token endpoint that echoes the
  form with ``client_secret=`` or the ``Basic`` header it was sent): a traceback shows none.
- An OAuth authorization that failed while the connection was open (a token that could not be
  refreshed, a new login nobody could give, a step-up) kills the SDK's HTTP transport, whose calls
  then hear only "connection closed": that authorization's error (the opener's
  :meth:`~anvia_nb.core.transport.session.SessionOpener.auth_failure`) is what they raise instead,
  and closing does not report it again.
"""

from __future__ import annotations

import sys

from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.errors import AnviaError, ConnectError, ConnectionClosedError
from anvia_nb.policy import ShowPolicy

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

__all__ = ["explained", "masked_chain", "quiet_at_close"]


def explained(error: AnviaError, log: ServerLog, failure: AnviaError | None) -> AnviaError:
    """``error`` as it should be heard: the OAuth ``failure`` for a connection it closed, and with
    the server's last stderr lines (connecting, or a server that went away); a
    :class:`ConnectError` also gets the connection's ``log``, so it can still be read. The error
    and its whole chain are masked with the connection's secrets (:func:`masked_chain`)."""
    explained_error = _explained(error, log, failure)
    masked_chain(explained_error, log.policy)
    return explained_error


def masked_chain(error: BaseException, policy: ShowPolicy) -> None:
    """Mask, in place, the text of ``error`` and of every error it carries (``__cause__``,
    ``__context__``, a group's errors): its arguments, notes and text attributes (a message, a
    server's text, a stderr tail), so neither ``str`` nor a traceback shows a secret.

    Parameters
    ----------
    error : BaseException
        The error to be raised.
    policy : ShowPolicy
        The connection's policy, which knows its secrets.
    """
    if not policy.secrets:
        return
    seen: set[int] = set()
    waiting: list[BaseException | None] = [error]
    while waiting:  # each error once: a chain that loops ends
        current = waiting.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        _mask_one(current, policy)
        waiting += [current.__cause__, current.__context__]
        if isinstance(current, BaseExceptionGroup):
            waiting += current.exceptions


def _mask_one(error: BaseException, policy: ShowPolicy) -> None:
    error.args = tuple(policy.mask(arg) if isinstance(arg, str) else arg for arg in error.args)
    notes = getattr(error, "__notes__", None)
    if isinstance(notes, list):
        notes[:] = [policy.mask(note) if isinstance(note, str) else note for note in notes]
    for name, value in list(getattr(error, "__dict__", {}).items()):
        if isinstance(value, str) and name != "__notes__":
            try:
                setattr(error, name, policy.mask(value))
            except AttributeError:  # a read-only property's backing value: its args carry the text
                continue


def _explained(error: AnviaError, log: ServerLog, failure: AnviaError | None) -> AnviaError:
    if isinstance(error, ConnectionClosedError) and failure is not None:
        error = failure
    if isinstance(error, ConnectError):
        if error.log is not None:
            return error
        error.log = log
    elif not isinstance(error, ConnectionClosedError) or error.stderr:
        return error
    tail = log.stderr_tail()
    if tail:
        error.stderr = tail
        lines = "\n".join(f"  {line}" for line in tail.splitlines())
        error.args = (f"{error.args[0] if error.args else error}\nThe server's stderr ends with:\n{lines}",)
    return error


def quiet_at_close(error: BaseException, failure: AnviaError | None) -> bool:
    """Whether closing should not report ``error``: it only says the server was already gone, or it
    is (each error of its group is) the OAuth ``failure`` that calls were told of."""
    if isinstance(error, ConnectionClosedError | EOFError | BrokenPipeError | ConnectionResetError):
        return True
    return failure is not None and _only(error, failure)


def _only(error: BaseException, failure: AnviaError) -> bool:
    if isinstance(error, BaseExceptionGroup):
        return all(_only(inner, failure) for inner in error.exceptions)
    return error is failure
