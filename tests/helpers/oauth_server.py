"""A small OAuth 2.1 authorization server and an OAuth-protected MCP server, on 127.0.0.1, in a
thread of the test.

One origin serves both: authorization-server metadata (RFC 8414), dynamic client registration
(RFC 7591), ``/authorize`` (PKCE S256 required; it approves at once, as a person who clicks
"Allow" would, and redirects with the code and state), ``/token`` (authorization code and
refresh), protected-resource metadata (RFC 9728) and the demo MCP server at ``/mcp``, which
answers 401 with ``WWW-Authenticate`` to a request without a valid bearer token.

Attributes the tests change: ``deny`` (``/authorize`` redirects with ``error=access_denied``),
``refresh_ok``, ``expires_in``, ``issuer`` (metadata naming another issuer than the one the
resource names: hostile), ``step_up`` (tool name: a scope its calls need beyond ``tools``; a call
with a token without it is answered 403 ``insufficient_scope``, the spec's step-up), ``refused``
(scopes left out of what is granted). Counters:
``registrations``, ``authorizations``, ``refreshes``.

Machines too: ``/token`` takes the ``client_credentials`` grant from the clients in ``secrets``
(``client_secret_basic`` or ``client_secret_post``) and ``keys`` (``private_key_jwt``: a JWT
signed with the client's key, whose audience is the issuer). ``uses_per_token`` (``None``: no
limit) is how many MCP requests a token issued for that grant serves before the server stops
taking it (401), as when it expires: the server, not a clock, decides when a client must ask
again. ``issued`` lists ``(client_id, token)`` for each token granted to a machine.

Enterprise-managed authorization: ``/idp/token`` plays the company's identity provider, exchanging
an ID token of ``id_tokens`` (RFC 8693) for an ID-JAG whose audience is the issuer and resource
this server; ``/token`` takes an ID-JAG it issued with the jwt-bearer grant from a client of
``secrets`` (``client_secret_basic``). ``exchanges`` counts the ID tokens exchanged.

DPoP (``dpop = True``): the metadata offers ES256 proofs, a code or refresh token is exchanged only
with a valid proof and its tokens are bound to that key (``token_type`` DPoP), and ``/mcp`` takes a
bound token only as ``Authorization: DPoP`` with a fresh proof for it (tests/helpers/dpop_proofs.py,
whose ``proofs`` keeps every ``jti`` and why one was refused).
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import socket
import threading
from typing import Any
from urllib.parse import urlencode

import jwt
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from anvia_nb.demo_server.handlers import build_server
from tests.helpers.dpop_proofs import Proofs
from tests.helpers.waiting import wait_until

SCOPE = "tools"
PRE_REGISTERED = "anvia-test-client"


class OAuthTestServer:
    def __init__(self) -> None:
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self.port = int(self._socket.getsockname()[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/mcp"
        self.issuer = self.base
        self.deny = False
        self.refresh_ok = True
        self.expires_in = 3600
        self.registrations = 0
        self.authorizations = 0
        self.refreshes = 0
        self.clients: dict[str, list[str]] = {PRE_REGISTERED: []}
        self.codes: dict[str, dict[str, str]] = {}
        self.access: set[str] = set()
        self.refresh: set[str] = set()
        self.granted: dict[str, str] = {}  # each token's scope, as issued
        self.step_up: dict[str, str] = {}
        self.refused: set[str] = set()  # scopes never granted, though asked for
        self.secrets: dict[str, str] = {}  # client_credentials clients: ID -> secret
        self.keys: dict[str, str] = {}  # private_key_jwt clients: ID -> public key (PEM)
        self.uses_per_token: int | None = None
        self.uses: dict[str, int] = {}
        self.issued: list[tuple[str, str]] = []
        self.refusals: list[str] = []  # why a machine's token request was refused
        self.id_tokens: set[str] = set()
        self.id_jags: set[str] = set()
        self.workloads: dict[str, str] = {}  # workload identity: a platform's token -> the client ID it is for
        self.workload_grants: list[str] = []  # the workload tokens taken, in order
        self.exchanges = 0
        self.dpop = False
        self.proofs = Proofs()
        self.bound: dict[str, str] = {}  # a DPoP-bound token -> its key's thumbprint
        self._mcp = build_server().streamable_http_app(host="127.0.0.1")
        self._oauth = Starlette(
            routes=[
                Route("/.well-known/oauth-authorization-server", self._metadata),
                Route("/.well-known/oauth-protected-resource/mcp", self._resource),
                Route("/register", self._register, methods=["POST"]),
                Route("/authorize", self._authorize),
                Route("/token", self._token, methods=["POST"]),
                Route("/idp/token", self._idp_token, methods=["POST"]),
            ]
        )
        # A client's open event stream would hold a graceful shutdown forever: give it one second.
        config = uvicorn.Config(
            self._app,
            log_level="warning",
            access_log=False,
            lifespan="on",
            interface="asgi3",
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True)

    def start(self) -> OAuthTestServer:
        self._thread.start()
        wait_until(lambda: self._server.started or not self._thread.is_alive(), "the OAuth test server")
        if not self._server.started:
            raise RuntimeError("the OAuth test server did not start")
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(30)
        self._socket.close()

    # -- the ASGI app ---------------------------------------------------------------------

    async def _app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._mcp(scope, receive, send)
            return
        if scope["type"] == "http" and scope["path"].startswith("/mcp"):
            headers = dict(scope["headers"])
            token = self._presented(headers, scope["method"])
            if token in self.uses and scope["method"] == "POST":
                self.uses[token] -= 1
                if self.uses[token] < 0:  # used up: the server no longer takes it
                    self.access.discard(token)
            if token not in self.access:
                challenge = (
                    f'Bearer resource_metadata="{self.base}/.well-known/oauth-protected-resource/mcp", scope="{SCOPE}"'
                )
                response = JSONResponse({"error": "invalid_token"}, 401, {"WWW-Authenticate": challenge})
                await response(scope, receive, send)
                return
            app: ASGIApp = self._mcp
            if self.step_up and scope["method"] == "POST":
                receive, needed = await self._scope_needed(receive)
                if needed and needed not in self.granted.get(token, "").split():
                    challenge = (
                        f'Bearer error="insufficient_scope", scope="{SCOPE} {needed}", '
                        f'resource_metadata="{self.base}/.well-known/oauth-protected-resource/mcp"'
                    )
                    response = JSONResponse({"error": "insufficient_scope"}, 403, {"WWW-Authenticate": challenge})
                    await response(scope, receive, send)
                    return
        else:
            app = self._oauth
        await app(scope, receive, send)

    def _presented(self, headers: dict[bytes, bytes], method: str) -> str:
        """The token a request presents as it must: a bound one with ``DPoP`` and its proof, any
        other with ``Bearer``; ``""`` otherwise."""
        scheme, _, token = headers.get(b"authorization", b"").decode().partition(" ")
        if token not in self.bound:
            return token if scheme == "Bearer" else ""
        key = self.proofs.key_of(headers.get(b"dpop", b"").decode(), method, self.url, token)
        return token if scheme == "DPoP" and key == self.bound[token] else ""

    async def _scope_needed(self, receive: Receive) -> tuple[Receive, str]:
        """The scope a tools/call in this request's body needs (``step_up``), and a ``receive`` that
        gives the body again to the MCP app."""
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
        try:
            request = json.loads(body)
        except ValueError:
            request = None
        needed = ""
        if isinstance(request, dict) and request.get("method") == "tools/call":
            needed = self.step_up.get(str((request.get("params") or {}).get("name")), "")
        given = False

        async def again() -> Any:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return again, needed

    async def _metadata(self, request: Request) -> Response:
        return JSONResponse(
            {
                "issuer": self.issuer,
                "authorization_endpoint": f"{self.base}/authorize",
                "token_endpoint": f"{self.base}/token",
                "registration_endpoint": f"{self.base}/register",
                "response_types_supported": ["code"],
                "grant_types_supported": [
                    "authorization_code",
                    "refresh_token",
                    "client_credentials",
                    "urn:ietf:params:oauth:grant-type:jwt-bearer",
                ],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": [
                    "none",
                    "client_secret_basic",
                    "client_secret_post",
                    "private_key_jwt",
                ],
                "scopes_supported": [SCOPE],
                **({"dpop_signing_alg_values_supported": ["ES256"]} if self.dpop else {}),
            }
        )

    async def _resource(self, request: Request) -> Response:
        return JSONResponse({"resource": self.url, "authorization_servers": [self.base], "scopes_supported": [SCOPE]})

    async def _register(self, request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        client_id = secrets.token_urlsafe(12)
        self.clients[client_id] = [str(uri) for uri in body.get("redirect_uris") or []]
        self.registrations += 1
        return JSONResponse({**body, "client_id": client_id, "token_endpoint_auth_method": "none"}, status_code=201)

    def _redirect_allowed(self, client_id: str, redirect_uri: str) -> bool:
        if client_id not in self.clients:
            return False
        if client_id == PRE_REGISTERED:  # RFC 8252 7.3: a loopback redirect may use any port
            return redirect_uri.startswith("http://127.0.0.1:")
        return redirect_uri in self.clients[client_id]

    async def _authorize(self, request: Request) -> Response:
        query = request.query_params
        redirect_uri, state = query.get("redirect_uri", ""), query.get("state", "")
        if not self._redirect_allowed(query.get("client_id", ""), redirect_uri):
            return JSONResponse({"error": "invalid_request"}, 400)
        if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return JSONResponse({"error": "invalid_request", "error_description": "PKCE S256 required"}, 400)
        if self.deny:
            return RedirectResponse(f"{redirect_uri}?{urlencode({'error': 'access_denied', 'state': state})}", 302)
        code = secrets.token_urlsafe(16)
        self.codes[code] = {
            "client_id": query["client_id"],
            "redirect_uri": redirect_uri,
            "challenge": query["code_challenge"],
            "scope": " ".join(s for s in query.get("scope", SCOPE).split() if s not in self.refused) or SCOPE,
        }
        self.authorizations += 1
        return RedirectResponse(f"{redirect_uri}?{urlencode({'code': code, 'state': state})}", 302)

    def _tokens(self, scope: str = SCOPE, key: str | None = None) -> Response:
        access, refresh = "at-" + secrets.token_urlsafe(24), "rt-" + secrets.token_urlsafe(24)
        self.access.add(access)
        self.refresh.add(refresh)
        self.granted[access] = self.granted[refresh] = scope
        if key is not None:
            self.bound[access] = self.bound[refresh] = key
        return JSONResponse(
            {
                "access_token": access,
                "token_type": "DPoP" if key is not None else "Bearer",
                "expires_in": self.expires_in,
                "refresh_token": refresh,
                "scope": scope,
            },
            headers={"Cache-Control": "no-store"},
        )

    async def _token(self, request: Request) -> Response:
        form = await request.form()
        grant = form.get("grant_type")
        key = self.proofs.key_of(request.headers.get("dpop"), "POST", f"{self.base}/token") if self.dpop else None
        if self.dpop and key is None:
            return JSONResponse({"error": "invalid_dpop_proof"}, 400)
        if grant == "authorization_code":
            issued = self.codes.pop(str(form.get("code")), None)
            verifier = str(form.get("code_verifier", ""))
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
            if issued is None or issued["challenge"] != challenge or issued["redirect_uri"] != form.get("redirect_uri"):
                return JSONResponse({"error": "invalid_grant"}, 400)
            return self._tokens(issued["scope"], key)
        if grant == "refresh_token":
            old = str(form.get("refresh_token"))
            if not self.refresh_ok or old not in self.refresh or self.bound.get(old, key) != key:
                return JSONResponse({"error": "invalid_grant"}, 400)
            self.refresh.discard(old)
            self.refreshes += 1
            return self._tokens(self.granted.get(old, SCOPE), key)
        if grant == "client_credentials":
            return self._machine_token(request, form)
        if grant == "urn:ietf:params:oauth:grant-type:jwt-bearer" and str(form.get("assertion")) in self.workloads:
            return self._workload_token(form)
        if grant == "urn:ietf:params:oauth:grant-type:jwt-bearer":
            if str(form.get("assertion")) not in self.id_jags:
                self.refusals.append("an unknown ID-JAG")
                return JSONResponse({"error": "invalid_grant"}, 400)
            return self._machine_token(request, form)
        return JSONResponse({"error": "unsupported_grant_type"}, 400)

    async def _idp_token(self, request: Request) -> Response:
        """The identity provider's token exchange: an ID token for an ID-JAG for this server."""
        form = await request.form()
        wanted = {
            "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
            "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
            "requested_token_type": "urn:ietf:params:oauth:token-type:id-jag",
            "audience": self.issuer,
            "resource": self.url,
        }
        wrong = [key for key, value in wanted.items() if form.get(key) != value]
        if wrong or str(form.get("subject_token")) not in self.id_tokens:
            self.refusals.append(f"token exchange: {wrong or 'an unknown ID token'}")
            return JSONResponse({"error": "invalid_request"}, 400)
        self.exchanges += 1
        jag = "jag-" + secrets.token_urlsafe(24)
        self.id_jags.add(jag)
        return JSONResponse(
            {"access_token": jag, "issued_token_type": wanted["requested_token_type"], "token_type": "N_A"}
        )

    def _workload_token(self, form: Any) -> Response:
        """Workload identity: the platform's token is the grant, for the client it names; no secret."""
        assertion, client_id = str(form["assertion"]), str(form.get("client_id", ""))
        if self.workloads[assertion] != client_id or form.get("client_secret") or form.get("client_assertion"):
            self.refusals.append(f"workload token for {client_id!r}")
            return JSONResponse({"error": "invalid_grant"}, 400)
        self.workload_grants.append(assertion)
        return self._issue(client_id, form)

    def _machine_token(self, request: Request, form: Any) -> Response:
        """A machine's grant: the client authenticated by a secret (Basic or in the body) or a signed assertion."""
        client_id = self._client_of(request, form)
        if client_id is None:
            return JSONResponse({"error": "invalid_client"}, 401)
        return self._issue(client_id, form)

    def _issue(self, client_id: str, form: Any) -> Response:
        access = "cc-" + secrets.token_urlsafe(24)
        self.access.add(access)
        self.granted[access] = str(form.get("scope") or SCOPE)
        if self.uses_per_token is not None:
            self.uses[access] = self.uses_per_token
        self.issued.append((client_id, access))
        body = {"access_token": access, "token_type": "Bearer", "expires_in": self.expires_in, "scope": SCOPE}
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    def _client_of(self, request: Request, form: Any) -> str | None:
        """The client that authenticated this token request, or ``None`` (and why, in ``refusals``)."""
        basic = request.headers.get("authorization", "")
        if basic.startswith("Basic "):
            client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
        elif form.get("client_secret"):
            client_id, secret = str(form.get("client_id", "")), str(form["client_secret"])
        elif form.get("client_assertion"):
            assertion = str(form["client_assertion"])
            client_id = str(jwt.decode(assertion, options={"verify_signature": False}).get("iss", ""))
            try:
                claims = jwt.decode(
                    assertion,
                    self.keys.get(client_id, ""),
                    algorithms=["RS256", "ES256"],
                    audience=[self.issuer, self.issuer + "/"],
                )
            except jwt.PyJWTError as exc:
                self.refusals.append(f"assertion: {type(exc).__name__}")
                return None
            return client_id if claims.get("sub") == client_id else None
        else:
            client_id, secret = "", ""
        if not client_id or self.secrets.get(client_id) != secret:
            self.refusals.append(f"client {client_id!r}")
            return None
        return client_id

    def revoke_all(self) -> None:
        """Every access token stops working (as when they expire on the server's side)."""
        self.access.clear()
