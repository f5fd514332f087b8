"""``%mcp connect NAME --oauth ... --http URL``, ``--oauth-redirect URL`` and ``%mcp logout``.

A magic cell blocks the kernel, so nothing typed in a widget can reach it while the cell runs.
The OAuth connect therefore runs in the background on the runtime's loop:

1. ``%mcp connect NAME --oauth --http URL`` starts it. With a usable cached token it connects
   at once and the cell prints the usual line. When a person must authorize, the cell shows the
   link (server and authorization host named, nothing opened) and a paste box, and returns.
2. The person authorizes in their own browser. When the browser can reach the kernel (a local
   notebook), the one-shot callback on 127.0.0.1 completes the connect by itself. Otherwise
   (JupyterHub, Binder, any remote kernel) the browser ends on a page that does not load: its
   URL is pasted into the box (Finish), or given with ``%mcp connect NAME --oauth-redirect URL``,
   which also waits for the connect and prints its line.

``%mcp logout NAME`` (or ``--http URL [--client-id ID]``) forgets the cached tokens.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import shlex
import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from anvia_nb.core.api.connections import HttpConnection
from anvia_nb.core.api.factories import mcp
from anvia_nb.core.transport.oauth import OAuth, forget_tokens
from anvia_nb.dashboard import refuse_a_persons_sign_in
from anvia_nb.errors import AuthorizationRequiredError, CommandLineError, ConnectError, UnknownConnectionError
from anvia_nb.magic import _parser as p
from anvia_nb.magic._cell_output import report_warnings
from anvia_nb.magic._commands import ConnectCommand
from anvia_nb.magic._connect_text import connect_line
from anvia_nb.magic._oauth_words import MACHINE_FLAGS
from anvia_nb.magic._parse_connect import expand_environ
from anvia_nb.magic._parse_connect import parse_connect as parse_plain_connect
from anvia_nb.magic.oauth_machine import machine_settings

if TYPE_CHECKING:
    from anvia_nb.magic._host import MagicHost
    from anvia_nb.runtime import Connected

__all__ = [
    "LogoutCommand",
    "OAuthConnectCommand",
    "OAuthRedirectCommand",
    "parse_connect",
    "parse_logout",
    "run_connect",
    "run_logout",
]

OAUTH_OPTIONS = ("--oauth", "--client-id", "--scope", "--oauth-redirect", *MACHINE_FLAGS)
_REDIRECT_USAGE = "Usage: %mcp connect NAME --oauth-redirect URL (the URL your browser was redirected to)"


@dataclass(frozen=True)
class OAuthConnectCommand:
    """``connect NAME --oauth [--client-id ID] [--scope S]... --http URL``, or with
    ``--oauth-client-credentials`` / ``--oauth-identity-assertion`` (``auth``: nobody to ask)."""

    base: ConnectCommand
    client_id: str | None = None
    scopes: tuple[str, ...] = ()
    auth: OAuth | None = None


@dataclass(frozen=True)
class OAuthRedirectCommand:
    """``connect NAME --oauth-redirect URL``: finish the authorization waiting for NAME."""

    name: str
    url: str


@dataclass(frozen=True)
class LogoutCommand:
    """``logout NAME`` or ``logout --http URL [--client-id ID]``."""

    name: str = ""
    url: str = ""
    client_id: str | None = None


def parse_connect(rest: str, cell: str | None = None) -> Any:
    """The connect parser, plus ``--oauth``, ``--client-id``, ``--scope`` and ``--oauth-redirect``."""
    words = p.split(rest)
    no_cell = cell is None or not cell.strip()
    if no_cell and len(words) == 3 and words[1] == "--oauth-redirect" and not words[0].startswith("-"):
        return OAuthRedirectCommand(words[0], words[2])  # a pasted URL, taken as it is ($ included)
    expanded, taken = expand_environ(rest)  # $NAME: the kernel's environment, a secret
    words = p.split(expanded)
    if cell is not None and cell.strip() and any(w in words for w in OAUTH_OPTIONS):
        raise CommandLineError("%%mcp connect takes no --oauth: connect with %mcp connect NAME --oauth first.")
    head = words[: words.index("--stdio")] if "--stdio" in words else words
    if "--oauth-redirect" in head:
        raise CommandLineError(_REDIRECT_USAGE)
    if any(w in head for w in MACHINE_FLAGS):
        plain, settings = machine_settings(words)
        base = _http_only(_with_environ(parse_plain_connect(shlex.join(plain), cell), taken), "the OAuth grant")
        return OAuthConnectCommand(base, settings.client_id, settings.scopes, settings)
    if not any(w in head for w in ("--oauth", "--client-id", "--scope")):
        return parse_plain_connect(rest, cell)
    kept: list[str] = []
    client_id: str | None = None
    scopes: list[str] = []
    oauth = False
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--oauth":
            oauth = True
            i += 1
            continue
        if word in ("--client-id", "--scope"):
            if i + 1 >= len(words) or words[i + 1].startswith("-"):
                raise CommandLineError(f"{word} needs a value.")
            if word == "--client-id":
                client_id = words[i + 1]
            else:
                scopes.extend(words[i + 1].split())
            i += 2
            continue
        kept.append(word)
        i += 1
    if not oauth:
        raise CommandLineError("--client-id and --scope go with --oauth.")
    base = _http_only(_with_environ(parse_plain_connect(shlex.join(kept), cell), taken), "--oauth")
    return OAuthConnectCommand(base, client_id, tuple(scopes))


def _with_environ(base: Any, taken: Any) -> Any:
    """``base`` with the values its line took from the kernel's environment (secrets)."""
    return replace(base, from_environ=taken) if isinstance(base, ConnectCommand) else base


