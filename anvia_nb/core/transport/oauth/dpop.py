"""DPoP (RFC 9449, the MCP extension SEP-1932): access tokens bound to a key this client holds.

:class:`DPoPAuth` wraps the SDK's OAuth provider (any grant) and changes nothing until the
authorization server's metadata lists ``ES256`` among its ``dpop_signing_alg_values_supported``.
From then on:

- every token request (a code, a refresh, a machine's grant) carries a ``DPoP`` proof for the
  token endpoint; a token answered with ``token_type`` ``DPoP`` is bound to the key, and the key is
  kept in the token cache file beside it (a kernel restart keeps using both);
- every request that carries a bound token says ``Authorization: DPoP <token>`` with a fresh proof
  (its own ``jti``, the method and URL, the token's hash ``ath``);
- a ``use_dpop_nonce`` answer (HTTP 400 from the token endpoint, 401 from the MCP server) is
  retried once with the nonce it gave, and later proofs to that origin carry the latest one.

The SDK's provider sees what it knows: a Bearer token. Only the headers and the token type
differ on the wire.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import AsyncGenerator
from typing import Any
from urllib.parse import urlsplit

import httpx2
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from anvia_nb.core.transport.oauth.tokens import TokenFile

__all__ = ["DPoPAuth"]

ALGORITHM = "ES256"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _target(url: httpx2.URL) -> str:
    """The proof's ``htu``: the URL without its query and fragment."""
    return str(url.copy_with(query=None, fragment=None))


class _Key:
    """A P-256 key pair and the public JWK that goes in each proof's header."""

    def __init__(self, private: ec.EllipticCurvePrivateKey) -> None:
        self.private = private
        numbers = private.public_key().public_numbers()
        self.jwk = {
            "kty": "EC",
            "crv": "P-256",
            "x": _b64(numbers.x.to_bytes(32, "big")),
            "y": _b64(numbers.y.to_bytes(32, "big")),
        }

    @classmethod
    def new(cls) -> _Key:
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def from_pem(cls, pem: str) -> _Key | None:
        try:
            private = serialization.load_pem_private_key(pem.encode(), password=None)
        except ValueError:
            return None
        return cls(private) if isinstance(private, ec.EllipticCurvePrivateKey) else None

    def pem(self) -> str:
        return self.private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode()

    def proof(self, method: str, url: httpx2.URL, *, token: str | None = None, nonce: str | None = None) -> str:
        claims: dict[str, Any] = {
            "jti": secrets.token_urlsafe(16),
            "htm": method,
            "htu": _target(url),
            "iat": int(time.time()),
        }
        if token is not None:
            claims["ath"] = _b64(hashlib.sha256(token.encode()).digest())
        if nonce is not None:
            claims["nonce"] = nonce
        return jwt.encode(claims, self.private, algorithm=ALGORITHM, headers={"typ": "dpop+jwt", "jwk": self.jwk})


def _json(response: httpx2.Response) -> dict[str, Any]:
    try:
        value = json.loads(response.content)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


class DPoPAuth(httpx2.Auth):
    """The SDK's OAuth provider ``inner``, with DPoP once the authorization server offers it."""

    def __init__(self, inner: httpx2.Auth, store: TokenFile) -> None:
        self.inner = inner
        self.store = store
        self.offered = False  # the authorization server's metadata lists ES256 for DPoP
        self.nonces: dict[str, str] = {}  # origin -> the latest DPoP-Nonce it gave
        pem = store.dpop_key()
        self.key = _Key.from_pem(pem) if pem else None  # set: the cached tokens are bound to it

    @property
    def failure(self) -> Any:  # any: the SDK provider's own failure object
        """The authorization failure the inner provider kept (see ``core/transport/connection_errors.py``)."""
        return getattr(self.inner, "failure", None)

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        flow = self.inner.async_auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                used = self._prove(outgoing)
                response = yield outgoing
                if await self._asks_nonce(outgoing, response, used):
                    self._prove(outgoing)
                    response = yield outgoing
                outgoing = await flow.asend(await self._learn(outgoing, response))
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()

    def _prove(self, request: httpx2.Request) -> str | None:
        """Give ``request`` a fresh proof when DPoP is in use; the nonce the proof carries."""
        nonce = self.nonces.get(_origin(str(request.url)))
        if _is_token_request(request):
            if self.offered or self.key is not None:
                self.key = self.key or _Key.new()
                request.headers["DPoP"] = self.key.proof("POST", request.url, nonce=nonce)
            return nonce
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if self.key is not None and token and scheme.lower() in ("bearer", "dpop"):
            request.headers["Authorization"] = f"DPoP {token}"
            request.headers["DPoP"] = self.key.proof(request.method, request.url, token=token, nonce=nonce)
        return nonce

    async def _asks_nonce(self, request: httpx2.Request, response: httpx2.Response, used: str | None) -> bool:
        """Whether ``response`` refused the proof for want of the nonce it gives (RFC 9449 §8, §9):
        the request is then sent once more with it. Either way the origin's latest nonce is kept."""
        nonce = response.headers.get("DPoP-Nonce")
        if not nonce or "DPoP" not in request.headers:
            return False
        self.nonces[_origin(str(request.url))] = nonce
        if nonce == used:
            return False
        if response.status_code == 401:
            return "use_dpop_nonce" in response.headers.get("WWW-Authenticate", "")
        if response.status_code == 400 and _is_token_request(request):
            await response.aread()
            return _json(response).get("error") == "use_dpop_nonce"
        return False

    async def _learn(self, request: httpx2.Request, response: httpx2.Response) -> httpx2.Response:
        """Learn from ``response`` (the authorization server's metadata, a token, a nonce) and hand
        the SDK what it knows: a DPoP-bound token is given to it as a Bearer token."""
        nonce = response.headers.get("DPoP-Nonce")
        if nonce:
            self.nonces[_origin(str(request.url))] = nonce
        if request.method == "GET" and response.status_code == 200 and _is_server_metadata(request.url.path):
            await response.aread()
            self.offered = ALGORITHM in (_json(response).get("dpop_signing_alg_values_supported") or ())
            return response
        if not (_is_token_request(request) and response.status_code == 200 and "DPoP" in request.headers):
            return response
        await response.aread()
        issued = _json(response)
        if str(issued.get("token_type", "")).lower() != "dpop":
            self.key = None  # a Bearer token after all: nothing is bound
            self.store.bind_next_tokens(None)
            return response
        assert self.key is not None
        self.store.bind_next_tokens(self.key.pem())  # the SDK stores the tokens next, in this store
        issued["token_type"] = "Bearer"  # the SDK's token model takes no other; the binding is kept here
        dropped = ("content-length", "content-encoding")
        kept = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in dropped]
        return httpx2.Response(response.status_code, headers=kept, json=issued, request=response.request)


def _is_server_metadata(path: str) -> bool:
    return "/.well-known/oauth-authorization-server" in path or "/.well-known/openid-configuration" in path


def _is_token_request(request: httpx2.Request) -> bool:
    """A token request: a form POST with a ``grant_type`` (a code, a refresh, a machine's grant)."""
    if request.method != "POST" or "application/x-www-form-urlencoded" not in request.headers.get("content-type", ""):
        return False
    try:
        body = request.content
    except httpx2.RequestNotRead:
        return False
    return b"grant_type=" in body
