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
from dataclasses import replace
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from anvia_nb.core.api.connections import HttpConnection
from anvia_nb.core.api.factories import mcp
from anvia_nb.core.transport.oauth.settings import OAuth, forget_tokens
from anvia_nb.dashboard import refuse_a_persons_sign_in
from anvia_nb.errors import AuthorizationRequiredError, ConnectError, UnknownConnectionError
from anvia_nb.magic.output.cell import report_warnings
from anvia_nb.magic.output.connect_text import connect_line
from anvia_nb.magic.parse.oauth import LogoutCommand, OAuthConnectCommand, OAuthRedirectCommand

if TYPE_CHECKING:
    from anvia_nb.magic.commands.host import MagicHost
    from anvia_nb.runtime import Connected
    from anvia_nb.widgets.prompts.oauth import AuthorizationPrompt

__all__ = ["run_connect", "run_logout"]


class _Pending:
    """One OAuth connect waiting in the background for a person."""

    def __init__(self, connection: HttpConnection) -> None:
        self.connection = connection
        self.asked = threading.Event()  # set when a person must act, or when the connect ended
        self.authorization_url = ""
        self.future: concurrent.futures.Future[Connected] | None = None
        self.prompt: AuthorizationPrompt | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._answer: asyncio.Future[str] | None = None

    async def ask(self, authorization_url: str) -> str:
        if self.future is not None and self.future.done():  # a later re-authorization: no cell shows a link
            raise AuthorizationRequiredError(_authorize_again(self.connection, authorization_url), self.connection.name)
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


def run_connect(magics: MagicHost, command: OAuthConnectCommand | OAuthRedirectCommand) -> AuthorizationPrompt | None:
    """Start (or finish, with ``--oauth-redirect``) an OAuth connect; returns the prompt while a person must act."""
    if isinstance(command, OAuthRedirectCommand):
        _run_redirect(magics, command)
        return None
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
        runtime.connect_async(
            connection, "kernel", timeout_seconds=magics.connect_timeout_seconds, log_level=magics.log_level
        )
    )
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


def _show_prompt(magics: MagicHost, pending: _Pending) -> AuthorizationPrompt:
    from anvia_nb.widgets.prompts.oauth import AuthorizationPrompt

    connection = pending.connection
    policy = magics.show_policy(connection.secrets())
    prompt = AuthorizationPrompt(connection.name, connection.url, pending.authorization_url, pending.give, policy)
    pending.prompt = prompt

    def settled(_done: object) -> None:
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
    open_now = magics.runtime.server(command.name).connection if command.name in magics.runtime.names() else None
    connection = open_now if isinstance(open_now, HttpConnection) else _KNOWN.get(command.name)
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
