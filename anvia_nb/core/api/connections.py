"""Lazy connection objects: ``mcp.stdio(...)`` and ``mcp.http(...)``.

Creating one starts nothing; ``await connection.connect()`` starts the process or opens the
socket. Each connection also knows its *secrets*, so every display of it (its ``repr`` too) can
mask them: core only discovers the secrets, masking is :class:`anvia_nb.policy.ShowPolicy`'s.

What counts as a secret is decided in one place, :mod:`anvia_nb.core.api.secrets`.
"""

from __future__ import annotations

import os
import re
import shlex
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal
from urllib.parse import urlsplit

from anvia_nb.core.api.memory import MemoryConnection
from anvia_nb.core.api.portable import reduce_connection
from anvia_nb.core.api.secrets import (
    Named,
    arg_secrets,
    environ_secrets,
    header_secrets,
    is_secret_header,
    is_secret_name,
    secret_values,
    token_secrets,
    unmasked_places,
    url_secrets,
)
from anvia_nb.core.exchange.logs import ServerLog
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.protocol.roots import root_paths
from anvia_nb.core.protocol.versions import check_protocol
from anvia_nb.core.recording.recorder import Recorder
from anvia_nb.core.recording.replay import RecordingClient, ReplayConnection
from anvia_nb.core.transport.client import McpClient
from anvia_nb.core.transport.oauth import OAuth, forget_tokens, oauth
from anvia_nb.core.transport.oauth_machine import client_credentials, identity_assertion, workload_identity
from anvia_nb.core.transport.sdk import HttpLaunch
from anvia_nb.core.transport.stdio import StdioLaunch
from anvia_nb.errors import InvalidTypeError, InvalidValueError
from anvia_nb.policy import ShowPolicy

__all__ = [
    "HttpConnection",
    "McpConnection",
    "MemoryConnection",
    "ReplayConnection",
    "ServerConnection",
    "StdioConnection",
    "connect_timeout",
    "is_secret_header",
    "is_secret_name",
    "mcp",
    "url_secrets",
]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidValueError(
            f"Connection name {name!r} is not usable: use letters, digits, '_' or '-', starting with a letter."
        )
    return name


def _masked(text: str, secrets: Iterable[str]) -> str:
    return ShowPolicy().with_secrets(secrets).mask(text)


def connect_timeout(connection: object, timeout_seconds: Timeout) -> float | None:
    """How long connecting may take: ``timeout_seconds``, or by default the connection's own
    (``mcp.http``'s ``timeout_seconds``), else :data:`~anvia_nb.core.protocol.limits.DEFAULT_CONNECT_TIMEOUT_SECONDS`;
    ``None``: no limit."""
    own = getattr(connection, "timeout_seconds", None)
    default = own if isinstance(own, int | float) else limits.DEFAULT_CONNECT_TIMEOUT_SECONDS
    return limits.timeout_or_default(timeout_seconds, default)


_SHARED = ("roots", "record", "max_calls_in_flight", "protocol", "from_environ")
"""The fields of :class:`ServerConnection`, shown after a connection's own and before its transport."""


