"""Parsing ``%mcp connect`` (stdio, HTTP, a config file, a recording to replay) and ``%mcp close``
into their commands (the OAuth options are :mod:`anvia_nb.magic.parse.oauth`'s).

Pure, like the rest of :mod:`anvia_nb.magic.parse`, whose word splitting and option reading it uses, but
for one thing: ``$NAME`` and ``${NAME}`` are the kernel's environment variables, expanded as a
shell does (not inside single quotes, nor after a backslash); each value so taken is a secret of
the connection (its ``from_environ``), masked wherever it lands and read by name by artifacts.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from typing import Any

from anvia_nb.core.protocol.versions import PROTOCOL_CHOICES, check_protocol
from anvia_nb.magic.parse.commands import CloseCommand, ConfigConnectCommand, ConnectCommand
from anvia_nb.magic.parse.words import CONNECT_FLAGS, CommandLineError, close_words, option_words, seconds_value, split

__all__ = ["CONNECT_OPTIONS", "expand_environ", "parse_close", "parse_connect"]

_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def expand_environ(text: str, environ: Mapping[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """``text`` with ``$NAME`` / ``${NAME}`` replaced by the variables' values, quoted so that
    splitting the line keeps each value one piece of one word; and the values taken, by name.

    Single quotes and a backslash keep a dollar literal (``'$HOME'``, ``\\$HOME``). A variable
    that is not set is a one-line error."""
    environ = os.environ if environ is None else environ
    out: list[str] = []
    taken: dict[str, str] = {}
    quote = ""
    i = 0
    while i < len(text):
        char = text[i]
        if quote != "'" and char == "\\" and i + 1 < len(text):
            out.append(text[i : i + 2])
            i += 2
            continue
        if char in "'\"" and quote in ("", char):
            quote = "" if quote else char
        elif char == "$" and quote != "'":
            match = _VARIABLE.match(text, i)
            if match is not None:
                name = match.group(1) or match.group(2)
                if name not in environ:
                    raise CommandLineError(
                        f"${name}: the kernel has no environment variable {name}; export it before starting "
                        "Jupyter (or quote the dollar: '$NAME' or \\$NAME), then connect again."
                    )
                value = taken[name] = environ[name]
                out.append(value.replace("\\", "\\\\").replace('"', '\\"') if quote else shlex.quote(value))
                i = match.end()
                continue
        out.append(char)
        i += 1
    return "".join(out), taken


CONNECT_OPTIONS = (
    "--stdio",
    "--http",
    "--config",
    "--env",
    "--secret-env",
    "--cwd",
    "--header",
    "--timeout",
    "--cell",
    "--root",
    "--record",
    "--replay",
    "--soft",
    "--protocol",
)
_CONNECT_USAGE = (
    "Usage: %mcp connect NAME [--env K=V] [--secret-env K] [--cwd DIR] [--timeout S] [--root PATH] [--cell] --stdio "
    'COMMAND [ARGS...], %mcp connect NAME [--header "K: V"] [--timeout S] [--root PATH] [--cell] --http URL, '
    "or %mcp connect --config FILE [NAME ...]; --record FILE saves a live connection, --replay FILE answers from one; "
    f"--soft shows a failed connect as a notice; --protocol {PROTOCOL_CHOICES} speaks only that generation"
)


def parse_connect(rest: str, _cell: str | None = None) -> ConnectCommand | ConfigConnectCommand:
    rest, taken = expand_environ(rest)
    words = option_words(split(rest), [o for o in CONNECT_OPTIONS if o not in CONNECT_FLAGS], stop="--stdio")
    positional: list[str] = []
    env: dict[str, str] = {}
    inherit: list[str] = []
    secret_env: set[str] = set()
    headers: dict[str, str] = {}
    roots: list[str] = []
    options: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--stdio":
            command = words[i + 1 :]
            if not command:
                raise CommandLineError("--stdio needs the server's command line after it, e.g. --stdio uvx my-server")
            options["stdio"] = command
            break
        if word in CONNECT_FLAGS:
            options[word[2:]] = True
            i += 1
            continue
        if word not in CONNECT_OPTIONS:
            if word.startswith("-") and len(positional) > 1:  # `connect fs python -m server`: --stdio forgotten
                raise CommandLineError(_without_stdio(positional, words[i:]))
            if word.startswith("-"):
                raise CommandLineError(f"Unknown option {word!r}. {close_words(word, CONNECT_OPTIONS)}{_CONNECT_USAGE}")
            positional.append(word)
            i += 1
            continue
        if i + 1 >= len(words):
            raise CommandLineError(f"{word} needs a value. {_CONNECT_USAGE}")
        value = words[i + 1]
        i += 2
        if word in ("--env", "--secret-env"):
            key, eq, env_value = value.partition("=")
            if not key or key.startswith("-"):
                raise CommandLineError(
                    f"{word} takes NAME (from the kernel's environment) or NAME=VALUE, not {value!r}."
                )
            if eq:
                env[key] = env_value
            else:  # the kernel's own value: kept out of the notebook's source, and masked
                inherit.append(key)
            if word == "--secret-env" or not eq:
                secret_env.add(key)
        elif word == "--header":
            key, colon, header_value = value.partition(":")
            if not colon or not key.strip():
                raise CommandLineError(f'--header takes "Name: value", not {value!r}.')
            headers[key.strip()] = header_value.strip()
        elif word == "--timeout":
            options["timeout"] = seconds_value(value, "--timeout")
        elif word == "--root":
            roots.append(value)
        elif word == "--protocol":
            options["protocol"] = check_protocol(value)  # the one-line error of mcp.stdio(protocol=)
        else:
            options[word[2:]] = value
    cell, soft = bool(options.get("cell")), bool(options.get("soft"))
    if "config" in options:
        if "record" in options or "replay" in options:
            raise CommandLineError("--record and --replay take one named connection, not --config.")
        if "stdio" in options or "http" in options or env or inherit or headers or "cwd" in options or roots:
            raise CommandLineError("--config takes only a file and server names; other options go in the file.")
        return ConfigConnectCommand(options["config"], tuple(positional), cell, soft=soft)
    if len(positional) > 1 and not {"stdio", "http", "replay"} & set(options):
        raise CommandLineError(_without_stdio(positional, []))
    if len(positional) != 1:
        raise CommandLineError(f"connect takes one connection NAME before the options. {_CONNECT_USAGE}")
    name = positional[0]
    if "replay" in options:
        live_options = bool(env or inherit or headers or roots or "cwd" in options or "protocol" in options)
        return _replay_command(name, options, live_options, cell)
    record = options.get("record")
    if "stdio" in options and "http" in options:
        raise CommandLineError("Choose one transport: --stdio or --http, not both.")
    if "stdio" in options:
        if headers:
            raise CommandLineError("--header is for --http connections; stdio servers take --env.")
        command, *args = options["stdio"]
        return ConnectCommand(
            name,
            "stdio",
            command=command,
            args=tuple(args),
            env=env,
            secret_env=frozenset(secret_env),
            cwd=options.get("cwd"),
            cell=cell,
            inherit_env=tuple(dict.fromkeys(inherit)),
            roots=tuple(roots),
            record=record,
            protocol=options.get("protocol"),
            soft=soft,
            from_environ=taken,
            timeout_seconds=options.get("timeout"),  # the connect's limit (a first npx download is slow)
        )
    if "http" in options:
        if env or secret_env or "cwd" in options:
            raise CommandLineError("--env, --secret-env and --cwd are for --stdio servers; HTTP servers take --header.")
        return ConnectCommand(
            name,
            "http",
            url=options["http"],
            headers=headers,
            timeout_seconds=options.get("timeout"),
            cell=cell,
            roots=tuple(roots),
            record=record,
            soft=soft,
            protocol=options.get("protocol"),
            from_environ=taken,
        )
    raise CommandLineError(f"Say how to reach {name!r}: --stdio COMMAND ... or --http URL. {_CONNECT_USAGE}")


def _without_stdio(positional: list[str], rest: list[str]) -> str:
    """A connect line whose server command has no ``--stdio`` before it: the line that works, in one line."""
    name, *command = positional
    fixed = shlex.join([*command, *rest])
    return f"A server's command goes after --stdio: %mcp connect {name} --stdio {fixed}"


def _replay_command(name: str, options: dict[str, Any], live_options: bool, cell: bool) -> ConnectCommand:
    """``connect NAME --replay FILE``: no server, so none of the options that reach one."""
    if "stdio" in options or "http" in options or "record" in options or live_options or "timeout" in options:
        raise CommandLineError(
            "--replay FILE answers from a recording and starts no server: give it alone (drop --stdio, --http, "
            "--record and their options), or connect live without --replay."
        )
    return ConnectCommand(name, "replay", replay=options["replay"], cell=cell)


def parse_close(rest: str, _cell: str | None = None) -> CloseCommand:
    usage = "Usage: %mcp close NAME ... or %mcp close --all"
    words = split(rest)
    close_all = "--all" in words
    names = tuple(w for w in words if w != "--all")
    unknown = [n for n in names if n.startswith("-")]
    if unknown:
        raise CommandLineError(f"Unknown option {unknown[0]!r}. {usage}")
    if close_all and names:
        raise CommandLineError("Give either connection names or --all, not both.")
    if not close_all and not names:
        raise CommandLineError(usage)
    return CloseCommand(names, close_all)
