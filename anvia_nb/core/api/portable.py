"""Connections sent to other processes (Dask workers) without their secrets.

Pickling a :class:`~anvia_nb.core.api.connections.StdioConnection` or
:class:`~anvia_nb.core.api.connections.HttpConnection` goes through :func:`portable`: what is pickled
is a :class:`PortableConnection`, in which every secret, in any field (an argument, an env value,
the URL, a header, a value the settings took from the environment), is replaced by the *name* of
the environment variable it can be read from, read again from the receiving process's own
environment when it is unpickled. That is only possible for a value the kernel has in its
environment (``--secret-env NAME``, ``$NAME`` in a connect line, ``${NAME}`` in a config file,
``mcp.stdio(env={"TOKEN": os.environ["TOKEN"]})``, a header made from ``os.environ``); any other
secret (one typed in the notebook, a person's OAuth authorization) is refused with a
:class:`~anvia_nb.errors.SecretNotPortableError` that says what to do, and nothing is pickled. An
OAuth grant with no person (client credentials) travels as the names of its variables and files:
each worker asks for its own tokens (``core/transport/oauth/machine.py``). An in-memory connection
holds a server object and is refused too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol

from anvia_nb.core.api.secrets import Named, environ_names, environ_parts
from anvia_nb.core.transport.oauth.machine import portable_auth
from anvia_nb.errors import InvalidValueError, SecretNotPortableError
from anvia_nb.policy import maskable

__all__ = ["Portable", "PortableConnection", "portable", "reduce_connection"]


class Portable(Protocol):
    """What :func:`portable` reads of a connection: a dataclass with a name, a transport and its
    secrets' places (a :class:`~anvia_nb.core.api.connections.ServerConnection`)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def name(self) -> str: ...

    @property
    def transport(self) -> str: ...

    @property
    def from_environ(self) -> Mapping[str, str]: ...

    def named_secrets(self) -> Named: ...


_MARK = "\x00"
"""Stands around a variable's name where its value was: no argument, env value, URL or header holds it."""
_MARKED = re.compile("\x00([^\x00]*)\x00")


def _text(value: Any, change: Any) -> Any:
    """``value`` with ``change`` applied to each string it holds (a string, a tuple, a dict's values)."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, tuple):
        return tuple(_text(v, change) for v in value)
    if isinstance(value, Mapping):
        return {k: _text(v, change) for k, v in value.items()}
    return value


def _texts(values: Any) -> list[str]:
    """Every string in ``values`` (as :func:`_text` reaches them)."""
    found: list[str] = []

    def keep(text: str) -> str:
        found.append(text)
        return text

    _text(tuple(values), keep)
    return found


@dataclass(frozen=True)
class PortableConnection:
    """A connection's fields without secret values: where one was, ``\\x00NAME\\x00`` stands;
    ``env_from_process`` names the variables the receiving process reads from its own environment."""

    kind: type[Portable]
    """The connection's class, made again from ``values``."""
    values: tuple[tuple[str, Any], ...]
    env_from_process: tuple[str, ...] = ()

    def connection(self, environ: Mapping[str, str] | None = None) -> Portable:
        """The connection again, its secret values read from ``environ`` (this process's)."""
        environ = os.environ if environ is None else environ
        values = dict(self.values)
        missing = [name for name in self.env_from_process if name not in environ]
        if missing:
            raise InvalidValueError(
                f"{values.get('name')!r} needs the environment variable {missing[0]} in this process "
                "(a Dask worker reads secrets from its own environment): export it where the workers start."
            )
        if self.env_from_process:
            values = {
                key: _text(value, lambda t: _MARKED.sub(lambda m: environ[m.group(1)], t))
                for key, value in values.items()
            }
        return self.kind(**values)


def _refuse(connection: Portable, where: str) -> SecretNotPortableError:
    return SecretNotPortableError(
        f"{connection.name!r} cannot be sent to another process: its {where} holds a secret, and secrets are "
        "never pickled. Give secrets as environment variables the workers also have (connect with "
        "--secret-env NAME or $NAME, or mcp.stdio(env={NAME: os.environ[NAME]}, secret_env=[NAME]))."
    )


def portable(connection: Portable) -> PortableConnection:
    """``connection`` without secret values (see the module's rule); raises when that is impossible."""
    if connection.transport not in ("stdio", "http"):
        raise SecretNotPortableError(
            f"{connection.name!r} is an in-memory connection; only stdio and HTTP connections can be sent to "
            "another process."
        )
    values = {f.name: getattr(connection, f.name) for f in fields(connection) if f.name != "transport"}
    values["record"] = None  # a recording is the notebook's own file, never a worker's
    if values.get("auth") is not None:  # only names of env variables and files travel (oauth_machine)
        values["auth"] = portable_auth(connection.name, values["auth"])
    named = [(where, value) for where, value in connection.named_secrets() if value]
    env: Mapping[str, str] = getattr(connection, "env", {})
    names = environ_names([value for _, value in named], connection.from_environ, os.environ, env)
    used: dict[str, None] = {}

    def marked(text: str) -> str:
        parts = environ_parts(text, names)
        used.update((part, None) for part, is_name in parts if is_name)
        return "".join(f"{_MARK}{part}{_MARK}" if is_name else part for part, is_name in parts)

    values = {key: value if key == "name" else _text(value, marked) for key, value in values.items()}
    values["from_environ"] = {name: f"{_MARK}{name}{_MARK}" for name in connection.from_environ}
    used.update(dict.fromkeys(connection.from_environ))
    left = "\n".join(_texts(values.values()))
    for where, value in named:
        if value not in left or (where.startswith("environment variable") and not maskable(value)):
            continue  # gone, or too short to be a secret (shown as it is everywhere too)
        key = where.split()[1]
        in_env = where == f"env {key}" and key in env
        raise _refuse(connection, f"environment variable {key}, set in the notebook," if in_env else where)
    return PortableConnection(type(connection), tuple(values.items()), tuple(used))


def _restore(description: PortableConnection) -> Portable:
    return description.connection()


def reduce_connection(connection: Portable) -> tuple[Any, tuple[PortableConnection]]:
    """``__reduce__`` of a connection: pickled as its :class:`PortableConnection`, secrets out."""
    return _restore, (portable(connection),)
