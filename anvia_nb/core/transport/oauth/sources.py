"""Where a machine's OAuth secret comes from: an environment variable or a file, named, never
held as a value.

A grant (:mod:`anvia_nb.core.transport.oauth.grants`) keeps a :class:`Source` for its client
secret, private key, ID token or assertion, and reads it when a token is needed, in the process
that needs it: the kernel, or a Dask worker that received the connection pickled (the source's
names travel, the value never does). A file is read again at each token request, so a workload
identity token that the platform rotates (a Kubernetes projected token) is always the current one.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, overload

from anvia_nb.core.protocol import limits
from anvia_nb.errors import AuthorizationError, InvalidValueError

__all__ = ["Source", "source", "source_from"]


@dataclass(frozen=True)
class Source:
    """One secret's place: ``env`` (a variable of the reading process) or ``file`` (a path there)."""

    what: str
    """What it holds, for messages: ``"client secret"``, ``"private key"``, ``"ID token"``."""
    env: str | None = None
    file: str | None = None

    def where(self) -> str:
        return f"the environment variable {self.env}" if self.env else f"the file {self.file}"

    def read(self, server: str) -> str:
        """The value, now, in this process; a one-line :class:`AuthorizationError` naming what is missing."""
        if self.env:
            value = os.environ.get(self.env, "").strip()
            if not value:
                raise AuthorizationError(
                    f"{server!r} needs its OAuth {self.what} from the environment variable {self.env}, which is not "
                    f"set in this process (pid {os.getpid()}): export it where the kernel and each Dask worker start.",
                    server,
                )
            return value
        assert self.file is not None
        try:
            with open(Path(self.file).expanduser(), "rb") as handle:
                value = handle.read(limits.SECRET_FILE_BYTES).decode("utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise AuthorizationError(
                f"{server!r} needs its OAuth {self.what} from the file {self.file}, which cannot be read in this "
                f"process (pid {os.getpid()}): {type(exc).__name__}. Put it there (mode 0600) on every machine that "
                "connects.",
                server,
            ) from None
        if not value:
            raise AuthorizationError(f"{server!r}: the file {self.file} holds no OAuth {self.what}.", server)
        return value

    def peek(self) -> str | None:
        """The value if it can be read now, else ``None`` (for masking: never raises)."""
        try:
            return self.read("")
        except AuthorizationError:
            return None


AssertionSource = Source | Callable[..., Any]


@overload
def source(what: str, env: str | None, file: str | None, *, option: str, required: Literal[True] = True) -> Source: ...


@overload
def source(what: str, env: str | None, file: str | None, *, option: str, required: bool) -> Source | None: ...


def source(what: str, env: str | None, file: str | None, *, option: str, required: bool = True) -> Source | None:
    """The :class:`Source` given as ``{option}_env=NAME`` or ``{option}_file=PATH`` (exactly one)."""
    if env is not None and file is not None:
        raise InvalidValueError(f"Give the {what} as {option}_env=NAME or {option}_file=PATH, not both.")
    if env is None and file is None:
        if required:
            raise InvalidValueError(
                f"Say where the {what} is: {option}_env=NAME (an environment variable of the kernel and of any "
                f"Dask worker) or {option}_file=PATH; never its value in the notebook."
            )
        return None
    if env is not None and (not isinstance(env, str) or not env or "=" in env or env.startswith("-")):
        raise InvalidValueError(
            f"{option}_env takes the NAME of an environment variable, not {str(env)[:3]!r}…: the value itself "
            "never goes in the notebook."
        )
    return Source(what, env=env) if env is not None else Source(what, file=os.fspath(str(file)))


def source_from(what: str, given: object, env: str | None, file: str | None, *, option: str) -> AssertionSource | None:
    """An assertion's source: a callable (``option=``), an env variable or a file; at most one."""
    if given is not None:
        if not callable(given):
            raise InvalidValueError(
                f"{option}= takes a function that returns the {what}; a literal {what} would stay in the notebook: "
                f"give {option}_env=NAME or {option}_file=PATH instead."
            )
        if env is not None or file is not None:
            raise InvalidValueError(f"Give the {what} one way: {option}=, {option}_env= or {option}_file=.")
        function: Callable[..., Any] = given
        return function
    return source(what, env, file, option=option, required=False)