@dataclass(frozen=True, repr=False, kw_only=True)
class ServerConnection(ABC):
    """What a stdio and an HTTP connection share: the settings below, secrets found in their own
    settings (masked in the ``repr``, never pickled), and a client that records when asked."""

    name: str
    roots: tuple[str, ...] = ()
    """Absolute paths offered to the server as roots (``roots/list``)."""
    record: str | None = None
    """Write what the connection exchanges to this JSON Lines file (see :mod:`anvia_nb.core.recording.recorder`)."""
    max_calls_in_flight: int | None = None
    """Calls sent at once on the session (``None``: ``limits.DEFAULT_MAX_CALLS_IN_FLIGHT``)."""
    protocol: str | None = None
    """The protocol generation to speak (:mod:`anvia_nb.core.protocol.versions`; ``None``: discover, then fall back)."""
    from_environ: Mapping[str, str] = field(default_factory=dict)
    """The kernel's environment variables the settings took values from: secrets, read by name elsewhere."""

    @property
    @abstractmethod
    def transport(self) -> str: ...

    @abstractmethod
    def own_secrets(self) -> Named:
        """Each secret found by the rules of this kind of connection, with where it was found."""

    @abstractmethod
    def texts(self) -> tuple[tuple[str, str], ...]:
        """Every text of the settings, with its place (searched for credential formats)."""

    def named_secrets(self) -> Named:
        """Each secret with where it was found: own rules, environment values, credential formats."""
        found = [*self.own_secrets(), *environ_secrets(self.from_environ)]
        for where, text in self.texts():
            found.extend(token_secrets(text, where))
        return tuple(found)

    @abstractmethod
    def target(self) -> str:
        """What it connects to, as shown to people, secrets masked."""

    @abstractmethod
    def client(self, *, log_level: str | None = None) -> McpClient:
        """A client for this connection, not yet open."""

    def secrets(self) -> tuple[str, ...]:
        return secret_values(self.named_secrets())

    def unmasked(self) -> tuple[str, ...]:
        """Where a secret was found whose value is too short to mask (it is shown as is)."""
        return unmasked_places(self.named_secrets())

    def __repr__(self) -> str:
        ordered = sorted(fields(self), key=lambda f: (f.name in _SHARED) + 2 * (f.name == "transport"))
        values = {f.name: getattr(self, f.name) for f in ordered} | {"from_environ": tuple(self.from_environ)}
        shown = ", ".join(f"{name}={value!r}" for name, value in values.items())
        return _masked(f"{type(self).__name__}({shown})", self.secrets())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled without secret values (see :mod:`anvia_nb.core.api.portable`), or refused."""
        return reduce_connection(self)

    def _client(self, launch: StdioLaunch | HttpLaunch, log: ServerLog, log_level: str | None) -> McpClient:
        """A plain client, or one that records to ``record`` (secrets masked in the file)."""
        settings: dict[str, Any] = {
            "log": log, "log_level": log_level, "roots": self.roots, "max_calls_in_flight": self.max_calls_in_flight,
        }  # fmt: skip
        if self.record is None:
            return McpClient(self.name, launch, **settings)
        recorder = Recorder(
            self.record, name=self.name, transport=self.transport, target=self.target(), secrets=self.secrets()
        )
        return RecordingClient(self.name, launch, recorder=recorder, **settings)

    async def connect(self, *, timeout_seconds: Timeout = limits.DEFAULT, log_level: str | None = None) -> McpClient:
        """Start the server or open the session, and handshake (by default within
        :func:`connect_timeout`); raises :class:`~anvia_nb.errors.ConnectError`."""
        return await self.client(log_level=log_level).open(connect_timeout(self, timeout_seconds))


@dataclass(frozen=True, repr=False)
class StdioConnection(ServerConnection):
    """A server started as a child process, speaking MCP on its stdin and stdout."""

    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    secret_env: frozenset[str] = frozenset()
    keep_log: bool = False
    """Keep the server's stderr file after the connection is closed and at exit."""
    transport: Literal["stdio"] = "stdio"

    def own_secrets(self) -> Named:
        """Each secret with where it was found (an env name, an option, an argument's URL)."""
        found: list[tuple[str, str]] = []
        for key, value in self.env.items():
            if value and (is_secret_name(key) or key in self.secret_env):
                found.append((f"env {key}", value))
            found.extend(url_secrets(value, f"env {key}"))
        found.extend(url_secrets(self.command, "command"))
        return (*found, *arg_secrets(self.args))

    def texts(self) -> tuple[tuple[str, str], ...]:
        args, env = enumerate(self.args), self.env.items()
        return (("command", self.command), *((f"argument {i}", a) for i, a in args), *((f"env {k}", v) for k, v in env))

    def target(self) -> str:
        """The command line as shown to people, secrets masked."""
        return _masked(shlex.join([self.command, *self.args]), self.secrets())

    def launch(self, stderr_path: str | None = None) -> StdioLaunch:
        return StdioLaunch(
            command=self.command,
            args=self.args,
            env=dict(self.env),
            cwd=self.cwd,
            stderr_path=stderr_path,
            protocol=self.protocol,
        )

    def client(self, *, log_level: str | None = None) -> McpClient:
        """A client for this connection, not yet open; its stderr goes to a new log file."""
        log = ServerLog(self.name, transport="stdio", secrets=self.secrets(), stderr=True, keep=self.keep_log)
        return self._client(self.launch(log.stderr_path), log, log_level)


@dataclass(frozen=True, repr=False)
class HttpConnection(ServerConnection):
    """A server reached over streamable HTTP."""

    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_seconds: float | None = 30.0
    auth: Any = None
    """``mcp.oauth(...)`` (:mod:`anvia_nb.core.transport.oauth`), or any ``httpx2.Auth``, used as given."""
    transport: Literal["http"] = "http"

    def own_secrets(self) -> Named:
        """Each secret with where it was found (a header, the URL's user name or a query value, an
        OAuth token cached for this server: read again each time, so a refreshed one is masked too)."""
        tokens = self.auth.secrets(self.url) if isinstance(self.auth, OAuth) else ()
        return (
            *header_secrets(self.headers),
            *url_secrets(self.url, "the"),
            *(("OAuth token", token) for token in tokens),
        )

    def texts(self) -> tuple[tuple[str, str], ...]:
        return (("the URL", self.url), *((f"header {key}", value) for key, value in self.headers.items()))

    def target(self) -> str:
        return _masked(self.url, self.secrets())

    def launch(self) -> HttpLaunch:
        auth = self.auth.provider(self.name, self.url) if isinstance(self.auth, OAuth) else self.auth
        return HttpLaunch(
            url=self.url, headers=dict(self.headers), timeout_seconds=self.timeout_seconds, auth=auth,
            protocol=self.protocol,
        )  # fmt: skip

    def client(self, *, log_level: str | None = None) -> McpClient:
        """A client for this connection, not yet open."""
        log = ServerLog(self.name, transport="http", secrets=self.secrets())
        return self._client(self.launch(), log, log_level)

    async def connect(self, *, timeout_seconds: Timeout = limits.DEFAULT, log_level: str | None = None) -> McpClient:
        """Open the HTTP session and handshake (by default within :func:`connect_timeout`); raises
        :class:`~anvia_nb.errors.ConnectError`.

        With OAuth, the person's time to authorize (``wait_seconds``) is added to the timeout."""
        timeout = connect_timeout(self, timeout_seconds)
        if not isinstance(self.auth, OAuth):
            return await self.client(log_level=log_level).open(timeout)
        if timeout is not None:
            timeout += self.auth.wait_seconds
        client = await self.client(log_level=log_level).open(timeout)
        client.add_secrets(self.secrets())  # the tokens came during the connect: log, trace, recording mask them
        return client


McpConnection = StdioConnection | HttpConnection | MemoryConnection | ReplayConnection


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
        auth: Any = None,
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
