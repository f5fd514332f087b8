"""Lazy connection objects, made by ``mcp.stdio(...)`` and ``mcp.http(...)`` (:mod:`.factories`).

Creating one starts nothing; ``await connection.connect()`` starts the process or opens the
socket. Each connection also knows its *secrets*, so every display of it (its ``repr`` too) can
mask them: core only discovers the secrets, masking is :class:`anvia_nb.policy.ShowPolicy`'s.

What counts as a secret is decided in one place, :mod:`anvia_nb.core.api.secrets`.
"""

from __future__ import annotations

import shlex
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

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
from anvia_nb.core.recording.recorder import Recorder
from anvia_nb.core.recording.recording_session import RecordingOpener
from anvia_nb.core.recording.replay import ReplayConnection
from anvia_nb.core.transport.client import McpClient
from anvia_nb.core.transport.http.launch import HttpAuth, HttpLaunch
from anvia_nb.core.transport.oauth.settings import OAuth
from anvia_nb.core.transport.session import SessionOpener
from anvia_nb.core.transport.stdio.transport import StdioLaunch
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
    "url_secrets",
]


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
    settings (masked in the ``repr``, never pickled), and a client that records when asked.

    Attributes
    ----------
    name : str
        The connection's name, as ``%mcp`` shows it.
    roots : tuple of str
        Absolute paths offered to the server as roots (``roots/list``).
    record : str or None
        The JSON Lines file what it exchanges is written to (``None``: not recorded).
    max_calls_in_flight : int or None
        Calls sent at once (``None``: the default, 16).
    protocol : str or None
        The protocol generation to speak (``None``: discover, then fall back).
    from_environ : mapping of str to str
        The kernel's variables the settings took values from (secrets).
    """

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
        """Each secret found by the rules of this kind of connection, with where it was found: for
        stdio an env name, an option or an argument's URL; for HTTP a header, the URL's user name or
        a query value, an OAuth token cached for this server (read again each time, so a refreshed one
        is masked too).

        Returns
        -------
        tuple of (where, value) pairs
        """

    @abstractmethod
    def texts(self) -> tuple[tuple[str, str], ...]:
        """Every text of the settings, with its place (searched for credential formats).

        Returns
        -------
        tuple of (where, value) pairs
        """

    def named_secrets(self) -> Named:
        """Each secret with where it was found: own rules, environment values, credential formats.

        Returns
        -------
        tuple of (where, value) pairs
        """
        found = [*self.own_secrets(), *environ_secrets(self.from_environ)]
        for where, text in self.texts():
            found.extend(token_secrets(text, where))
        return tuple(found)

    @abstractmethod
    def target(self) -> str:
        """What it connects to as shown to people (the command line, the URL), secrets masked.

        Returns
        -------
        str
        """

    @abstractmethod
    def client(self, *, log_level: str | None = None) -> McpClient:
        """A client for this connection, not yet open (over stdio, its stderr goes to a new log file).

        Parameters
        ----------
        log_level : str, optional
            Ask the server for its log messages from that level up (``None``: do not ask).

        Returns
        -------
        McpClient
        """

    def secrets(self) -> tuple[str, ...]:
        """The secret values of its settings, masked wherever the connection is shown.

        Returns
        -------
        tuple of str
        """
        return secret_values(self.named_secrets())

    def unmasked(self) -> tuple[str, ...]:
        """Where a secret was found whose value is too short to mask (it is shown as is).

        Returns
        -------
        tuple of str
        """
        return unmasked_places(self.named_secrets())

    def __repr__(self) -> str:
        ordered = sorted(fields(self), key=lambda f: (f.name in _SHARED) + 2 * (f.name == "transport"))
        values = {f.name: getattr(self, f.name) for f in ordered} | {"from_environ": tuple(self.from_environ)}
        shown = ", ".join(f"{name}={value!r}" for name, value in values.items())
        return _masked(f"{type(self).__name__}({shown})", self.secrets())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled without secret values (see :mod:`anvia_nb.core.api.portable`), or refused."""
        return reduce_connection(self)

    def _client(self, launch: SessionOpener, log: ServerLog, log_level: str | None) -> McpClient:
        """A client opening ``launch``'s session, recorded to ``record`` when asked (secrets masked
        in the file: :class:`~anvia_nb.core.recording.recording_session.RecordingOpener`)."""
        opener, recorder = launch, None
        if self.record is not None:
            recorder = Recorder(
                self.record, name=self.name, transport=self.transport, target=self.target(), secrets=self.secrets()
            )
            opener = RecordingOpener(launch, recorder)
        client = McpClient(
            self.name,
            opener,
            log=log,
            log_level=log_level,
            roots=self.roots,
            max_calls_in_flight=self.max_calls_in_flight,
        )
        if recorder is not None:  # a client closed before it opened leaves no stub file either
            client.on_close(recorder.finish)
        return client

    async def connect(self, *, timeout_seconds: Timeout = limits.DEFAULT, log_level: str | None = None) -> McpClient:
        """Start the server or open the session, and handshake; with OAuth, the person's time to
        authorize (``wait_seconds``) is added to the timeout.

        Parameters
        ----------
        timeout_seconds : float or None, optional
            Seconds it may take (default: ``timeout_seconds`` of ``mcp.http``, else 30 s); ``None``: no limit.
        log_level : str, optional
            Ask the server for its log messages from that level up (``None``: do not ask).

        Returns
        -------
        McpClient
            The open client (``connect_mcp`` adapts it as an ``McpServer``).

        Raises
        ------
        ConnectError
            Starting, connecting or the handshake failed or took too long.
        """
        return await self.client(log_level=log_level).open(connect_timeout(self, timeout_seconds))


