"""The person's part of OAuth: the authorization code grant in a notebook.

:class:`NotebookOAuthProvider` is the MCP SDK's ``OAuthClientProvider`` with what a notebook adds:
``on_authorize(authorization_url)`` returns the URL the browser was redirected to (or an awaitable
of it, or ``None`` to wait for the local callback). Unless a ``redirect_uri`` is given, a one-shot
callback listens on 127.0.0.1 (a free port, kept with the registration) while the person
authorizes, so a local browser needs no paste. The state of the URL given back must be this flow's,
and an ``error=`` in it is reported as such. Scopes asked for are kept through the SDK's step-up,
and its errors become ones a person understands. :func:`.oauth_provider.oauth_provider`
makes one per connection.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import anyio.to_thread
import httpx2
from mcp.client.auth import OAuthClientProvider
from mcp.client.auth.utils import union_scopes
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata
from pydantic import AnyUrl, PrivateAttr

from anvia_nb.core.transport.oauth.callback import CALLBACK_PATH, free_port, loopback_socket
from anvia_nb.core.transport.oauth.settings import MarginContext, OAuth, refresh_margin
from anvia_nb.core.transport.oauth.tokens import TokenFile
from anvia_nb.errors import (
    AuthorizationDeniedError,
    AuthorizationError,
    AuthorizationRequiredError,
    AuthorizationStateError,
    TokenExpiredError,
)

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

__all__ = ["NotebookOAuthProvider"]


class _AskedScopes(OAuthClientMetadata):
    """Client metadata whose ``scope`` keeps the scopes asked for with ``oauth(scopes=...)``.

    Before each authorization the SDK sets the scope to the server's challenge (or its
    ``scopes_supported``), which would drop them: what is asked for is kept first, what the server
    names is added."""

    _asked: str | None = PrivateAttr(default=None)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "scope":
            value = union_scopes(self._asked, value)
        super().__setattr__(name, value)


class NotebookOAuthProvider(OAuthClientProvider):
    """The SDK's provider, with the person's part, a token file and errors people understand."""

    def __init__(self, settings: OAuth, server: str, server_url: str, store: TokenFile) -> None:
        self.settings = settings
        self.server = server
        self.store = store
        self.store.asking = settings.scopes
        self._port = 0
        redirect_uri = settings.redirect_uri
        if redirect_uri is None:
            wanted = self.store.redirect_port()
            port = self._port = free_port(wanted)
            if not port:
                raise AuthorizationError(f"Cannot authorize {server!r}: no local port is free for a redirect.", server)
            redirect_uri = f"http://127.0.0.1:{port}{CALLBACK_PATH}"
            if wanted and wanted != port:
                self.store.forget_client()  # registered for another port: register again
        self.redirect_uri = redirect_uri
        metadata = _AskedScopes(
            client_name=settings.client_name,
            redirect_uris=[AnyUrl(redirect_uri)],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="client_secret_post" if settings.client_secret else "none",
            scope=" ".join(settings.scopes) or None,
        )
        metadata._asked = metadata.scope
        super().__init__(
            server_url,
            metadata,
            self.store,
            redirect_handler=self._remember_url,
            callback_handler=self._wait_for_redirect,
            client_metadata_url=settings.client_metadata_url,
        )
        context = self.context
        self.context = MarginContext(**{f.name: getattr(context, f.name) for f in fields(context)})
        self._authorization_url = ""
        self._state = ""
        self._refresh_failed = False
        self._had_tokens = False
        self.failure: AuthorizationError | None = None
        """Why the last authorization failed. Once a session is open, a failure kills the HTTP
        transport, and its calls only hear "connection closed": the client names this instead."""

    # -- the SDK's hooks -------------------------------------------------------------------

    async def _initialize(self) -> None:
        await super()._initialize()
        if self.settings.client_id and self.context.client_info is None:
            from mcp.shared.auth import OAuthClientInformationFull

            self.context.client_info = OAuthClientInformationFull(
                client_id=self.settings.client_id,
                client_secret=self.settings.client_secret,
                redirect_uris=[AnyUrl(self.redirect_uri)],
                # RFC 6749 2.3.1: every server that issues secrets takes HTTP Basic
                token_endpoint_auth_method="client_secret_basic" if self.settings.client_secret else "none",
            )
        expires_at = self.store.expires_at()
        tokens = self.context.current_tokens
        granted = tokens.scope.split() if tokens is not None and tokens.scope else None
        if granted is not None and set(self.settings.scopes) - set(granted) - self.store.asked():
            self.context.clear_tokens()  # a scope asked for now, never asked with this token: authorize again
            tokens = None
        self._had_tokens = tokens is not None
        if tokens is not None and expires_at is not None and tokens.expires_in is not None:
            self.context.token_expiry_time = expires_at - refresh_margin(tokens.expires_in)

    async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
        refreshed = await super()._handle_refresh_response(response)
        self._refresh_failed = not refreshed
        return refreshed

    async def _remember_url(self, authorization_url: str) -> None:
        self._authorization_url = authorization_url
        self._state = (parse_qs(urlsplit(authorization_url).query).get("state") or [""])[0]

    async def _wait_for_redirect(self) -> AuthorizationCodeResult:
        try:
            if self.settings.on_authorize is None:
                raise self._nobody_to_ask()
            return self._result(await self._redirected_url())
        except AuthorizationError as error:
            self.failure = error
            raise

    # -- the person's part -----------------------------------------------------------------

    def _nobody_to_ask(self) -> AuthorizationError:
        if self._had_tokens:
            return TokenExpiredError(
                f"The OAuth token for {self.server!r} expired and could not be refreshed: connect again with "
                "--oauth (or on_authorize=...) to authorize again.",
                self.server,
            )
        return AuthorizationRequiredError(
            f"{self.server!r} needs OAuth authorization and no token is cached: connect with --oauth "
            "(from Python, mcp.oauth(on_authorize=...)) to authorize in your browser.",
            self.server,
        )

    async def _redirected_url(self) -> str:
        found: list[str] = []
        done = anyio.Event()

        def settle(url: str | None) -> None:
            if url and not found:
                found.append(url)
                done.set()

        async def ask() -> None:
            hook = self.settings.on_authorize
            assert hook is not None
            if inspect.iscoroutinefunction(hook):
                answer = await hook(self._authorization_url)
            else:
                answer = await anyio.to_thread.run_sync(hook, self._authorization_url, abandon_on_cancel=True)
                if inspect.isawaitable(answer):
                    answer = await answer
            settle(answer if isinstance(answer, str) else None)

        try:
            with anyio.move_on_after(self.settings.wait_seconds):
                async with anyio.create_task_group() as group:
                    group.start_soon(ask)
                    if self._port:
                        group.start_soon(self._listen, settle)
                    await done.wait()
                    group.cancel_scope.cancel()
        except BaseExceptionGroup as group_error:  # on_authorize raised: its own error, not a group
            first = group_error.exceptions[0]
            if isinstance(first, Exception):
                raise first from None
            raise
        if not found:
            raise AuthorizationError(
                f"Authorizing {self.server!r}: no redirected URL came back within {self.settings.wait_seconds:g} s; "
                "connect again to retry.",
                self.server,
            )
        return found[0]

    async def _listen(self, settle: Callable[[str | None], None]) -> None:
        """The one-shot local callback: the first request carrying this flow's state settles it."""
        sock = loopback_socket(self._port)
        if sock is None:  # taken meanwhile: only the pasted URL can complete this authorization
            return

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                line = (await asyncio.wait_for(reader.readline(), 10)).decode("latin-1")
                while (await asyncio.wait_for(reader.readline(), 10)) not in (b"\r\n", b"\n", b""):
                    pass
                target = line.split(" ")[1] if line.count(" ") >= 2 else ""
                query = parse_qs(urlsplit(target).query)
                ours = (query.get("state") or [""])[0] == self._state and urlsplit(target).path == CALLBACK_PATH
                body = (
                    b"anvia_nb received the authorization; you may close this tab."
                    if ours
                    else b"This is not the redirect anvia_nb is waiting for."
                )
                status = b"200 OK" if ours else b"400 Bad Request"
                writer.write(
                    b"HTTP/1.1 "
                    + status
                    + b"\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                    + str(len(body)).encode()
                    + b"\r\nConnection: close\r\n\r\n"
                    + body
                )
                await writer.drain()
                if ours:
                    settle(f"http://127.0.0.1{target}")
            except (OSError, asyncio.TimeoutError, IndexError):
                pass
            finally:
                writer.close()

        server = await asyncio.start_server(handle, sock=sock)
        try:
            await anyio.sleep_forever()
        finally:
            server.close()

    def _result(self, redirected: str) -> AuthorizationCodeResult:
        query = parse_qs(urlsplit(redirected.strip()).query)
        first = {key: values[0] for key, values in query.items() if values}
        if "error" in first and first.get("state") in (None, self._state):
            reason = first["error"][:60]
            raise AuthorizationDeniedError(
                f"Authorization for {self.server!r} was denied ({reason}): nothing was granted; connect again "
                "with --oauth to retry.",
                self.server,
            )
        if first.get("state") != self._state:
            raise AuthorizationStateError(
                f"The redirected URL given for {self.server!r} does not belong to this authorization (its state "
                "differs): paste the URL of the latest authorization, or connect again.",
                self.server,
            )
        if not first.get("code"):
            raise AuthorizationError(
                f"The redirected URL given for {self.server!r} carries no authorization code: paste the whole URL "
                "from the browser's address bar.",
                self.server,
            )
        return AuthorizationCodeResult(code=first["code"], state=first["state"], iss=first.get("iss"))
