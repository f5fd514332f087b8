"""``mcp.client_credentials(...)``, ``mcp.workload_identity(...)`` and ``mcp.identity_assertion(...)``:
OAuth settings for a notebook that is not a person at a browser (a scheduled run, a Dask cluster, a dashboard served
under a team's identity), the same from a config file, and what of them travels to another process.

Each returns an :class:`~anvia_nb.core.transport.oauth.settings.OAuth` whose ``grant`` names where the
secrets are: ``secret_env=NAME`` / ``secret_file=PATH`` (and ``key_…``, ``assertion_…``,
``id_token_…``). A value typed in the notebook is refused, with what to type instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, Literal
from urllib.parse import urlsplit

from anvia_nb._docs import fill_docstring
from anvia_nb.core.transport.oauth.grants import AUTH_METHODS, ClientCredentials, IdentityAssertion, WorkloadIdentity
from anvia_nb.core.transport.oauth.settings import OAUTH_DOCS, OAuth
from anvia_nb.core.transport.oauth.sources import source, source_from
from anvia_nb.core.transport.oauth.tokens import MEMORY
from anvia_nb.errors import InvalidValueError, SecretNotPortableError

__all__ = [
    "DEFAULT_KEY_ALG",
    "DEFAULT_SECRET_METHOD",
    "KEY_ALGORITHMS",
    "client_credentials",
    "identity_assertion",
    "oauth_from_mapping",
    "portable_auth",
    "workload_identity",
]

DEFAULT_KEY_ALG = "RS256"
"""What a private key signs its assertions with when ``key_alg`` is not given."""
DEFAULT_SECRET_METHOD: Literal["client_secret_basic"] = "client_secret_basic"
"""How an identity assertion's client authenticates with its secret when ``auth_method`` is not given."""
KEY_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
_LITERAL = (
    "A secret typed in the notebook would stay in its source: give client_secret_env=NAME (from the "
    "kernel's environment) or client_secret_file=PATH instead."
)


def _scopes(scopes: str | Iterable[str]) -> tuple[str, ...]:
    return tuple(str(s) for s in (scopes.split() if isinstance(scopes, str) else scopes))


def _url(value: str | None, what: str) -> str | None:
    if value is not None and urlsplit(str(value)).scheme not in ("http", "https"):
        raise InvalidValueError(f"{what} must be an http(s) URL, got {str(value)[:80]!r}.")
    return value


def _secret_method(method: str) -> Literal["client_secret_basic", "client_secret_post"]:
    """A method already checked to authenticate with a client secret, as its literal type."""
    return "client_secret_post" if method == "client_secret_post" else "client_secret_basic"


@fill_docstring(OAUTH_DOCS)
def client_credentials(
    *,
    client_id: str,
    client_secret_env: str | None = None,
    client_secret_file: str | None = None,
    auth_method: str | None = None,
    key_env: str | None = None,
    key_file: str | None = None,
    key_alg: str = DEFAULT_KEY_ALG,
    assertion: Callable[[str], Any] | None = None,
    assertion_env: str | None = None,
    assertion_file: str | None = None,
    scopes: str | Iterable[str] = (),
    issuer: str | None = None,
    token_dir: str | None = None,
    client_secret: object = None,
) -> OAuth:
    """The ``client_credentials`` grant for ``mcp.http(..., auth=...)``: a service account, no person.

    Parameters
    ----------
    client_id : str
        The ID the authorization server gave this client.
    client_secret_env, client_secret_file : str, optional
        The variable or file holding the client secret (``client_secret_basic``/``_post``).
    auth_method : str, optional
        ``"client_secret_basic"`` (the default with a secret), ``"client_secret_post"``, or
        ``"private_key_jwt"`` (the default with a key or an assertion).
    key_env, key_file : str, optional
        The variable or file holding the PEM private key each ``private_key_jwt`` assertion is signed with.
    key_alg : str, optional
        The signing algorithm (default ``"RS256"``; ``"ES256"``...).
    assertion : callable, optional
        A function of the audience returning a ready-made client assertion (a workload identity).
    assertion_env, assertion_file : str, optional
        The variable or file holding that assertion (the file is read anew at each token request).
    {scopes}
    issuer : str, optional
        The authorization server the credentials belong to: they are sent to no other.
    {token_dir}
    client_secret : None
        Refused: a value would stay in the notebook (use ``client_secret_env``/``_file``).

    Returns
    -------
    OAuth
        The settings, for ``auth=`` (portable to Dask workers, which read the same names).

    Raises
    ------
    InvalidValueError
        ``client_secret`` given, ``client_id`` missing, an unknown ``auth_method`` or ``key_alg``,
        a secret and a key mixed, or neither given.
    """
    if client_secret is not None:
        raise InvalidValueError(_LITERAL)
    if not isinstance(client_id, str) or not client_id:
        raise InvalidValueError("client_credentials needs client_id, the ID the authorization server gave this client.")
    signed = key_env is not None or key_file is not None
    given = assertion is not None or assertion_env is not None or assertion_file is not None
    method = auth_method or ("private_key_jwt" if signed or given else "client_secret_basic")
    if method not in AUTH_METHODS:
        raise InvalidValueError(f"auth_method must be one of {', '.join(AUTH_METHODS)}, not {str(method)[:40]!r}.")
    if method == "private_key_jwt":
        if client_secret_env is not None or client_secret_file is not None:
            raise InvalidValueError("private_key_jwt signs with a key, not a client secret: give key_env or key_file.")
        if signed and given:
            raise InvalidValueError("Give a signing key (key_env/key_file) or a ready-made assertion, not both.")
        if key_alg not in KEY_ALGORITHMS:
            raise InvalidValueError(f"key_alg must be one of {', '.join(KEY_ALGORITHMS)}, not {str(key_alg)[:20]!r}.")
        grant = ClientCredentials(
            "private_key_jwt",
            key=source("private key", key_env, key_file, option="key") if signed else None,
            key_alg=key_alg,
            assertion=source_from("client assertion", assertion, assertion_env, assertion_file, option="assertion")
            if given
            else None,
            issuer=_url(issuer, "issuer"),
        )
        if grant.key is None and grant.assertion is None:
            raise InvalidValueError("private_key_jwt needs key_env=NAME or key_file=PATH (a PEM private key).")
    else:
        if signed or given:
            raise InvalidValueError(f"{method} authenticates with a client secret: drop the key or assertion.")
        secret = source("client secret", client_secret_env, client_secret_file, option="client_secret")
        grant = ClientCredentials(_secret_method(method), secret=secret, issuer=_url(issuer, "issuer"))
    return OAuth(client_id=client_id, scopes=_scopes(scopes), token_dir=token_dir, grant=grant, wait_seconds=0.0)


