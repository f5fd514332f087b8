"""OAuth without a person at a browser: the grants of ``OAuth(grant=...)``.

- :class:`ClientCredentials`, the ``client_credentials`` grant, authenticated with a client secret
  (``client_secret_basic`` or ``client_secret_post``: the SDK's ``ClientCredentialsOAuthProvider``),
  or with a JWT assertion (``private_key_jwt``: the SDK's ``PrivateKeyJWTOAuthProvider``) signed
  here with a PEM key, or given ready-made by a workload identity (a token file the platform writes);
- :class:`WorkloadIdentity`, workload identity federation (SEP-1933): the token a platform gives a
  workload (Kubernetes, a cloud's metadata service, a CI job's OIDC token) is the grant itself, sent
  with the jwt-bearer grant (RFC 7523 §2.1) by a client with no secret;
- :class:`IdentityAssertion`, enterprise-managed authorization (SEP-990, cross-app access): an ID
  token from the company's identity provider is exchanged there (RFC 8693) for an ID-JAG, which
  the MCP authorization server takes with the jwt-bearer grant (RFC 7523: the SDK's
  ``IdentityAssertionOAuthProvider``); or an ID-JAG is given as it is.

A grant names where its secrets are (:class:`~anvia_nb.core.transport.oauth.sources.Source`),
never holds them, so a connection using one pickles to a Dask worker with nothing secret in it and
each worker reads its own environment. Tokens are cached as for a person's authorization (per
server, client and grant) and requested again when they expire.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from typing import Any, Literal

import httpx2
from mcp.client.auth import OAuthClientProvider, OAuthTokenError
from mcp.client.auth.extensions.client_credentials import (
    ClientCredentialsOAuthProvider,
    PrivateKeyJWTOAuthProvider,
    SignedJWTParameters,
    _require_metadata_for_configured_issuer,
)
from mcp.client.auth.extensions.identity_assertion import IdentityAssertionOAuthProvider
from mcp.shared.auth import JWT_BEARER_GRANT_TYPE, OAuthClientInformationFull

from anvia_nb.core.transport.oauth.settings import MarginContext, OAuth, refresh_margin
from anvia_nb.core.transport.oauth.sources import AssertionSource, Source
from anvia_nb.core.transport.oauth.tokens import TokenFile
from anvia_nb.errors import AuthorizationError

__all__ = ["AUTH_METHODS", "ClientCredentials", "IdentityAssertion", "WorkloadIdentity"]

AUTH_METHODS = ("client_secret_basic", "client_secret_post", "private_key_jwt")
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag"


def _secrets(*sources: Any) -> tuple[str, ...]:
    """The values readable now (for masking), and each line of a PEM key on its own."""
    found: list[str] = []
    for item in sources:
        value = item.peek() if isinstance(item, Source) else None
        if value:
            found.append(value)
            found.extend(line for line in value.splitlines() if len(line) >= 16 and not line.startswith("-----"))
    return tuple(found)


async def _called(function: Callable[..., Any], *args: Any) -> str:
    answer = function(*args)
    if inspect.isawaitable(answer):
        answer = await answer
    return str(answer).strip()


def _expiry_from(store: TokenFile, provider: Any) -> None:
    """A cached token's expiry, as the file says (``expires_in`` alone means nothing after a restart)."""
    tokens, expires_at = provider.context.current_tokens, store.expires_at()
    if tokens is not None and expires_at is not None and tokens.expires_in is not None:
        provider.context.token_expiry_time = expires_at - refresh_margin(tokens.expires_in)


def _with_margin(provider: Any) -> None:
    """Tokens asked for again a minute (or half their life) before they expire, as for a person's."""
    context = provider.context
    provider.context = MarginContext(**{f.name: getattr(context, f.name) for f in fields(context)})


class _CachedTokens(OAuthClientProvider):
    """What both machine grants add to the SDK's provider: tokens kept in our cache file, and asked
    for again before they expire (:func:`_with_margin`)."""

    def __init__(self, store: TokenFile, **kwargs: Any) -> None:
        with warnings.catch_warnings():  # no issuer: the resource names it (docs/oauth.md says so)
            warnings.simplefilter("ignore")
            super().__init__(storage=store, **kwargs)
        self.store = store
        _with_margin(self)

    async def _initialize(self) -> None:
        await super()._initialize()
        _expiry_from(self.store, self)


