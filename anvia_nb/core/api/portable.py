"""Connections sent to other processes (Dask workers) without their secrets.

Pickling a :class:`~anvia_nb.core.api.connections.StdioConnection` or
:class:`~anvia_nb.core.api.connections.HttpConnection` goes through :func:`portable`: what is pickled
is a :class:`PortableConnection`, in which every environment value that holds a secret is replaced
by the *name* of that variable, read again from the receiving process's own environment when it
is unpickled. That is only possible for a value the kernel itself took from its environment
(``--secret-env NAME``, ``mcp.stdio(env={"TOKEN": os.environ["TOKEN"]})``); any other secret (one
typed in the notebook, in a command-line argument, a header of an HTTP connection, an ``auth``
object) is refused with a :class:`~anvia_nb.errors.SecretNotPortableError` that says what to do,
and nothing is pickled. An in-memory connection holds a server object and is refused too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol

from anvia_nb.core.api.secrets import Named
from anvia_nb.core.transport.oauth_machine import portable_auth
from anvia_nb.errors import InvalidValueError, SecretNotPortableError

__all__ = ["Portable", "PortableConnection", "portable", "reduce_connection"]


class Portable(Protocol):
    """What :func:`portable` reads of a connection: a dataclass with a name, a transport and its
    secrets' places (a :class:`~anvia_nb.core.api.connections.ServerConnection`)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def name(self) -> str: ...

    @property
    def transport(self) -> str: ...

    def named_secrets(self) -> Named: ...


@dataclass(frozen=True)
class PortableConnection:
    """A connection's fields without secret values; ``env_from_process`` names the env variables
    whose values the receiving process reads from its own environment."""

    kind: type[Portable]
    """The connection's class, made again from ``values``."""
    values: tuple[tuple[str, Any], ...]
    env_from_process: tuple[str, ...] = ()

    def connection(self, environ: Mapping[str, str] | None = None) -> Portable:
        """The connection again, its secret env values read from ``environ`` (this process's)."""
        environ = os.environ if environ is None else environ
        values = dict(self.values)
        missing = [name for name in self.env_from_process if name not in environ]
        if missing:
            raise InvalidValueError(
                f"{values.get('name')!r} needs the environment variable {missing[0]} in this process "
                "(a Dask worker reads secrets from its own environment): export it where the workers start."
            )
        if self.env_from_process:
            values["env"] = {**values.get("env", {}), **{name: environ[name] for name in self.env_from_process}}
        return self.kind(**values)


def _refuse(connection: Portable, where: str) -> SecretNotPortableError:
    return SecretNotPortableError(
        f"{connection.name!r} cannot be sent to another process: its {where} holds a secret, and secrets are "
        "never pickled. Give secrets as environment variables the workers also have (connect with "
        "--secret-env NAME, or mcp.stdio(env={NAME: os.environ[NAME]}, secret_env=[NAME]))."
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
    secret_places = {where for where, value in connection.named_secrets() if value}
    if connection.transport == "http":
        if values["auth"] is not None:  # only names of env variables and files travel (oauth_machine)
            values["auth"] = portable_auth(connection.name, values["auth"])
            secret_places.discard("OAuth token")
        if secret_places:
            raise _refuse(connection, sorted(secret_places)[0])
        values["headers"] = dict(values["headers"])
        return PortableConnection(type(connection), tuple(values.items()))
    from_process: list[str] = []
    kept_env: dict[str, str] = {}
    for key, value in values["env"].items():
        holds_secret = any(where == f"env {key}" or where.startswith(f"env {key} ") for where in secret_places)
        if not holds_secret:
            kept_env[key] = value
        elif os.environ.get(key) == value:
            from_process.append(key)
        else:
            raise _refuse(connection, f"environment variable {key}, set in the notebook,")
    others = sorted(w for w in secret_places if not w.startswith("env "))
    if others:
        raise _refuse(connection, others[0])
    values["env"] = kept_env
    return PortableConnection(type(connection), tuple(values.items()), tuple(from_process))


def _restore(description: PortableConnection) -> Portable:
    return description.connection()


def reduce_connection(connection: Portable) -> tuple[Any, tuple[PortableConnection]]:
    """``__reduce__`` of a connection: pickled as its :class:`PortableConnection`, secrets out."""
    return _restore, (portable(connection),)