@dataclass(frozen=True, repr=False)
class StdioConnection(ServerConnection):
    """A server started as a child process, speaking MCP on its stdin and stdout.

    Made by ``mcp.stdio(...)``, which checks every setting; frozen, its secrets masked in its ``repr``.

    Attributes
    ----------
    command : str
        The program run.
    args : tuple of str
        Its arguments.
    env : mapping of str to str
        Variables added to the minimal inherited environment.
    cwd : str or None
        Its working directory (``None``: the kernel's).
    secret_env : frozenset of str
        Names in ``env`` whose values are masked.
    keep_log : bool
        Keep the server's stderr file after the connection is closed and at exit.
    transport : str
        ``"stdio"``.

    The settings every connection has (``name``, ``roots``, ``record``, ``max_calls_in_flight``,
    ``protocol``, ``from_environ``) are the ``Attributes`` of ``ServerConnection``.
    """

    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    secret_env: frozenset[str] = frozenset()
    keep_log: bool = False
    """Keep the server's stderr file after the connection is closed and at exit."""
    transport: Literal["stdio"] = "stdio"

    def own_secrets(self) -> Named:
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
        return _masked(shlex.join([self.command, *self.args]), self.secrets())

    def launch(self, stderr_path: str | None = None) -> StdioLaunch:
        """What starts the server process (the ``SessionOpener`` its client opens).

        Parameters
        ----------
        stderr_path : str, optional
            The file its stderr goes to (``None``: discarded).

        Returns
        -------
        StdioLaunch
        """
        return StdioLaunch(
            command=self.command,
            args=self.args,
            env=dict(self.env),
            cwd=self.cwd,
            stderr_path=stderr_path,
            protocol=self.protocol,
        )

    def client(self, *, log_level: str | None = None) -> McpClient:
        log = ServerLog(self.name, transport="stdio", secrets=self.secrets(), stderr=True, keep=self.keep_log)
        return self._client(self.launch(log.stderr_path), log, log_level)


@dataclass(frozen=True, repr=False)
class HttpConnection(ServerConnection):
    """A server reached over streamable HTTP.

    Made by ``mcp.http(...)``, which checks every setting; frozen, its secrets masked in its ``repr``.

    Attributes
    ----------
    url : str
        The server's MCP endpoint.
    headers : mapping of str to str
        Sent with every request.
    timeout_seconds : float or None
        Seconds connecting and each send may take (``None``: no limit).
    auth : OAuth or httpx2.Auth or None
        ``mcp.oauth(...)`` or a grant with no person, or any ``httpx2.Auth``, used as given.
    transport : str
        ``"http"``.

    The settings every connection has are the ``Attributes`` of ``ServerConnection``.
    """

    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_seconds: float | None = 30.0
    auth: OAuth | HttpAuth | None = None
    """``mcp.oauth(...)`` (:mod:`anvia_nb.core.transport.oauth.settings`), or any ``httpx2.Auth``, used as given."""
    transport: Literal["http"] = "http"

    def own_secrets(self) -> Named:
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
        """What opens the HTTP session (the ``SessionOpener`` its client opens), OAuth made a provider.

        Returns
        -------
        HttpLaunch
        """
        auth = self.auth
        if isinstance(auth, OAuth):
            from anvia_nb.core.transport.oauth.provider import oauth_provider  # PyJWT, cryptography: when used

            auth = oauth_provider(auth, self.name, self.url)
        return HttpLaunch(
            url=self.url,
            headers=dict(self.headers),
            timeout_seconds=self.timeout_seconds,
            auth=auth,
            protocol=self.protocol,
        )

    def client(self, *, log_level: str | None = None) -> McpClient:
        log = ServerLog(self.name, transport="http", secrets=self.secrets())
        return self._client(self.launch(), log, log_level)

    async def connect(self, *, timeout_seconds: Timeout = limits.DEFAULT, log_level: str | None = None) -> McpClient:
        timeout = connect_timeout(self, timeout_seconds)
        if not isinstance(self.auth, OAuth):
            return await self.client(log_level=log_level).open(timeout)
        if timeout is not None:
            timeout += self.auth.wait_seconds
        client = await self.client(log_level=log_level).open(timeout)
        client.add_secrets(self.secrets())  # the tokens came during the connect: log, trace, recording mask them
        return client


McpConnection = StdioConnection | HttpConnection | MemoryConnection | ReplayConnection
