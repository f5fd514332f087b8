"""Which values of a connection are secrets, and where each was found (core only discovers
them; masking is :class:`anvia_nb.policy.ShowPolicy`'s): the one place the rules are decided.

A secret is the value of a credential header (Authorization, Cookie, X-Api-Key, any name with
TOKEN, KEY, SECRET, PASS, AUTH, CREDENTIAL, COOKIE, SESSION or SIGNATURE in it), the token after
``Bearer``; a URL's user name and password and every query value (``sig=``, ``code=`` carry no
marker); an env value whose name marks it, and the user name, password and query values of a URL
in any env value (``DATABASE_URL=postgres://app:PASSWORD@db``, a Sentry DSN); the value after a
command-line option or ``NAME=`` whose name marks it (``--api-key VALUE``, ``--token=VALUE``) and
the secrets of a URL in an argument. Values shorter than :data:`~anvia_nb.policy.MIN_SECRET_CHARS`
are not masked: a connection's ``unmasked()`` names them so the connect output can say so.
An OAuth token is a secret from the moment a request carries it (the transport tells the client).

Two rules hold whatever a value's name or place: every value a connection's settings took from
the kernel's environment (``--env NAME``, ``--secret-env NAME``, ``$NAME`` in a connect line,
``${NAME}`` anywhere in a config file: ``from_environ``) is a secret, and so is any text in them
shaped like a well-known credential (:data:`TOKEN_FORMATS`: ``ghp_…``, ``github_pat_…``, ``sk-…``,
``xoxb-…``, ``AKIA…``...). Artifacts that leave the kernel (a generated test, a pickle for a Dask
worker) write such a value as the *name* of its environment variable (:func:`environ_parts`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Protocol
from urllib.parse import parse_qsl, unquote, urlsplit

from anvia_nb.policy import MIN_SECRET_CHARS, maskable

__all__ = [
    "TOKEN_FORMATS",
    "Named",
    "arg_secrets",
    "environ_names",
    "environ_parts",
    "environ_secrets",
    "header_secrets",
    "is_secret_header",
    "is_secret_name",
    "secret_values",
    "token_secrets",
    "unmasked_note",
    "unmasked_places",
    "url_secrets",
]

_SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASS|AUTH|CREDENTIAL", re.IGNORECASE)
_SECRET_HEADER = re.compile(r"TOKEN|KEY|SECRET|PASS|AUTH|CREDENTIAL|COOKIE|SESSION|SIGNATURE", re.IGNORECASE)
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s\"'<>]+")
_OPTION = re.compile(r"^-{1,2}([A-Za-z0-9][A-Za-z0-9_.\-]*)(?:=(.*))?$", re.DOTALL)
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_.\-]*)=(.*)$", re.DOTALL)

_EDGE = r"(?<![A-Za-z0-9_\-])"
TOKEN_FORMATS = re.compile(
    _EDGE
    + "(?:"
    + "|".join(
        (
            r"gh[pousr]_[A-Za-z0-9]{20,}",  # GitHub: personal, OAuth, user-to-server, server, refresh tokens
            r"github_pat_[A-Za-z0-9_]{20,}",  # GitHub fine-grained personal access token
            r"sk-[A-Za-z0-9_\-]{16,}",  # OpenAI (sk-, sk-proj-), Anthropic (sk-ant-...), DeepSeek and others
            r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",  # Stripe
            r"xox[abposre]-[A-Za-z0-9\-]{10,}",  # Slack bot, user, app, refresh tokens
            r"xapp-[A-Za-z0-9\-]{10,}",  # Slack app-level token
            r"(?:AKIA|ASIA)[A-Z0-9]{16}",  # AWS access key id (long-lived, temporary)
            r"AIza[A-Za-z0-9_\-]{35}",  # Google API key
            r"glpat-[A-Za-z0-9_\-]{20,}",  # GitLab personal access token
            r"hf_[A-Za-z0-9]{30,}",  # Hugging Face
            r"npm_[A-Za-z0-9]{36}",  # npm
            r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",  # a JWT (an OAuth access token)
        )
    )
    + ")"
)
"""Credentials recognised by their shape, whatever the name they are given under."""

Named = tuple[tuple[str, str], ...]
"""Secrets with where they were found (``("env AUTH_TOKEN", value)``), for the connect note."""


def is_secret_name(name: str) -> bool:
    """Whether an env or query name marks its value as a secret (TOKEN, KEY, SECRET, PASS...)."""
    return bool(_SECRET_NAME.search(name))


def is_secret_header(name: str) -> bool:
    """Whether a header carries a credential: Authorization, Cookie, X-Api-Key, X-Auth-Token...

    ``X-Api-Version`` or ``Accept`` do not: their values are shown as they are.
    """
    return bool(_SECRET_HEADER.search(name))


def url_secrets(text: str, where: str) -> Named:
    """The user name, password and every query or fragment value of each URL in ``text``."""
    found: list[tuple[str, str]] = []
    for match in _URL.finditer(text):
        try:
            parts = urlsplit(match.group())
            username, password = parts.username, parts.password
        except ValueError:
            continue
        for label, value in (("user name", username), ("password", password)):
            if value:
                found.append((f"{where} URL {label}", value))
                found.append((f"{where} URL {label}", unquote(value)))
        for key, value in (*parse_qsl(parts.query), *parse_qsl(parts.fragment)):
            if value:
                found.append((f"{where} URL query {key}", value))
    return tuple(found)


def header_secrets(headers: Mapping[str, str]) -> Named:
    found: list[tuple[str, str]] = []
    for key, value in headers.items():
        if not value or not is_secret_header(key):
            continue
        found.append((f"header {key}", value))
        # "Bearer abc", "Basic abc": the credential alone is a secret too
        found.extend((f"header {key}", part) for part in value.split()[1:])
    return tuple(found)


def arg_secrets(args: Sequence[str]) -> Named:
    """``--api-key VALUE``, ``--token=VALUE``, ``API_KEY=VALUE`` and URLs in a command line."""
    found: list[tuple[str, str]] = []
    for index, arg in enumerate(args):
        found.extend(url_secrets(arg, f"argument {index}"))
        option, assignment = _OPTION.match(arg), _ASSIGNMENT.match(arg)
        if option and is_secret_name(option.group(1)):
            if option.group(2) is not None:
                found.append((f"option --{option.group(1)}", option.group(2)))
            elif index + 1 < len(args) and not args[index + 1].startswith("-"):
                found.append((f"option --{option.group(1)}", args[index + 1]))
        elif assignment and is_secret_name(assignment.group(1)):
            found.append((f"argument {assignment.group(1)}", assignment.group(2)))
    return tuple(found)


def token_secrets(text: str, where: str) -> Named:
    """Every well-known credential in ``text`` (:data:`TOKEN_FORMATS`), named by its place."""
    return tuple((f"{where} (a credential by its format)", m.group()) for m in TOKEN_FORMATS.finditer(text))


def environ_secrets(from_environ: Mapping[str, str]) -> Named:
    """Each value taken from the kernel's environment: a secret, whatever its variable's name."""
    return tuple((f"environment variable {name}", value) for name, value in from_environ.items() if value)


def environ_names(
    secrets: Sequence[str],
    from_environ: Mapping[str, str],
    environ: Mapping[str, str],
    env: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """For each secret that can be read from an environment by name, that name: first the
    variables the connection took it from (``from_environ``), then a server ``env`` entry the
    kernel has too, with the same value (``DATABASE_URL=postgres://app:PASSWORD@db``: the whole
    value), then any variable of ``environ`` (this process's) holding exactly that value. Values
    too short to mask are left out (they are not secrets anywhere)."""
    names: dict[str, str] = {}
    for name, value in from_environ.items():
        if maskable(value):
            names.setdefault(value, name)
    for key, value in (env or {}).items():
        if environ.get(key) == value and maskable(value) and any(s in value for s in secrets if s):
            names.setdefault(value, key)
    wanted = {s for s in secrets if maskable(s) and not any(s in value for value in names)}
    if wanted:
        for name, value in sorted(environ.items()):
            if value in wanted:
                names.setdefault(value, name)
    return names


def environ_parts(text: str, names: Mapping[str, str]) -> tuple[tuple[str, bool], ...]:
    """``text`` cut into literal parts ``(text, False)`` and environment variables ``(NAME, True)``
    wherever a value of ``names`` (value -> name, see :func:`environ_names`) occurs; longest first."""
    if not names or not text:
        return ((text, False),)
    pattern = re.compile("|".join(re.escape(v) for v in sorted(names, key=len, reverse=True)))
    parts: list[tuple[str, bool]] = []
    kept = 0
    for match in pattern.finditer(text):
        if match.start() > kept:
            parts.append((text[kept : match.start()], False))
        parts.append((names[match.group()], True))
        kept = match.end()
    if kept < len(text) or not parts:
        parts.append((text[kept:], False))
    return tuple(parts)


def secret_values(named: Named) -> tuple[str, ...]:
    return tuple(dict.fromkeys(value for _, value in named if value))


def unmasked_places(named: Named) -> tuple[str, ...]:
    """Where a value named as a secret was too short to mask, each place once (a URL's user name
    or query value is a secret by position only: a short one, ``page=2``, is not worth a note)."""
    return tuple(
        dict.fromkeys(
            where
            for where, value in named
            if value and not maskable(value) and not where.endswith(" URL user name") and " URL query " not in where
        )
    )


class _Named(Protocol):
    @property
    def name(self) -> str: ...

    def unmasked(self) -> tuple[str, ...]: ...


def unmasked_note(connection: _Named) -> str | None:
    """The connect output's note naming the secrets too short to mask, or ``None``."""
    places = connection.unmasked()
    if not places:
        return None
    return (
        f"note: {connection.name}: {', '.join(places)} {'is' if len(places) == 1 else 'are'} shorter than "
        f"{MIN_SECRET_CHARS} characters, too short to be a secret, so {'it is' if len(places) == 1 else 'they are'} "
        "not masked."
    )