def _http_only(base: Any, what: str) -> ConnectCommand:
    if not isinstance(base, ConnectCommand) or base.transport != "http" or base.cell:
        raise CommandLineError(f"{what} is for one --http connection (not --stdio, --config or %%mcp connect).")
    return base


def parse_logout(rest: str, _cell: str | None = None) -> LogoutCommand:
    words = p.split(rest)
    if len(words) == 1 and not words[0].startswith("-"):
        return LogoutCommand(name=words[0])
    options = dict(zip(words[::2], words[1::2], strict=False))
    if len(words) % 2 == 0 and words and set(options) <= {"--http", "--client-id"} and "--http" in options:
        return LogoutCommand(url=options["--http"], client_id=options.get("--client-id"))
    raise CommandLineError("Usage: %mcp logout NAME, or %mcp logout --http URL [--client-id ID]")


# -- running ---------------------------------------------------------------------------------


class _Pending:
    """One OAuth connect waiting in the background for a person."""

    def __init__(self, connection: HttpConnection) -> None:
        self.connection = connection
        self.asked = threading.Event()  # set when a person must act, or when the connect ended
        self.authorization_url = ""
        self.future: concurrent.futures.Future[Connected] | None = None
        self.prompt: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._answer: asyncio.Future[str] | None = None

    async def ask(self, authorization_url: str) -> str:
        if self.future is not None and self.future.done():  # a later re-authorization: no cell shows a link
            raise AuthorizationRequiredError(_authorize_again(self.connection, authorization_url),
                                             self.connection.name)
        self._loop = asyncio.get_running_loop()
        self._answer = self._loop.create_future()
        self.authorization_url = authorization_url
        self.asked.set()
        return await self._answer

    def give(self, url: str) -> None:
        loop, answer = self._loop, self._answer
        if loop is None or answer is None:
            return

        def settle() -> None:
            if not answer.done():
                answer.set_result(url)

        loop.call_soon_threadsafe(settle)


def _authorize_again(connection: HttpConnection, authorization_url: str) -> str:
    """What to type when the server asks for an authorization while connected, with the scope it
    asks for (a step-up) and the client ID the connect used."""
    name = connection.name
    scope = (parse_qs(urlsplit(authorization_url).query).get("scope") or [""])[0]
    client_id = connection.auth.client_id if isinstance(connection.auth, OAuth) else None
    options = (f" --client-id {shlex.quote(client_id)}" if client_id else "") + (
        f" --scope {shlex.quote(scope)}" if scope else ""
    )
    return (
        f"{name!r} asked to be authorized again while connected (a token that could not be refreshed, or more "
        f"access for this tool), and a running call cannot show the link: connect again to see it, with "
        f"%mcp connect {name} --oauth{options} --http {connection.url}"
    )


_PENDING: dict[str, _Pending] = {}
_KNOWN: dict[str, HttpConnection] = {}


def _wait_seconds(magics: MagicHost) -> float:
    timeout = magics.connect_timeout_seconds
    return float(timeout) if timeout is not None else 300.0


