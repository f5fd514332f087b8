"""Roots: the directories a server may work in, given by the notebook (MCP ``roots/list``).

A connection made with ``roots=[...]`` (``%mcp connect NAME --root PATH ...``) tells its server
that the client offers roots, and answers the server's ``roots/list`` with one ``file://`` URI per
path, so a server such as server-filesystem takes its allowed directories from the notebook.
Paths are checked when the connection is made: one that does not exist is a one-line error, and
nothing is started. Plain data only; the SDK callback that answers the server is in
:mod:`anvia_nb.core.transport.sdk.capabilities`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from anvia_nb.errors import InvalidTypeError, InvalidValueError

__all__ = ["root_paths", "root_uri"]


def root_paths(paths: Iterable[str | os.PathLike[str]] | None) -> tuple[str, ...]:
    """Each path made absolute (``~`` expanded), in order, once; raises when one does not exist."""
    if paths is None:
        return ()
    if isinstance(paths, str | bytes | os.PathLike):
        raise InvalidTypeError("roots must be a list of paths, not one path; write roots=[path].")
    found: list[str] = []
    for given in paths:
        if not isinstance(given, str | os.PathLike) or not os.fspath(given):
            raise InvalidTypeError(f"a root must be a path (a str or pathlib.Path), not {given!r}.")
        path = Path(os.fspath(given)).expanduser()
        if not path.exists():
            raise InvalidValueError(
                f"Root {os.fspath(given)!r} does not exist: give an existing directory "
                "(create it first, or fix the path)."
            )
        absolute = str(path.resolve())
        if absolute not in found:
            found.append(absolute)
    return tuple(found)


def root_uri(path: str) -> str:
    """The ``file://`` URI of an absolute path, as ``roots/list`` sends it."""
    return Path(path).as_uri()
