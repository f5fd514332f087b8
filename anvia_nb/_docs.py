"""Docstrings that share text: a parameter's description (or a whole section) written once in a
table and filled in where a docstring names it, as pandas does with ``@doc``.

A docstring names a shared part by a line holding only ``{name}``; :func:`fill_docstring` puts the
part's text there, indented as that line is, when the function is defined. So ``__doc__`` (what
IPython's ``?``, ``help()`` and the docstring test read) holds the whole text, and the text is
written once. Only whole ``{name}`` lines are filled: braces elsewhere in a docstring are left as
they are. Stdlib only.

Examples
--------
>>> TIMEOUT = {"timeout": "timeout_seconds : float or None, optional\\n    Seconds to wait."}
>>> @fill_docstring(TIMEOUT)
... def wait(timeout_seconds=None):
...     '''Wait.
...
...     Parameters
...     ----------
...     {timeout}
...     '''
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TypeVar

__all__ = ["fill_docstring", "filled"]

_PLACE = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\}[ \t]*$", re.MULTILINE)
"""A line that holds only ``{name}``: where a shared part goes."""

Documented = TypeVar("Documented", bound=Callable[..., object])


def filled(doc: str, parts: Mapping[str, str]) -> str:
    """``doc`` with each line that holds only ``{name}`` replaced by ``parts[name]``, indented as
    that line is (the part's own lines keep their indentation relative to its first line).

    Raises
    ------
    KeyError
        ``doc`` names a part ``parts`` does not hold (a typo fails when the module is imported).
    """

    def part(found: re.Match[str]) -> str:
        lines = parts[found["name"]].strip("\n").splitlines()
        return "\n".join(found["indent"] + line if line.strip() else "" for line in lines)

    return _PLACE.sub(part, doc)


def fill_docstring(parts: Mapping[str, str]) -> Callable[[Documented], Documented]:
    """A decorator that fills the shared ``parts`` into the function's docstring (see :func:`filled`).

    A docstring stripped away (``python -OO``) stays ``None``.
    """

    def fill(function: Documented) -> Documented:
        if function.__doc__ is not None:
            function.__doc__ = filled(function.__doc__, parts)
        return function

    return fill
