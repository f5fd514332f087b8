"""OAuth 2.1 for HTTP servers: ``mcp.http(..., auth=mcp.oauth(...))``.

The MCP SDK's ``OAuthClientProvider`` does the protocol: protected-resource and
authorization-server metadata discovery (the issuer must be the one the resource names),
dynamic client registration or a client ID metadata document, PKCE, scopes from
``WWW-Authenticate`` and ``scopes_supported``, step-up on ``insufficient_scope`` and refresh.
This module adds what a notebook needs around it:

- the person's part, ``on_authorize(authorization_url)`` and the local callback
  (:mod:`anvia_nb.core.transport.oauth.person`);
- tokens cached per server URL, client and grant in a 0600 file (:mod:`anvia_nb.core.transport.oauth.tokens`),
  with the absolute expiry, refreshed
  :data:`~anvia_nb.core.protocol.limits.OAUTH_REFRESH_MARGIN_SECONDS` before they expire;
- :meth:`OAuth.secrets` for masking, and :func:`forget_tokens` for logout.

A notebook with no person at a browser gives a ``grant`` instead (client credentials, an identity
assertion: :mod:`anvia_nb.core.transport.oauth.machine`), which makes its own provider.
Nothing here opens a browser, prints or logs a token.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from mcp.client.auth.oauth2 import OAuthContext
from mcp.shared.auth import OAuthToken

from anvia_nb._docs import fill_docstring
from anvia_nb.core.protocol import limits
from anvia_nb.core.transport.oauth.tokens import GRANTS, MEMORY, MemoryTokens, TokenFile, token_path
from anvia_nb.errors import InvalidValueError

if TYPE_CHECKING:
    import httpx2

__all__ = ["OAUTH_DOCS", "Grant", "MarginContext", "OAuth", "OnAuthorize", "forget_tokens", "oauth", "refresh_margin"]

OAUTH_DOCS = {
    "token_dir": """
token_dir : str, optional
    Where token files go; ``None``: ``$ANVIA_NB_OAUTH_DIR`` or ``~/.cache/anvia_nb/oauth``.
""",
    "scopes": """
scopes : str or iterable of str, optional
    Scopes asked for.
""",
    "returns": """
Returns
-------
OAuth
    The settings, for ``auth=``.
""",
}
"""What ``mcp.oauth`` and the grants with no person (``anvia_nb.core.transport.oauth.machine``) say
alike about their parameters and what they return, written once (see ``anvia_nb._docs``)."""

OnAuthorize = Callable[[str], "str | Awaitable[str | None] | None"]
"""Receives the authorization URL; returns the redirected URL (``None``: wait for the local callback)."""


class Grant(Protocol):
    """A grant that needs no person (:mod:`anvia_nb.core.transport.oauth.grants`): what the settings
    and the transport ask of it."""

    def secrets(self) -> tuple[str, ...]:
        """The secrets it has read (an assertion, a key, a token), for every display to mask."""
        ...

    def portable(self) -> bool:
        """Whether another process (a Dask worker) can use it: it names its secrets, holds none."""
        ...

    def provider(self, settings: OAuth, server: str, server_url: str, store: TokenFile) -> httpx2.Auth:
        """The SDK's provider for one connection to ``server_url``, its tokens in ``store``."""
        ...


@dataclass(frozen=True, repr=False)
class OAuth:
    """How to authorize with a server's OAuth authorization server (see :func:`oauth`)."""

    client_id: str | None = None
    client_secret: str | None = None
    scopes: tuple[str, ...] = ()
    on_authorize: OnAuthorize | None = None
    redirect_uri: str | None = None
    client_metadata_url: str | None = None
    client_name: str = "anvia_nb"
    wait_seconds: float = 600.0
    """How long the person may take to authorize (added to the connect timeout)."""
    token_dir: str | None = None
    """Where token files go (default ``$ANVIA_NB_OAUTH_DIR`` or ``~/.cache/anvia_nb/oauth``;
    ``MEMORY``: this process only)."""
    grant: Grant | None = None
    """Without a person: a grant of :mod:`anvia_nb.core.transport.oauth.grants` (client credentials,
    an identity assertion), which names where its secrets come from, never their values."""

    def __repr__(self) -> str:
        shown = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "on_authorize"}
        shown["client_secret"] = "…" if self.client_secret else None
        shown["on_authorize"] = getattr(self.on_authorize, "__name__", None) if self.on_authorize else None
        return "OAuth(" + ", ".join(f"{key}={value!r}" for key, value in shown.items()) + ")"

    @property
    def signs_in_a_person(self) -> bool:
        """Whether a person authorizes at a browser (the authorization code grant), whose tokens are
        then cached for the next connect; not a ``grant`` that needs nobody."""
        return self.grant is None

    def token_file(self, server_url: str) -> TokenFile:
        grant = str(getattr(self.grant, "name", ""))
        if self.token_dir == MEMORY:
            return MemoryTokens(token_path(server_url, self.client_id, Path(MEMORY), grant))
        directory = Path(self.token_dir).expanduser() if self.token_dir else None
        return TokenFile(token_path(server_url, self.client_id, directory, grant))

    def secrets(self, server_url: str) -> tuple[str, ...]:
        """The cached tokens, the client secret and the grant's secrets, so every display masks them."""
        own = (self.client_secret,) if self.client_secret else ()
        granted = tuple(self.grant.secrets()) if self.grant is not None else ()
        return (*own, *granted, *self.token_file(server_url).secrets())


