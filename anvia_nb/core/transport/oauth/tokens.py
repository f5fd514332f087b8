"""OAuth tokens cached per server URL, client and grant, in one file each, readable only by the user.

The directory is ``$ANVIA_NB_OAUTH_DIR`` or ``~/.cache/anvia_nb/oauth`` (made mode 0700); a file
is written whole to a new temporary name (``mkstemp``: created exclusively, never through a link,
mode 0600) and then renamed over the old one, so a reader never sees half a file and no other user
can read it at any moment. A folder that is not the user's own, or that others may write in (a
0777 folder made beforehand, ``/tmp``), is refused with one line saying how to fix it
(:func:`folder_problem`): nothing is written there, and nothing planted there is read, since
whoever can write in it could plant a link that receives the tokens or a file of their own tokens;
it is not tightened silently, as it may be open on purpose and may already hold what was planted.
A file is read only if it is a regular file of the user's (never through a link). A file holds the
tokens, the absolute time the access token expires (``expires_in`` alone loses its meaning once
the kernel restarts) and the client registration. Nothing here prints or logs a value.

A process that received a connection from another (a Dask worker) keeps its tokens in memory
instead (:class:`MemoryTokens`, ``token_dir=MEMORY``): each process obtains its own, and none is
written to the disks of the machines the workers run on.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from anvia_nb.errors import AuthorizationError

__all__ = [
    "GRANTS",
    "MEMORY",
    "OAUTH_DIR_ENV",
    "MemoryTokens",
    "TokenFile",
    "folder_problem",
    "oauth_dir",
    "token_path",
]

OAUTH_DIR_ENV = "ANVIA_NB_OAUTH_DIR"
MEMORY = ":memory:"
"""``token_dir=MEMORY``: tokens kept in this process only (:class:`MemoryTokens`)."""
GRANTS = ("", "client_credentials", "workload-identity", "jwt-bearer")
"""The grants a token file can be for (``""``: the authorization code, a person's)."""


def oauth_dir() -> Path:
    """Where token files live: ``$ANVIA_NB_OAUTH_DIR``, else ``~/.cache/anvia_nb/oauth``."""
    configured = os.environ.get(OAUTH_DIR_ENV)
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "anvia_nb" / "oauth"


def _own(info: os.stat_result) -> bool:
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def folder_problem(folder: Path) -> str:
    """Why token files must not go in ``folder`` (one line saying what to do), or ``""``: it is not
    a folder of this user's, or others may write in it (group or others have write permission)."""
    try:
        info = folder.lstat()
    except OSError:
        return ""  # not there yet: it is made 0700
    if not stat.S_ISDIR(info.st_mode):
        return f"The OAuth token folder {folder} is not a folder: remove it, or set {OAUTH_DIR_ENV} to another."
    if not _own(info):
        return f"The OAuth token folder {folder} belongs to another user: set {OAUTH_DIR_ENV} to a folder of yours."
    mode = stat.S_IMODE(info.st_mode)
    if hasattr(os, "getuid") and mode & 0o022:
        return (
            f"The OAuth token folder {folder} is open to other users (mode {mode:04o}), who could plant a "
            f"link there to receive the tokens: run chmod 700 {folder}, or set {OAUTH_DIR_ENV} to a folder "
            "only you can open."
        )
    return ""


def token_path(server_url: str, client_id: str | None, directory: Path | None = None, grant: str = "") -> Path:
    """The file for one server URL, one client (``None``: a dynamically registered client) and one
    grant (``""``: the authorization code, whose files keep the name they always had)."""
    key = hashlib.sha256(f"{server_url}\n{client_id or ''}".encode() + (f"\n{grant}".encode() if grant else b""))
    return (directory or oauth_dir()) / f"{key.hexdigest()[:32]}.json"


class TokenFile:
    """The SDK's ``TokenStorage`` over one 0600 file; ``expires_at`` survives a kernel restart."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.asking: tuple[str, ...] = ()
        """The scopes asked for now: kept with each token written (see :meth:`asked`)."""
        self._binding: tuple[str | None] | None = None  # see bind_next_tokens

    def _read(self) -> dict[str, Any]:
        if folder_problem(self.path.parent):
            return {}  # what another user may have planted is not read; writing says why
        try:
            descriptor = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return {}
        with os.fdopen(descriptor, "rb") as file:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode) or not _own(info):
                return {}
            try:
                data = json.loads(file.read().decode("utf-8"))
            except (OSError, ValueError):
                return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
        folder = self.path.parent
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        problem = folder_problem(folder)
        if problem:
            raise AuthorizationError(f"{problem} No token was written.")
        # mkstemp: a new name, O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600 whatever the umask
        descriptor, temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                json.dump(data, file)
            os.replace(temporary, self.path)  # replaces a link planted at the name, never follows it
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def expires_at(self) -> float | None:
        value = self._read().get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    def secrets(self) -> tuple[str, ...]:
        """The access and refresh tokens and the client secret in the file (for masking)."""
        data = self._read()
        tokens, client = data.get("tokens") or {}, data.get("client") or {}
        found = (tokens.get("access_token"), tokens.get("refresh_token"), client.get("client_secret"))
        return tuple(value for value in found if isinstance(value, str) and value)

    async def get_tokens(self) -> OAuthToken | None:
        tokens = self._read().get("tokens")
        return OAuthToken.model_validate(tokens) if isinstance(tokens, dict) else None

    def asked(self) -> set[str]:
        """The scopes asked for when the cached token was written: one the server did not grant
        then is no reason to authorize again."""
        asked = self._read().get("asked")
        return {scope for scope in asked if isinstance(scope, str)} if isinstance(asked, list) else set()

    async def set_tokens(self, tokens: OAuthToken) -> None:
        data = self._read()
        data["tokens"] = tokens.model_dump(mode="json", exclude_none=True)
        data["asked"] = list(self.asking)
        data["expires_at"] = time.time() + int(tokens.expires_in) if tokens.expires_in is not None else None
        if self._binding is not None:
            (key,), self._binding = self._binding, None
            if key is None:
                data.pop("dpop_key", None)
            else:
                data["dpop_key"] = key
        self._write(data)

    def dpop_key(self) -> str | None:
        """The private key (PEM) the cached tokens are bound to by DPoP, if they are."""
        key = self._read().get("dpop_key")
        return key if isinstance(key, str) else None

    def bind_next_tokens(self, pem: str | None) -> None:
        """The DPoP key (PEM) the next tokens stored are bound to; None: they are bound to none.
        :meth:`set_tokens` writes it in the same write as the tokens, so another kernel's key for the
        same server cannot come between a token and its key."""
        self._binding = (pem,)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        client = self._read().get("client")
        return OAuthClientInformationFull.model_validate(client) if isinstance(client, dict) else None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        data = self._read()
        data["client"] = client_info.model_dump(mode="json", exclude_none=True)
        self._write(data)

    def redirect_port(self) -> int:
        """The loopback port of the stored registration's redirect URI (0: none)."""
        client = self._read().get("client") or {}
        for uri in client.get("redirect_uris") or ():
            parts = urlsplit(str(uri))
            if parts.hostname == "127.0.0.1" and parts.port:
                return parts.port
        return 0

    def forget_client(self) -> None:
        """Drop the stored registration (and the tokens issued to it)."""
        data = self._read()
        if data.pop("client", None) is not None:
            data.pop("tokens", None)
            data.pop("expires_at", None)
            self._write(data)

    def forget(self) -> bool:
        """Remove the file; whether there was one."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            return False
        return True


_MEMORY: dict[str, dict[str, Any]] = {}
_MEMORY_LOCK = threading.Lock()


class MemoryTokens(TokenFile):
    """A :class:`TokenFile` kept in this process's memory, shared by its connections to the same
    server, client and grant (a Dask worker's partitions), never written anywhere."""

    def _read(self) -> dict[str, Any]:
        with _MEMORY_LOCK:
            return dict(_MEMORY.get(str(self.path), {}))

    def _write(self, data: dict[str, Any]) -> None:
        with _MEMORY_LOCK:
            _MEMORY[str(self.path)] = dict(data)

    def forget(self) -> bool:
        with _MEMORY_LOCK:
            return _MEMORY.pop(str(self.path), None) is not None