class _SecretClient(_CachedTokens, ClientCredentialsOAuthProvider):
    """client_secret_basic / client_secret_post."""


class _KeyClient(_CachedTokens, PrivateKeyJWTOAuthProvider):
    """private_key_jwt, or a workload identity's ready-made assertion."""


@dataclass(frozen=True)
class ClientCredentials:
    """The ``client_credentials`` grant: a service account, no person involved."""

    auth_method: Literal["client_secret_basic", "client_secret_post", "private_key_jwt"] = "client_secret_basic"
    secret: Source | None = None
    """The client secret (``client_secret_basic``, ``client_secret_post``)."""
    key: Source | None = None
    """A PEM private key that signs each assertion (``private_key_jwt``)."""
    key_alg: str = "RS256"
    assertion: AssertionSource | None = None
    """A ready-made client assertion (``private_key_jwt`` by a workload identity): read anew at
    each token request, or a function of the audience (the authorization server's issuer)."""
    issuer: str | None = None
    """The authorization server the credentials belong to: they are sent to no other."""
    name = "client_credentials"

    def secrets(self) -> tuple[str, ...]:
        return _secrets(self.secret, self.key, self.assertion)

    def portable(self) -> bool:
        """Whether a process that receives it can read its secrets itself (no function in it)."""
        return not callable(self.assertion)

    def provider(self, settings: OAuth, server: str, server_url: str, store: TokenFile) -> httpx2.Auth:
        client_id = settings.client_id or ""
        scope = " ".join(settings.scopes) or None
        if self.auth_method != "private_key_jwt":
            assert self.secret is not None
            secret = self.secret.read(server)
            return _SecretClient(
                store,
                server_url=server_url,
                client_id=client_id,
                client_secret=secret,
                token_endpoint_auth_method=self.auth_method,
                scope=scope,
                issuer=self.issuer,
            )
        return _KeyClient(
            store,
            server_url=server_url,
            client_id=client_id,
            assertion_provider=self._assertions(server, client_id),
            scope=scope,
            issuer=self.issuer,
        )

    def _assertions(self, server: str, client_id: str) -> Callable[[str], Awaitable[str]]:
        if self.assertion is not None:
            given = self.assertion

            async def ready_made(audience: str) -> str:
                return given.read(server) if isinstance(given, Source) else await _called(given, audience)

            return ready_made
        assert self.key is not None
        key = self.key.read(server)  # now: a missing key fails the connect, not the first token request
        signed = SignedJWTParameters(
            issuer=client_id, subject=client_id, signing_key=key, signing_algorithm=self.key_alg
        ).create_assertion_provider()

        async def signing(audience: str) -> str:
            try:
                return await signed(audience)
            except Exception as exc:  # PyJWT's errors (a bad key, a wrong algorithm), said in one line
                raise AuthorizationError(
                    f"{server!r}: the private key in {self.key.where() if self.key else 'the key'} cannot sign "
                    f"with {self.key_alg} ({type(exc).__name__}): give the PEM key and its algorithm (--key-alg).",
                    server,
                ) from None

        return signing


class _WorkloadClient(_CachedTokens, ClientCredentialsOAuthProvider):
    """The jwt-bearer grant with the workload's token as the assertion, by a public client (no
    secret: ``token_endpoint_auth_method`` none). Discovery, the issuer check, the token cache and
    its refresh are the client credentials provider's; only the token request differs."""

    def __init__(self, store: TokenFile, *, token: Callable[[str], Awaitable[str]], **kwargs: Any) -> None:
        super().__init__(store, client_secret="", **kwargs)
        self._token = token
        self._fixed_client_info = OAuthClientInformationFull(
            redirect_uris=None,
            client_id=kwargs["client_id"],
            grant_types=[JWT_BEARER_GRANT_TYPE],
            token_endpoint_auth_method="none",
            scope=kwargs.get("scope"),
        )

    async def _exchange_token_client_credentials(self) -> httpx2.Request:
        _require_metadata_for_configured_issuer(self.context, self._issuer)
        metadata = self.context.oauth_metadata
        audience = str(metadata.issuer) if metadata is not None else self.context.get_resource_url()
        data = {
            "grant_type": JWT_BEARER_GRANT_TYPE,
            "assertion": await self._token(audience),
            "client_id": self._fixed_client_info.client_id or "",
        }
        if self.context.should_include_resource_param(self.context.protocol_version):
            data["resource"] = self.context.get_resource_url()
        if self.context.client_metadata.scope:
            data["scope"] = self.context.client_metadata.scope
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return httpx2.Request("POST", self._get_token_endpoint(), data=data, headers=headers)


