"""``mcpServers`` files people already have, read into lazy connections.

Claude Desktop (``{"mcpServers": {name: {command, args, env}}}``), Cursor and Claude Code (also
``url``, ``headers``, ``type``, ``${VAR}`` / ``${env:VAR}`` / ``${VAR:-default}``), and VS Code's
``mcp.json`` (top-level ``servers``, ``//`` comments, ``inputs`` prompts we cannot show). An
entry's ``"protocol"`` (anvia_nb's own key) is ``mcp.stdio``/``mcp.http``'s ``protocol=``. Reading
a file starts nothing; it only produces ``mcp.stdio``/``mcp.http`` objects and notes to print.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anvia_nb.core.api.connections import HttpConnection, StdioConnection
from anvia_nb.core.api.factories import mcp
from anvia_nb.core.protocol.versions import check_protocol
from anvia_nb.core.transport.oauth.machine import oauth_from_mapping
from anvia_nb.errors import ConfigFileError, InvalidValueError

__all__ = ["ConfigFileError", "ConfigServers", "servers_from_config_file", "servers_from_config_text"]

_VARIABLE = re.compile(r"\$\{([^}]*)\}")
_USABLE_NAME = re.compile(r"[^A-Za-z0-9_\-]")
_HTTP_TYPES = ("http", "streamable-http", "streamableHttp", "streamable_http")


@dataclass
class ConfigServers:
    """What one file offers: connections by their connection name, and notes for the person."""

    connections: dict[str, StdioConnection | HttpConnection] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _strip_comments(text: str) -> str:
    """JSON with ``//`` and ``/* */`` comments (VS Code's JSONC) as plain JSON; strings kept intact."""
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        char = text[i]
        if in_string:
            out.append(char)
            if char == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(char)
        i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))  # JSONC also allows trailing commas


class _Substitution:
    """``${VAR}``, ``${env:VAR}``, ``${VAR:-default}`` and ``${workspaceFolder}`` from the environment.

    Every value taken from the environment, in any field (command, args, env, cwd, url, headers),
    is kept in ``taken`` by its variable's name: the connection's ``from_environ``, so each is a
    secret wherever it lands, and artifacts read it by name."""

    def __init__(self, where: str, environ: Mapping[str, str], workspace: str) -> None:
        self.where = where
        self.environ = environ
        self.workspace = workspace
        self.used = False
        self.taken: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        return _VARIABLE.sub(self._replace, text)

    def _replace(self, match: re.Match[str]) -> str:
        expression = match.group(1)
        if expression in ("workspaceFolder", "workspaceRoot"):
            return self.workspace
        if expression.startswith("input:"):
            raise ConfigFileError(
                f"{self.where} asks for ${{{expression}}}, a VS Code input prompt the notebook cannot show; "
                "put the value in an environment variable and use ${env:NAME} instead."
            )
        name, _, default = expression.removeprefix("env:").partition(":-")
        self.used = True
        value = self.environ.get(name)
        if value is not None:
            self.taken[name] = value
            return value
        if ":-" in expression:
            return default
        raise ConfigFileError(f"{self.where} uses ${{{expression}}} but {name} is not set in the kernel's environment.")


def _strings(value: Any, what: str, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str | int | float) for v in value):
        raise ConfigFileError(f"{where}: {what} must be a list of strings.")
    return [str(v) for v in value]


