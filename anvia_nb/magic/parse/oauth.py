"""Parsing ``%mcp connect NAME --oauth ... --http URL``, ``--oauth-redirect URL``, the grants
with no person (``--oauth-client-credentials`` ..., :mod:`anvia_nb.magic.parse.oauth_machine`)
and ``%mcp logout``: the plain connect grammar (:mod:`anvia_nb.magic.parse.connect`) plus the
OAuth options. Pure: no I/O; the connect runs in :mod:`anvia_nb.magic.commands.oauth`.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace

from anvia_nb.core.transport.oauth.settings import OAuth
from anvia_nb.errors import CommandLineError
from anvia_nb.magic.parse.commands import ConfigConnectCommand, ConnectCommand
from anvia_nb.magic.parse.connect import expand_environ
from anvia_nb.magic.parse.connect import parse_connect as parse_plain_connect
from anvia_nb.magic.parse.oauth_machine import machine_settings
from anvia_nb.magic.parse.oauth_words import MACHINE_FLAGS
from anvia_nb.magic.parse.words import split

__all__ = [
    "OAUTH_OPTIONS",
    "ConnectLine",
    "LogoutCommand",
    "OAuthConnectCommand",
    "OAuthRedirectCommand",
    "parse_connect",
    "parse_logout",
]

OAUTH_OPTIONS = ("--oauth", "--client-id", "--scope", "--oauth-redirect", *MACHINE_FLAGS)
_REDIRECT_USAGE = "Usage: %mcp connect NAME --oauth-redirect URL (the URL your browser was redirected to)"


@dataclass(frozen=True)
class OAuthConnectCommand:
    """``connect NAME --oauth [--client-id ID] [--scope S]... --http URL``, or with
    ``--oauth-client-credentials`` / ``--oauth-identity-assertion`` (``auth``: nobody to ask)."""

    base: ConnectCommand
    client_id: str | None = None
    scopes: tuple[str, ...] = ()
    auth: OAuth | None = None


@dataclass(frozen=True)
class OAuthRedirectCommand:
    """``connect NAME --oauth-redirect URL``: finish the authorization waiting for NAME."""

    name: str
    url: str


@dataclass(frozen=True)
class LogoutCommand:
    """``logout NAME`` or ``logout --http URL [--client-id ID]``."""

    name: str = ""
    url: str = ""
    client_id: str | None = None


ConnectLine = ConnectCommand | ConfigConnectCommand | OAuthConnectCommand | OAuthRedirectCommand
"""What a ``%mcp connect`` line means: a plain connect (a line or a config file), or an OAuth one."""


def parse_connect(rest: str, cell: str | None = None) -> ConnectLine:
    """The connect parser, plus ``--oauth``, ``--client-id``, ``--scope`` and ``--oauth-redirect``."""
    words = split(rest)
    no_cell = cell is None or not cell.strip()
    if no_cell and len(words) == 3 and words[1] == "--oauth-redirect" and not words[0].startswith("-"):
        return OAuthRedirectCommand(words[0], words[2])  # a pasted URL, taken as it is ($ included)
    expanded, taken = expand_environ(rest)  # $NAME: the kernel's environment, a secret
    words = split(expanded)
    if cell is not None and cell.strip() and any(w in words for w in OAUTH_OPTIONS):
        raise CommandLineError("%%mcp connect takes no --oauth: connect with %mcp connect NAME --oauth first.")
    head = words[: words.index("--stdio")] if "--stdio" in words else words
    if "--oauth-redirect" in head:
        raise CommandLineError(_REDIRECT_USAGE)
    if any(w in head for w in MACHINE_FLAGS):
        plain, settings = machine_settings(words)
        base = _http_only(_with_environ(parse_plain_connect(shlex.join(plain), cell), taken), "the OAuth grant")
        return OAuthConnectCommand(base, settings.client_id, settings.scopes, settings)
    if not any(w in head for w in ("--oauth", "--client-id", "--scope")):
        return parse_plain_connect(rest, cell)
    kept: list[str] = []
    client_id: str | None = None
    scopes: list[str] = []
    oauth = False
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--oauth":
            oauth = True
            i += 1
            continue
        if word in ("--client-id", "--scope"):
            if i + 1 >= len(words) or words[i + 1].startswith("-"):
                raise CommandLineError(f"{word} needs a value.")
            if word == "--client-id":
                client_id = words[i + 1]
            else:
                scopes.extend(words[i + 1].split())
            i += 2
            continue
        kept.append(word)
        i += 1
    if not oauth:
        raise CommandLineError("--client-id and --scope go with --oauth.")
    base = _http_only(_with_environ(parse_plain_connect(shlex.join(kept), cell), taken), "--oauth")
    return OAuthConnectCommand(base, client_id, tuple(scopes))


def _with_environ(
    base: ConnectCommand | ConfigConnectCommand, taken: dict[str, str]
) -> ConnectCommand | ConfigConnectCommand:
    """``base`` with the values its line took from the kernel's environment (secrets)."""
    return replace(base, from_environ=taken) if isinstance(base, ConnectCommand) else base


def _http_only(base: ConnectCommand | ConfigConnectCommand, what: str) -> ConnectCommand:
    if not isinstance(base, ConnectCommand) or base.transport != "http" or base.cell:
        raise CommandLineError(f"{what} is for one --http connection (not --stdio, --config or %%mcp connect).")
    return base


def parse_logout(rest: str, _cell: str | None = None) -> LogoutCommand:
    words = split(rest)
    if len(words) == 1 and not words[0].startswith("-"):
        return LogoutCommand(name=words[0])
    options = dict(zip(words[::2], words[1::2], strict=False))
    if len(words) % 2 == 0 and words and set(options) <= {"--http", "--client-id"} and "--http" in options:
        return LogoutCommand(url=options["--http"], client_id=options.get("--client-id"))
    raise CommandLineError("Usage: %mcp logout NAME, or %mcp logout --http URL [--client-id ID]")
