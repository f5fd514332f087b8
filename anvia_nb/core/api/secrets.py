"""Which values of a connection are secrets, and where each was found (core only discovers
them; masking is :class:`anvia_nb.policy.ShowPolicy`'s). The rules are in
:mod:`anvia_nb.core.api.connections`' docstring.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from urllib.parse import parse_qsl, unquote, urlsplit

from anvia_nb.policy import maskable

__all__ = [
    "Named",
    "arg_secrets",
    "header_secrets",
    "is_secret_header",
    "is_secret_name",
    "secret_values",
    "unmasked_places",
    "url_secrets",
]

_SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASS|AUTH|CREDENTIAL", re.IGNORECASE)
_SECRET_HEADER = re.compile(r"TOKEN|KEY|SECRET|PASS|AUTH|CREDENTIAL|COOKIE|SESSION|SIGNATURE", re.IGNORECASE)
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s\"'<>]+")
_OPTION = re.compile(r"^-{1,2}([A-Za-z0-9][A-Za-z0-9_.\-]*)(?:=(.*))?$", re.DOTALL)
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_.\-]*)=(.*)$", re.DOTALL)

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