def _mapping(value: Any, what: str, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigFileError(f"{where}: {what} must be an object of strings.")
    return {str(k): str(v) for k, v in value.items()}


def _connection(
    name: str, entry: Any, where: str, environ: Mapping[str, str], workspace: str
) -> StdioConnection | HttpConnection:
    if not isinstance(entry, dict):
        raise ConfigFileError(f"{where} must be an object with command or url.")
    kind = str(entry.get("type") or entry.get("transport") or "").strip()
    if kind == "sse":
        raise ConfigFileError(
            f"{where} uses the SSE transport, which anvia_nb does not support: only stdio and streamable "
            "HTTP are; if the server also serves streamable HTTP (often at /mcp), use that URL with type http."
        )
    try:
        protocol = check_protocol(entry.get("protocol"))
    except InvalidValueError as exc:
        raise ConfigFileError(f"{where}: {exc}") from exc
    url = entry.get("url") or entry.get("serverUrl")
    if kind in _HTTP_TYPES or (not kind and url and "command" not in entry):
        if not isinstance(url, str) or not url:
            raise ConfigFileError(f"{where} is an HTTP server without a url.")
        substitute = _Substitution(where, environ, workspace)
        headers = {k: substitute(v) for k, v in _mapping(entry.get("headers"), "headers", where).items()}
        try:  # "oauth": a grant with no person (oauth_machine), secrets named, never given
            auth = oauth_from_mapping(entry["oauth"]) if "oauth" in entry else None
            url = substitute(url)
            return mcp.http(
                name=name, url=url, headers=headers, protocol=protocol, auth=auth, from_environ=substitute.taken
            )
        except ValueError as exc:
            raise ConfigFileError(f"{where}: {exc}") from exc
    if kind not in ("", "stdio"):
        raise ConfigFileError(f"{where} has type {kind!r}; only stdio and http (streamable HTTP) are supported.")
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        raise ConfigFileError(f"{where} has neither a command (stdio) nor a url (HTTP).")
    substitute = _Substitution(where, environ, workspace)
    env: dict[str, str] = {}
    secret_env: set[str] = set()
    for key, value in _mapping(entry.get("env"), "env", where).items():
        substitute.used = False
        env[key] = substitute(value)
        if substitute.used:  # values kept out of the file are usually secrets: mask them
            secret_env.add(key)
    args = [substitute(a) for a in _strings(entry.get("args"), "args", where)]
    cwd = entry.get("cwd")
    return mcp.stdio(
        name=name,
        command=substitute(command),
        args=args,
        env=env,
        cwd=substitute(cwd) if isinstance(cwd, str) and cwd else None,
        secret_env=secret_env,
        protocol=protocol,
        from_environ=substitute.taken,
    )


def servers_from_config_text(
    text: str,
    source: str = "config",
    names: tuple[str, ...] = (),
    environ: Mapping[str, str] | None = None,
    workspace: str = ".",
) -> ConfigServers:
    """Connections for the servers of one file's text (only ``names``, when given)."""
    try:
        document = json.loads(_strip_comments(text))
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise ConfigFileError(f"{source} is not valid JSON ({where}: {exc.msg}).") from exc
    if not isinstance(document, dict):
        raise ConfigFileError(f"{source} must hold a JSON object with mcpServers or servers.")
    result = ConfigServers()
    servers = document.get("mcpServers")
    if servers is None:
        servers = document.get("servers")
        if servers is None and isinstance(document.get("mcp"), dict):  # VS Code settings.json
            servers = document["mcp"].get("servers")
    if not isinstance(servers, dict):
        raise ConfigFileError(f"{source} has no mcpServers (Claude, Cursor) or servers (VS Code) object.")
    if "inputs" in document or (isinstance(document.get("mcp"), dict) and "inputs" in document["mcp"]):
        result.notes.append(f"{source}: inputs are ignored (the notebook cannot prompt); use ${{env:NAME}} instead.")
    missing = [n for n in names if n not in servers]
    if missing:
        raise ConfigFileError(f"{source} has no server {', '.join(map(repr, missing))}; it has {', '.join(servers)}.")
    env = os.environ if environ is None else environ
    for key, entry in servers.items():
        if names and key not in names:
            continue
        if not names and isinstance(entry, dict) and entry.get("disabled") is True:
            result.notes.append(f"{key}: disabled in {source}, skipped (name it to connect anyway).")
            continue
        name = _USABLE_NAME.sub("_", key)
        if not name or not name[0].isalpha():
            name = f"s_{name}"
        if name != key:
            result.notes.append(f"{key!r} is connected as {name!r} (names hold letters, digits, '_' and '-').")
        result.connections[name] = _connection(name, entry, f"{source}: server {key!r}", env, workspace)
    if not result.connections:
        raise ConfigFileError(f"{source} lists no server to connect.")
    return result


def servers_from_config_file(path: str, names: tuple[str, ...] = ()) -> ConfigServers:
    """Read ``path`` (``~`` expanded); ``${workspaceFolder}`` is the folder above ``.vscode``."""
    file = Path(os.path.expanduser(path))
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigFileError(f"Cannot read the config file {path!r}: {exc.strerror or exc}.") from exc
    folder = file.resolve().parent
    workspace = folder.parent if folder.name == ".vscode" else folder
    return servers_from_config_text(text, file.name, names, workspace=str(workspace))