def _finish(magics: MagicHost, pending: _Pending) -> str:
    """The connect's line, once it ended: connected (the usual line) or why not (raised)."""
    assert pending.future is not None
    name = pending.connection.name
    if _PENDING.get(name) is pending:
        del _PENDING[name]
    report_warnings(pending.future.result().warnings)
    return connect_line(pending.connection, magics.runtime)


def run_connect(magics: MagicHost, command: OAuthConnectCommand | OAuthRedirectCommand) -> Any:
    """Start (or finish, with ``--oauth-redirect``) an OAuth connect; returns the prompt while a person must act."""
    if isinstance(command, OAuthRedirectCommand):
        return _run_redirect(magics, command)
    connection = magics.connections(command.base)[0]
    assert isinstance(connection, HttpConnection)
    pending = _Pending(connection)
    settings = command.auth or mcp.oauth(client_id=command.client_id, scopes=command.scopes, on_authorize=pending.ask)
    connection = pending.connection = replace(connection, auth=settings)
    if magics.render_settings().hide_server_errors:  # a page for viewers
        refuse_a_persons_sign_in(connection)
    old = _PENDING.pop(connection.name, None)
    if old is not None and old.future is not None:
        old.future.cancel()
    _KNOWN[connection.name] = connection
    runtime = magics.runtime
    pending.future = runtime.loop.submit(
        runtime.connect_async(connection, "kernel", timeout_seconds=magics.connect_timeout_seconds,
                              log_level=magics.log_level)
    )  # fmt: skip
    pending.future.add_done_callback(lambda _done: pending.asked.set())
    try:
        if not pending.asked.wait(_wait_seconds(magics) + 5):
            pending.future.cancel()
            raise ConnectError(f"Connecting to {connection.name!r} did not start its authorization in time.")
    except KeyboardInterrupt:
        pending.future.cancel()
        raise
    if pending.future.done():
        print(_finish(magics, pending))
        return None
    _PENDING[connection.name] = pending
    return _show_prompt(magics, pending)


def _show_prompt(magics: MagicHost, pending: _Pending) -> Any:
    from anvia_nb.widgets.oauth_prompt import AuthorizationPrompt

    connection = pending.connection
    policy = magics.show_policy(connection.secrets())
    prompt = AuthorizationPrompt(connection.name, connection.url, pending.authorization_url, pending.give, policy)
    pending.prompt = prompt

    def settled(_done: Any) -> None:
        try:
            prompt.settled(_finish(magics, pending))
        except BaseException as exc:  # shown in the prompt: the cell that started it has returned
            prompt.settled(policy.error_line(exc, policy.limits.text_chars))

    assert pending.future is not None
    pending.future.add_done_callback(settled)
    return prompt


def _run_redirect(magics: MagicHost, command: OAuthRedirectCommand) -> None:
    pending = _PENDING.get(command.name)
    if pending is None or pending.future is None:
        raise UnknownConnectionError(
            f"No authorization is waiting for {command.name!r}: start one with %mcp connect {command.name} "
            "--oauth --http URL."
        )
    pending.give(command.url)
    try:
        pending.future.result(timeout=_wait_seconds(magics) + 5)
    except concurrent.futures.TimeoutError:
        raise ConnectError(f"Connecting to {command.name!r} did not finish in time; connect again.") from None
    except concurrent.futures.CancelledError:
        raise ConnectError(f"The authorization for {command.name!r} was replaced by a newer connect.") from None
    print(_finish(magics, pending))


def run_logout(magics: MagicHost, command: LogoutCommand) -> None:
    if command.url:
        forgot = forget_tokens(command.url, command.client_id)
        said = "Forgot the OAuth tokens for" if forgot else "No OAuth tokens were cached for"
        print(f"{said} {command.url}.")
        return
    connection: Any = None
    if command.name in magics.runtime.names():
        connection = magics.runtime.server(command.name).connection
    connection = connection if isinstance(connection, HttpConnection) else _KNOWN.get(command.name)
    if connection is None or not isinstance(connection.auth, OAuth):
        raise UnknownConnectionError(
            f"{command.name!r} is not an OAuth connection of this kernel: use %mcp logout --http URL [--client-id ID]."
        )
    forgot = mcp.oauth_logout(connection)
    if not forgot:
        print(f"No OAuth tokens were cached for {command.name}.")
        return
    still_open = command.name in magics.runtime.names()
    print(
        f"Forgot the OAuth tokens of {command.name}"
        + (" (the open connection keeps its token until closed)." if still_open else ".")
    )
