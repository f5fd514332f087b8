"""``%mcp connect NAME --oauth-client-credentials ...``, ``--oauth-workload-identity ...`` and
``--oauth-identity-assertion ...``: OAuth with no person at a browser, from the magic.

``--client-id ID`` and the secret's place: ``--secret-env NAME`` (the kernel's environment) or
``--secret-file PATH``; ``--auth-method client_secret_basic|client_secret_post|private_key_jwt``;
``--key-env NAME`` / ``--key-file PATH`` and ``--key-alg ALG`` (a PEM key that signs the
assertions); ``--assertion-env`` / ``--assertion-file`` (a ready-made one, a workload identity's);
``--issuer URL``; ``--scope S``. A workload identity takes the token its platform gives it,
``--token-file PATH`` (read anew at each token request) or ``--token-env NAME``. An identity
assertion takes ``--issuer`` (required), ``--id-token-env`` / ``--id-token-file`` with
``--idp-token-endpoint URL`` and ``--idp-client-id ID``, or the ID-JAG itself with
``--assertion-env`` / ``--assertion-file``. A value given where a place is expected
(``--client-secret``, ``--secret-env NAME=VALUE``) is refused: it would stay in the notebook.
The connect itself is ``%mcp connect --oauth``'s, with nobody to ask.
"""

from __future__ import annotations

from collections.abc import Callable

from anvia_nb.core.api.factories import mcp
from anvia_nb.core.transport.oauth.settings import OAuth
from anvia_nb.errors import CommandLineError, InvalidValueError
from anvia_nb.magic.parse.oauth_words import MACHINE_FLAGS, MACHINE_OPTIONS

__all__ = ["MACHINE_FLAGS", "MACHINE_OPTIONS", "machine_settings"]

_LITERALS = ("--client-secret", "--secret", "--key", "--assertion", "--id-token", "--token")
_REFUSED = (
    "A secret typed in a cell would stay in the notebook: export it before starting Jupyter and give its name, "
    "--secret-env NAME (or --secret-file PATH; --key-env/--key-file for a private key)."
)


def machine_settings(words: list[str]) -> tuple[list[str], OAuth]:
    """The words left for the plain connect parser, and the OAuth settings the machine options make."""
    flag = next(w for w in words if w in MACHINE_FLAGS)
    kept: list[str] = []
    given: dict[str, str] = {}
    scopes: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--stdio":
            raise CommandLineError(f"{flag} is for one --http connection, not --stdio.")
        if word in MACHINE_FLAGS:
            if word != flag:
                raise CommandLineError(f"Choose one of {', '.join(MACHINE_FLAGS)}.")
            i += 1
            continue
        if word in _LITERALS or word.split("=")[0] in _LITERALS:
            raise CommandLineError(_REFUSED)
        if word in MACHINE_OPTIONS:
            if i + 1 >= len(words) or words[i + 1].startswith("-"):
                raise CommandLineError(f"{word} needs a value.")
            value = words[i + 1]
            if word.endswith("-env") and "=" in value:
                raise CommandLineError(_REFUSED)
            if word == "--scope":
                scopes.extend(value.split())
            else:
                given[word[2:].replace("-", "_")] = value
            i += 2
            continue
        kept.append(word)
        i += 1
    if "client_id" not in given:
        raise CommandLineError(f"{flag} needs --client-id ID, the ID the authorization server gave this client.")
    if "--oauth" in kept:
        raise CommandLineError(f"--oauth is a person's sign-in; {flag} needs none: drop --oauth.")
    try:
        return kept, _settings(flag, given, tuple(scopes))
    except InvalidValueError as exc:
        raise CommandLineError(_in_magic_words(str(exc))) from None


_TAKES = {
    "--oauth-client-credentials": ("client_id", "auth_method", "key_env", "key_file", "key_alg", "assertion_env",
                                   "assertion_file", "issuer", "secret_env", "secret_file"),
    "--oauth-workload-identity": ("client_id", "token_env", "token_file", "issuer"),
    "--oauth-identity-assertion": ("client_id", "auth_method", "issuer", "id_token_env", "id_token_file",
                                   "idp_token_endpoint", "idp_client_id", "assertion_env", "assertion_file",
                                   "secret_env", "secret_file"),
}  # fmt: skip


_FACTORIES: dict[str, Callable[..., OAuth]] = {
    "--oauth-client-credentials": mcp.client_credentials,
    "--oauth-workload-identity": mcp.workload_identity,
    "--oauth-identity-assertion": mcp.identity_assertion,
}
"""The factory each flag calls with the options given (``_TAKES`` says which it takes)."""

_KEYWORDS = {"secret_env": "client_secret_env", "secret_file": "client_secret_file"}
"""The factories' keywords the magic's options shorten; every other option is its keyword."""


def _settings(flag: str, given: dict[str, str], scopes: tuple[str, ...]) -> OAuth:
    other = sorted(set(given) - set(_TAKES[flag]))
    if other:
        raise CommandLineError(f"{flag} takes no --{other[0].replace('_', '-')}.")
    if flag == "--oauth-identity-assertion" and "issuer" not in given:
        raise CommandLineError("--oauth-identity-assertion needs --issuer URL, the MCP server's authorization server.")
    keywords = {_KEYWORDS.get(option, option): value for option, value in given.items()}
    return _FACTORIES[flag](**keywords, scopes=scopes)  # what is not given keeps the factory's default


def _in_magic_words(message: str) -> str:
    """A factory's message, its keyword arguments named as the magic's options."""
    for keyword in ("client_secret_env", "client_secret_file"):
        message = message.replace(f"{keyword}=", f"--{keyword.removeprefix('client_').replace('_', '-')} ")
    for keyword in (
        "key_env",
        "key_file",
        "key_alg",
        "assertion_env",
        "assertion_file",
        "id_token_env",
        "id_token_file",
        "idp_token_endpoint",
        "auth_method",
        "issuer",
        "token_env",
        "token_file",
    ):
        message = message.replace(f"{keyword}=", f"--{keyword.replace('_', '-')} ")
    return message
