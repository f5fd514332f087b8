"""Lazy connection objects: ``mcp.stdio(...)`` and ``mcp.http(...)`` (seed 001).

Creating one starts nothing; ``await connection.connect()`` starts the process or opens the
socket. Each connection also knows its *secrets* (header values, a URL's password or secret
query values, env values whose names mark them) so every display of it can mask them: core only
discovers the secrets, masking is :class:`anvia_nb.policy.ShowPolicy`'s.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qsl, urlsplit

from anvia_nb.core._sdk import HttpLaunch, MemoryLaunch
from anvia_nb.core._stdio import StdioLaunch
from anvia_nb.core.client import McpClient
from anvia_nb.core.logs import ServerLog
from anvia_nb.errors import InvalidTypeError, InvalidValueError
from anvia_nb.policy import ShowPolicy

__all__ = ["HttpConnection", "McpConnection", "MemoryConnection", "StdioConnection", "is_secret_name", "mcp"]

_SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASS|AUTH|CREDENTIAL", re.IGNORECASE)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


def is_secret_name(name: str) -> bool:
    """Whether an env or query name marks its value as a secret (TOKEN, KEY, SECRET, PASS...)."""
    return bool(_SECRET_NAME.search(name))


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidValueError(
            f"Connection name {name!r} is not usable: use letters, digits, '_' or '-', starting with a letter."
        )
    return name


def _masked(text: str, secrets: Iterable[str]) -> str:
    return ShowPolicy().with_secrets(secrets).mask(text)


@dataclass(frozen=True)
class StdioConnection:
    """A server started as a child process, speaking MCP on its stdin and stdout."""

    name: str
    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    secret_env: frozenset[str] = frozenset()
    keep_log: bool = False
    """Keep the server's stderr file after the connection is closed and at exit."""
    transport: Literal["stdio"] = "stdio"

    def secrets(self) -> tuple[str, ...]:
        return tuple(v for k, v in self.env.items() if v and (is_secret_name(k) or k in self.secret_env))

    def target(self) -> str:
        """The command line as shown to people, secrets masked."""
        return _masked(shlex.join([self.command, *self.args]), self.secrets())

    def launch(self, stderr_path: str | None = None) -> StdioLaunch:
        return StdioLaunch(
            command=self.command, args=self.args, env=dict(self.env), cwd=self.cwd, stderr_path=stderr_path
        )

    def client(self, *, log_level: str | None = None) -> McpClient:
        """A client for this connection, not yet open; its stderr goes to a new log file."""
        log = ServerLog(self.name, transport="stdio", secrets=self.secrets(), stderr=True, keep=self.keep_log)
        return McpClient(self.name, self.launch(log.stderr_path), log=log, log_level=log_level)

    async def connect(self, *, timeout_seconds: float | None = None, log_level: str | None = None) -> McpClient:
        """Start the server and handshake; raises :class:`~anvia_nb.errors.ConnectError`."""
        return await self.client(log_level=log_level).open(timeout_seconds)


@dataclass(frozen=True)
class HttpConnection:
    """A server reached over streamable HTTP."""

    name: str
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_seconds: float | None = 30.0
    auth: Any = None
    """An ``httpx2.Auth`` (for example the SDK's OAuth provider); used as given."""
    transport: Literal["http"] = "http"

    def secrets(self) -> tuple[str, ...]:
        found = [v for v in self.headers.values() if v]
        for value in self.headers.values():  # "Bearer abc": the token alone is a secret too
            found.extend(part for part in value.split()[1:] if len(part) >= 4)
        parts = urlsplit(self.url)
        if parts.password:
            found.append(parts.password)
        found.extend(v for k, v in parse_qsl(parts.query) if v and is_secret_name(k))
        return tuple(found)

    def target(self) -> str:
        return _masked(self.url, self.secrets())

    def launch(self) -> HttpLaunch:
        return HttpLaunch(
            url=self.url, headers=dict(self.headers), timeout_seconds=self.timeout_seconds, auth=self.auth
        )

    def client(self, *, log_level: str | None = None) -> McpClient:
        """A client for this connection, not yet open."""
        log = ServerLog(self.name, transport="http", secrets=self.secrets())
        return McpClient(self.name, self.launch(), log=log, log_level=log_level)

    async def connect(self, *, timeout_seconds: float | None = None, log_level: str | None = None) -> McpClient:
        """Open the HTTP session and handshake; raises :class:`~anvia_nb.errors.ConnectError`."""
        return await self.client(log_level=log_level).open(timeout_seconds)


@dataclass(frozen=True)
class MemoryConnection:
    """A server object in this process, reached through the SDK's in-memory transport."""

    name: str
    server: Any
    transport: Literal["memory"] = "memory"

    def secrets(self) -> tuple[str, ...]:
        return ()

    def target(self) -> str:
        return f"in-memory {type(self.server).__name__}"

    def client(self, *, log_level: str | None = None) -> McpClient:
        """A client for this connection, not yet open."""
        return McpClient(self.name, MemoryLaunch(self.server), log_level=log_level)

    async def connect(self, *, timeout_seconds: float | None = None, log_level: str | None = None) -> McpClient:
        return await self.client(log_level=log_level).open(timeout_seconds)


McpConnection = StdioConnection | HttpConnection | MemoryConnection


class _Factories:
    """The seed's ``mcp`` object: ``mcp.stdio(...)`` and ``mcp.http(...)``."""

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
    ) -> StdioConnection:
        """A lazy stdio connection. ``command="python"`` runs this kernel's own Python.

        ``env`` is added to a minimal inherited environment (PATH, HOME...), as the SDK does, so
        the kernel's own secrets do not leak into servers. Values of names containing TOKEN, KEY,
        SECRET, PASS, AUTH or CREDENTIAL, or listed in ``secret_env``, are masked wherever shown.
        The server's stderr goes to a file that is removed when the connection is closed and at
        exit; ``keep_log=True`` keeps it (its path is ``server.client.log.stderr_path``).
        """
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
        )

    @staticmethod
    def http(
        *,
        name: str,
        url: str,
        headers: Mapping[str, str] | None = None,
        timeout_seconds: float | None = 30.0,
        auth: Any = None,
    ) -> HttpConnection:
        """A lazy streamable-HTTP connection; every header value is treated as a secret.

        ``timeout_seconds`` bounds connecting and sending (``None``: no limit); how long an answer
        may take is each call's own timeout.
        """
        scheme = urlsplit(str(url)).scheme
        if scheme not in ("http", "https"):
            raise InvalidValueError(f"url must start with http:// or https://, got {str(url)[:80]!r}.")
        return HttpConnection(
            name=_check_name(name),
            url=str(url),
            headers=dict(headers or {}),
            timeout_seconds=timeout_seconds,
            auth=auth,
        )

    @staticmethod
    def memory(*, name: str, server: Any) -> MemoryConnection:
        """A connection to an SDK server object in this process (fast tests, teaching)."""
        return MemoryConnection(name=_check_name(name), server=server)


mcp = _Factories()