@dataclass(frozen=True)
class WorkloadIdentity:
    """Workload identity federation (SEP-1933): the platform's token for this workload is the grant."""

    token: AssertionSource
    """The workload's JWT: a file the platform rewrites (read anew at each token request), a
    variable, or a function of the audience (the authorization server's issuer)."""
    issuer: str | None = None
    """The authorization server that trusts the workload's identity provider: the token goes to no other."""
    name = "workload-identity"

    def secrets(self) -> tuple[str, ...]:
        return _secrets(self.token)

    def portable(self) -> bool:
        return not callable(self.token)

    def provider(self, settings: OAuth, server: str, server_url: str, store: TokenFile) -> httpx2.Auth:
        given = self.token

        async def token(audience: str) -> str:
            return given.read(server) if isinstance(given, Source) else await _called(given, audience)

        return _WorkloadClient(
            store,
            token=token,
            server_url=server_url,
            client_id=settings.client_id or "",
            scope=" ".join(settings.scopes) or None,
            issuer=self.issuer,
        )


@dataclass(frozen=True)
class IdentityAssertion:
    """Enterprise-managed authorization: the company's identity provider vouches for the person."""

    issuer: str
    """The MCP server's authorization server: the ID-JAG's audience and where it is sent (configuration,
    never discovery, as the extension requires)."""
    secret: Source
    auth_method: Literal["client_secret_basic", "client_secret_post"] = "client_secret_basic"
    assertion: AssertionSource | None = None
    """An ID-JAG as the identity provider issued it (a function gets ``(audience, resource)``)."""
    id_token: AssertionSource | None = None
    """An ID token from the identity provider, exchanged at ``idp_token_endpoint`` for an ID-JAG."""
    idp_token_endpoint: str | None = None
    idp_client_id: str | None = None
    idp_secret: Source | None = None
    name = "jwt-bearer"

    def secrets(self) -> tuple[str, ...]:
        return _secrets(self.secret, self.assertion, self.id_token, self.idp_secret)

    def portable(self) -> bool:
        return not callable(self.assertion) and not callable(self.id_token)

    def provider(self, settings: OAuth, server: str, server_url: str, store: TokenFile) -> httpx2.Auth:
        return IdentityAssertionOAuthProvider(
            server_url=server_url,
            storage=store,
            client_id=settings.client_id or "",
            client_secret=self.secret.read(server),
            issuer=self.issuer,
            assertion_provider=self._assertions(server),
            scope=" ".join(settings.scopes) or None,
            token_endpoint_auth_method=self.auth_method,
        )

    def _assertions(self, server: str) -> Callable[[str, str], Awaitable[str]]:
        async def id_jag(audience: str, resource: str) -> str:
            if self.assertion is not None:
                given = self.assertion
                return given.read(server) if isinstance(given, Source) else await _called(given, audience, resource)
            token = self.id_token
            assert token is not None
            id_token = token.read(server) if isinstance(token, Source) else await _called(token, audience, resource)
            return await self._exchange(server, id_token, audience, resource)

        return id_jag

    async def _exchange(self, server: str, id_token: str, audience: str, resource: str) -> str:
        """RFC 8693 at the identity provider: the ID token for an ID-JAG for ``audience``'s ``resource``."""
        assert self.idp_token_endpoint is not None
        data = {
            "grant_type": TOKEN_EXCHANGE,
            "subject_token": id_token,
            "subject_token_type": ID_TOKEN_TYPE,
            "requested_token_type": ID_JAG_TYPE,
            "audience": audience,
            "resource": resource,
        }
        if self.idp_client_id:
            data["client_id"] = self.idp_client_id
        if self.idp_secret is not None:
            data["client_secret"] = self.idp_secret.read(server)
        async with httpx2.AsyncClient(timeout=30) as client:
            answer = await client.post(self.idp_token_endpoint, data=data)
        try:
            issued = answer.json() if answer.status_code == 200 else {}
        except ValueError:
            issued = {}
        value = issued.get("access_token") if isinstance(issued, dict) else None
        if not isinstance(value, str) or not value:
            raise OAuthTokenError(
                f"the identity provider at {self.idp_token_endpoint} did not exchange the ID token for an ID-JAG "
                f"(HTTP {answer.status_code})"
            )
        return value
