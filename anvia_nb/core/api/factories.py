"""The ``mcp`` object that makes connections: ``mcp.stdio(...)``, ``mcp.http(...)``,
``mcp.replay(...)``, ``mcp.memory(...)``, and the OAuth settings an HTTP connection takes
(``mcp.oauth(...)`` and the grants with no person). Every argument is checked when the connection
is made, so a bad one is a one-line error before anything starts.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from anvia_nb.core.api.connections import HttpConnection, StdioConnection
from anvia_nb.core.api.memory import MemoryConnection
from anvia_nb.core.protocol.roots import root_paths
from anvia_nb.core.protocol.versions import check_protocol
from anvia_nb.core.recording.replay import ReplayConnection
from anvia_nb.core.transport.http.launch import HttpAuth
from anvia_nb.core.transport.oauth.machine import client_credentials, identity_assertion, workload_identity
from anvia_nb.core.transport.oauth.settings import OAuth, forget_tokens, oauth
from anvia_nb.errors import InvalidTypeError, InvalidValueError

__all__ = ["mcp"]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidValueError(
            f"Connection name {name!r} is not usable: use letters, digits, '_' or '-', starting with a letter."
        )
    return name


def _in_flight(value: int | None) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise InvalidValueError(f"max_calls_in_flight must be a whole number of at least 1 (or None), not {value!r}.")
    return value


class _Factories:
    """The ``mcp`` object: ``mcp.stdio(...)``, ``mcp.http(...)`` and ``mcp.oauth(...)``."""

    @staticmethod
    def stdio(
        *,
        name: str,
        command: str,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        secret_env: Iterable[str] = (),
        keep_log: bool = False,
        roots: Iterable[str | os.PathLike[str]] | None = None,
        record: str | os.PathLike[str] | None = None,
        max_calls_in_flight: int | None = None,
        protocol: str | None = None,
        from_environ: Mapping[str, str] | None = None,
    ) -> StdioConnection:
        """A lazy stdio connection. ``command="python"`` runs this kernel's own Python.

        ``env`` is added to a minimal inherited environment (PATH, HOME...), as the SDK does, so
        the kernel's own secrets do not leak into servers. Values of names containing TOKEN, KEY,
        SECRET, PASS, AUTH or CREDENTIAL, or listed in ``secret_env``, are masked wherever shown.
        The server's stderr goes to a file that is removed when the connection is closed and at
        exit; ``keep_log=True`` keeps it (its path is ``server.client.log.stderr_path``).
        ``roots`` are directories offered to the server (``roots/list``); each must exist.
        ``record=PATH`` writes what the connection exchanges to a JSON Lines file, secrets masked,
        which ``mcp.replay`` answers from.
        ``max_calls_in_flight`` bounds the calls sent at once (default 16).
        ``protocol``: ``None`` (``server/discover``, then the ``initialize`` handshake if refused),
        the string 2025-11-25 (the handshake only; the server may answer an older version) or
        2026-07-28 (discover only): :data:`~anvia_nb.core.protocol.versions.PROTOCOLS`.
        ``from_environ``: the kernel's variables (name: value) the settings took values from: secrets.
        """
        protocol = check_protocol(protocol)
        if isinstance(args, str):
            raise InvalidTypeError("args must be a list of strings, not one string; split it with shlex.split().")
        return StdioConnection(
            name=_check_name(name),
            command=command,
            args=tuple(str(a) for a in args),
            env=dict(env or {}),
            cwd=os.fspath(cwd) if cwd is not None else None,
            secret_env=frozenset(secret_env),
            keep_log=bool(keep_log),
            roots=root_paths(roots),
            record=os.fspath(record) if record is not None else None,
            max_calls_in_flight=_in_flight(max_calls_in_flight),
            protocol=protocol,
            from_environ=dict(from_environ or {}),
        )

    @staticmethod
    def http(
        *,
        name: str,
        url: str,
        headers: Mapping[str, str] | None = None,
        timeout_seconds: float | None = 30.0,
        auth: OAuth | HttpAuth | None = None,
        roots: Iterable[str | os.PathLike[str]] | None = None,
        record: str | os.PathLike[str] | None = None,
        max_calls_in_flight: int | None = None,
        protocol: str | None = None,
        from_environ: Mapping[str, str] | None = None,
    ) -> HttpConnection:
        """A lazy streamable-HTTP connection; credential headers and URL secrets are masked wherever shown.

        ``timeout_seconds`` bounds connecting and sending (``None``: no limit); how long an answer
        may take is each call's own timeout. ``roots``, ``record=PATH``, ``max_calls_in_flight`` and
        ``protocol`` and ``from_environ`` as for :meth:`stdio`.
        """
        protocol = check_protocol(protocol)
        scheme = urlsplit(str(url)).scheme
        if scheme not in ("http", "https"):
            raise InvalidValueError(f"url must start with http:// or https://, got {str(url)[:80]!r}.")
        return HttpConnection(
            name=_check_name(name),
            url=str(url),
            headers=dict(headers or {}),
            timeout_seconds=timeout_seconds,
            auth=auth,
            roots=root_paths(roots),
            record=os.fspath(record) if record is not None else None,
            max_calls_in_flight=_in_flight(max_calls_in_flight),
            protocol=protocol,
            from_environ=dict(from_environ or {}),
        )

    oauth = staticmethod(oauth)
    client_credentials = staticmethod(client_credentials)
    identity_assertion = staticmethod(identity_assertion)
    workload_identity = staticmethod(workload_identity)

    @staticmethod
    def oauth_logout(connection: HttpConnection) -> bool:
        """Forget the OAuth tokens cached for this connection's server and client; whether there were any."""
        settings = connection.auth if isinstance(connection.auth, OAuth) else OAuth()
        return forget_tokens(connection.url, settings.client_id, token_dir=settings.token_dir)

    @staticmethod
    def replay(*, name: str, path: str | os.PathLike[str]) -> ReplayConnection:
        """A connection answered from a recording made with ``record=``: no server is started, no
        socket opened; a call that was not recorded raises :class:`~anvia_nb.errors.UnrecordedCallError`."""
        return ReplayConnection(name=_check_name(name), path=os.fspath(path))

    @staticmethod
    def memory(
        *, name: str, server: Any, max_calls_in_flight: int | None = None, protocol: str | None = None
    ) -> MemoryConnection:
        """A connection to an SDK server object in this process (fast tests, teaching); ``protocol``
        as for :meth:`stdio` (show a class both generations of the handshake without a process)."""
        protocol = check_protocol(protocol)
        return MemoryConnection(
            name=_check_name(name), server=server, max_calls_in_flight=_in_flight(max_calls_in_flight),
            protocol=protocol,
        )


mcp = _Factories()
