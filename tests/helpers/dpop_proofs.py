"""The server side of DPoP (RFC 9449) for tests/helpers/oauth_server.py: a proof checked as an
authorization server or an MCP server checks it, written apart from anvia_nb's client."""

from __future__ import annotations

import base64
import hashlib
import json
import time
from typing import Any

import jwt

__all__ = ["Proofs"]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def thumbprint(jwk: dict[str, Any]) -> str:
    """RFC 7638: the key's SHA-256 thumbprint over its required members, in order."""
    required = {name: jwk[name] for name in ("crv", "kty", "x", "y")}
    return _b64(hashlib.sha256(json.dumps(required, separators=(",", ":"), sort_keys=True).encode()).digest())


class Proofs:
    """Every proof seen (its ``jti``), and why one was refused."""

    def __init__(self) -> None:
        self.jtis: list[str] = []
        self.refusals: list[str] = []

    def key_of(self, proof: str | None, method: str, url: str, token: str | None = None) -> str | None:
        """The thumbprint of the key that signed ``proof`` for this request, or ``None`` (and why)."""
        if not proof:
            return self._refused("no DPoP proof")
        try:
            header = jwt.get_unverified_header(proof)
            key = jwt.PyJWK(header["jwk"], algorithm="ES256")
            claims = jwt.decode(proof, key.key, algorithms=["ES256"])
        except (jwt.PyJWTError, KeyError, TypeError) as exc:
            return self._refused(f"a proof that does not verify ({type(exc).__name__})")
        if header.get("typ") != "dpop+jwt" or "d" in header["jwk"]:
            return self._refused("a proof header that is not a public dpop+jwt")
        if claims.get("htm") != method or claims.get("htu") != url or abs(time.time() - claims.get("iat", 0)) > 300:
            return self._refused(f"a proof for {claims.get('htm')} {claims.get('htu')}, not {method} {url}")
        if token is not None and claims.get("ath") != _b64(hashlib.sha256(token.encode()).digest()):
            return self._refused("a proof for another token")
        if claims.get("jti") in self.jtis:
            return self._refused("a proof used twice")
        self.jtis.append(str(claims.get("jti")))
        return thumbprint(header["jwk"])

    def _refused(self, why: str) -> str | None:
        self.refusals.append(why)
        return None