@fill_docstring(OAUTH_DOCS)
def oauth(
    *,
    client_id: str | None = None,
    client_secret: str | None = None,
    scopes: str | Iterable[str] = (),
    on_authorize: OnAuthorize | None = None,
    redirect_uri: str | None = None,
    client_metadata_url: str | None = None,
    client_name: str = "anvia_nb",
    wait_seconds: float = 600.0,
    token_dir: str | None = None,
) -> OAuth:
    """OAuth settings for ``mcp.http(..., auth=...)``: a person authorizes at a browser.

    Without ``on_authorize``, only cached (or refreshable) tokens can be used.

    Parameters
    ----------
    client_id : str, optional
        A client registered beforehand; ``None``: the client registers itself (or uses
        ``client_metadata_url`` where the server supports it).
    client_secret : str, optional
        That client's secret, if it has one (masked wherever shown).
    scopes : str or iterable of str, optional
        Scopes asked for (a string is split on spaces); none: the server's challenge or its
        ``scopes_supported`` decide.
    on_authorize : callable, optional
        Called with the authorization URL when a person must authorize; returns the URL the
        browser was redirected to, or ``None`` to wait for the local callback (may be async).
    redirect_uri : str, optional
        An ``http(s)`` redirect URI; ``None``: a local callback on this machine.
    client_metadata_url : str, optional
        The URL of this client's metadata document, used as its ID where the server supports it.
    client_name : str, optional
        The name a self-registered client gives (default ``"anvia_nb"``).
    wait_seconds : float, optional
        Seconds the person may take to authorize, added to the connect timeout (default 600).
    {token_dir}

    {returns}

    Raises
    ------
    InvalidValueError
        ``on_authorize`` is not callable, or ``redirect_uri`` is not an http(s) URL.

    Examples
    --------
    >>> conn = mcp.http(name="docs", url="https://example.com/mcp", auth=mcp.oauth(scopes="read"))
    """
    if isinstance(scopes, str):
        scopes = scopes.split()
    if on_authorize is not None and not callable(on_authorize):
        raise InvalidValueError("on_authorize must be a callable that takes the authorization URL.")
    if redirect_uri is not None and urlsplit(redirect_uri).scheme not in ("http", "https"):
        raise InvalidValueError(f"redirect_uri must be an http(s) URL, got {redirect_uri[:80]!r}.")
    return OAuth(
        client_id=client_id,
        client_secret=client_secret,
        scopes=tuple(str(s) for s in scopes),
        on_authorize=on_authorize,
        redirect_uri=redirect_uri,
        client_metadata_url=client_metadata_url,
        client_name=client_name,
        wait_seconds=float(wait_seconds),
        token_dir=token_dir,
    )


def forget_tokens(server_url: str, client_id: str | None = None, *, token_dir: str | None = None) -> bool:
    """Forget the cached tokens (and registration) for ``server_url`` and that client, of every
    grant; whether there were any."""
    directory = Path(token_dir).expanduser() if token_dir and token_dir != MEMORY else None
    store = MemoryTokens if token_dir == MEMORY else TokenFile
    return any([store(token_path(server_url, client_id, directory, grant)).forget() for grant in GRANTS])


class MarginContext(OAuthContext):
    """The SDK's context, with a token asked for again
    :data:`~anvia_nb.core.protocol.limits.OAUTH_REFRESH_MARGIN_SECONDS` before it expires."""

    def update_token_expiry(self, token: OAuthToken) -> None:
        super().update_token_expiry(token)
        if self.token_expiry_time is not None and token.expires_in is not None:
            self.token_expiry_time -= refresh_margin(token.expires_in)


def refresh_margin(expires_in: int) -> float:
    """How long before its expiry a token that lasts ``expires_in`` seconds is refreshed:
    :data:`~anvia_nb.core.protocol.limits.OAUTH_REFRESH_MARGIN_SECONDS`, at most half its life."""
    return min(limits.OAUTH_REFRESH_MARGIN_SECONDS, int(expires_in) / 2)