@fill_docstring(OAUTH_DOCS)
def workload_identity(
    *,
    client_id: str,
    token_file: str | None = None,
    token_env: str | None = None,
    token: Callable[[str], Any] | None = None,
    scopes: str | Iterable[str] = (),
    issuer: str | None = None,
    token_dir: str | None = None,
) -> OAuth:
    """Workload identity federation (SEP-1933) for ``mcp.http(..., auth=...)``: no secret at all.

    The platform gives the workload a signed token (a Kubernetes service account token, a cloud's
    identity token, a CI job's OIDC token), sent as the assertion of the jwt-bearer grant (RFC 7523).

    Parameters
    ----------
    client_id : str
        The ID the authorization server knows this workload by.
    token_file : str, optional
        The file the platform writes the token to (read anew at each token request).
    token_env : str, optional
        The variable holding the token.
    token : callable, optional
        A function of the audience (the authorization server's issuer) returning the token.
    {scopes}
    issuer : str, optional
        The authorization server that trusts the platform (the token goes to no other).
    {token_dir}

    {returns}

    Raises
    ------
    InvalidValueError
        ``client_id`` missing, or none of ``token_file``, ``token_env``, ``token`` given.
    """
    if not isinstance(client_id, str) or not client_id:
        raise InvalidValueError(
            "A workload identity needs client_id, the ID the authorization server knows this workload by."
        )
    given = source_from("workload token", token, token_env, token_file, option="token")
    if given is None:
        raise InvalidValueError(
            "A workload identity needs token_file=PATH (the file the platform writes), or token_env=NAME."
        )
    grant = WorkloadIdentity(token=given, issuer=_url(issuer, "issuer"))
    return OAuth(client_id=client_id, scopes=_scopes(scopes), token_dir=token_dir, grant=grant, wait_seconds=0.0)


@fill_docstring(OAUTH_DOCS)
def identity_assertion(
    *,
    client_id: str,
    issuer: str,
    client_secret_env: str | None = None,
    client_secret_file: str | None = None,
    auth_method: str = DEFAULT_SECRET_METHOD,
    id_token: Callable[..., Any] | None = None,
    id_token_env: str | None = None,
    id_token_file: str | None = None,
    idp_token_endpoint: str | None = None,
    idp_client_id: str | None = None,
    idp_client_secret_env: str | None = None,
    assertion: Callable[..., Any] | None = None,
    assertion_env: str | None = None,
    assertion_file: str | None = None,
    scopes: str | Iterable[str] = (),
    token_dir: str | None = None,
    client_secret: object = None,
) -> OAuth:
    """Enterprise-managed authorization (SEP-990): the company's identity provider vouches.

    An ID token is exchanged at the identity provider for an ID-JAG (or the ID-JAG is given); the
    ID-JAG goes to ``issuer`` with this client's secret.

    Parameters
    ----------
    client_id : str
        This client's ID at the MCP server's authorization server.
    issuer : str
        The MCP server's authorization server.
    client_secret_env, client_secret_file : str, optional
        The variable or file holding this client's secret.
    auth_method : str, optional
        ``"client_secret_basic"`` (the default) or ``"client_secret_post"``.
    id_token : callable, optional
        A function of ``(audience, resource)`` returning the person's ID token.
    id_token_env, id_token_file : str, optional
        The variable or file holding the ID token.
    idp_token_endpoint : str, optional
        The identity provider's token endpoint (needed with an ID token).
    idp_client_id : str, optional
        This client's ID at the identity provider.
    idp_client_secret_env : str, optional
        The variable holding its secret there.
    assertion : callable, optional
        A function returning a ready-made ID-JAG instead of an ID token.
    assertion_env, assertion_file : str, optional
        The variable or file holding that ID-JAG.
    {scopes}
    {token_dir}
    client_secret : None
        Refused: a value would stay in the notebook.

    {returns}

    Raises
    ------
    InvalidValueError
        ``client_secret`` given, an unknown ``auth_method``, ``client_id`` missing, not exactly one
        of an ID token and an ID-JAG, or an ID token without ``idp_token_endpoint``.
    """
    if client_secret is not None:
        raise InvalidValueError(_LITERAL)
    if auth_method not in ("client_secret_basic", "client_secret_post"):
        raise InvalidValueError(f"auth_method must be client_secret_basic or client_secret_post, not {auth_method!r}.")
    if not isinstance(client_id, str) or not client_id:
        raise InvalidValueError("identity_assertion needs client_id, this client's ID at the MCP authorization server.")
    ready = source_from("ID-JAG", assertion, assertion_env, assertion_file, option="assertion")
    token = source_from("ID token", id_token, id_token_env, id_token_file, option="id_token")
    if (ready is None) == (token is None):
        raise InvalidValueError(
            "Give an ID token to exchange (id_token_env=, id_token_file= or id_token=) or an ID-JAG (assertion_env=, "
            "assertion_file= or assertion=): exactly one."
        )
    if token is not None and not idp_token_endpoint:
        raise InvalidValueError("An ID token is exchanged at the identity provider: give idp_token_endpoint=URL.")
    grant = IdentityAssertion(
        issuer=str(_url(issuer, "issuer")),
        secret=source("client secret", client_secret_env, client_secret_file, option="client_secret"),
        auth_method=_secret_method(auth_method),
        assertion=ready,
        id_token=token,
        idp_token_endpoint=_url(idp_token_endpoint, "idp_token_endpoint"),
        idp_client_id=idp_client_id,
        idp_secret=source(
            "identity provider's client secret", idp_client_secret_env, None, option="idp_client_secret", required=False
        ),
    )
    return OAuth(client_id=client_id, scopes=_scopes(scopes), token_dir=token_dir, grant=grant, wait_seconds=0.0)


_GRANTS: dict[str, Callable[..., OAuth]] = {
    "client_credentials": client_credentials,
    "identity_assertion": identity_assertion,
    "workload_identity": workload_identity,
}


def oauth_from_mapping(entry: Mapping[str, Any]) -> OAuth:
    """A config file's ``"oauth"`` object: ``{"grant": "client_credentials", "client_id": ...,
    "client_secret_env": ..., ...}`` with the keyword arguments of :func:`client_credentials` or
    :func:`identity_assertion`; ``${VAR}`` is not needed, names are given as names."""
    if not isinstance(entry, Mapping):
        raise InvalidValueError('"oauth" must be an object with "grant" and the grant\'s settings.')
    grant = entry.get("grant")
    factory = _GRANTS.get(str(grant))
    if factory is None:
        raise InvalidValueError(f'"oauth" needs "grant": one of {", ".join(_GRANTS)} (got {str(grant)[:40]!r}).')
    settings = {str(k): v for k, v in entry.items() if k != "grant"}
    if any(callable(v) for v in settings.values()) or {"assertion", "id_token"} & set(settings):
        raise InvalidValueError('"oauth" takes names of environment variables and files (…_env, …_file), not values.')
    try:
        return factory(**settings)
    except TypeError as exc:
        raise InvalidValueError(f'"oauth": {exc}'.replace(f"{factory.__name__}() ", "")) from None


def portable_auth(name: str, auth: object) -> OAuth:
    """``auth`` as another process receives it: the grant's names, tokens kept in that process's
    memory; refused (:class:`SecretNotPortableError`) for anything that holds a secret or a function."""
    if isinstance(auth, OAuth) and auth.grant is not None and auth.grant.portable() and not auth.client_secret:
        return replace(auth, token_dir=MEMORY, on_authorize=None)
    raise SecretNotPortableError(
        f"{name!r} cannot be sent to another process: its auth object holds a secret or a person's authorization. "
        "For Dask workers use mcp.client_credentials(client_id=..., client_secret_env=NAME) (or key_env/key_file), "
        "or mcp.workload_identity(client_id=..., token_file=PATH), which each worker reads from its own environment."
    )
