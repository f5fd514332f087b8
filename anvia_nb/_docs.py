"""Docstrings that share text: a parameter's description (or a whole section) written once in a
table and filled in where a docstring names it, as pandas does with ``@doc``.

A docstring names a shared part by a line holding only ``{name}``; :func:`fill_docstring` puts the
part's text there, indented as that line is, when the function is defined. So ``__doc__`` (what
IPython's ``?``, ``help()`` and the docstring test read) holds the whole text, and the text is
written once. Only whole ``{name}`` lines are filled: braces elsewhere in a docstring are left as
they are.

Keywords several public functions share are declared once, as a TypedDict the functions take as
``**options: Unpack[TheKeywords]``: :func:`shared_keywords` makes their signatures show each keyword
and its default (what ``?`` shows), and :func:`refuse_unknown` refuses a mistyped keyword as Python
does (an ``InvalidTypeError``, a ``TypeError``), naming the public function. The standard library
and the error tree only.

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

import inspect
import re
from collections.abc import Callable, Mapping
from typing import TypeVar

from anvia_nb.errors import InvalidTypeError

__all__ = ["fill_docstring", "filled", "refuse_unknown", "shared_keywords"]

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


def shared_keywords(keywords: type, defaults: Mapping[str, object]) -> Callable[[Documented], Documented]:
    """A decorator for a function that takes ``**options: Unpack[keywords]`` (keywords several
    public functions share, declared once as a TypedDict): its signature shows each keyword with its
    default, as if spelled out, so ``?``, ``help()`` and ``inspect.signature`` name them all.

    Parameters
    ----------
    keywords : type
        The TypedDict the function's ``**options`` unpacks.
    defaults : mapping
        Each keyword's default, as the function applies it.

    Returns
    -------
    callable
        The decorator; it returns the function itself, its ``__signature__`` set.

    Raises
    ------
    KeyError
        ``defaults`` lacks a keyword (a typo fails when the module is imported).
    """

    def spell(function: Documented) -> Documented:
        signature = inspect.signature(function)
        spelled = [
            inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, default=defaults[key], annotation=_written(hint))
            for key, hint in keywords.__annotations__.items()
        ]
        kept = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        vars(function)["__signature__"] = signature.replace(parameters=[*kept, *spelled])  # what inspect reads
        return function

    return spell


def _written(hint: object) -> object:
    """A TypedDict's annotation as written (it holds a ``ForwardRef``), as a signature shows it."""
    return getattr(hint, "__forward_arg__", hint)


def refuse_unknown(function: str, options: Mapping[str, object], keywords: type) -> None:
    """Refuse a keyword ``keywords`` (a TypedDict) does not name, as Python refuses a mistyped one.

    Parameters
    ----------
    function : str
        The public function's name as the person wrote it (``mcp.stdio``).
    options : mapping
        The ``**options`` it was given.
    keywords : type
        The TypedDict that declares them.

    Raises
    ------
    InvalidTypeError
        A keyword is not one of ``keywords``; the message names the function and where to read what it takes.
    """
    unknown = [key for key in options if key not in keywords.__annotations__]
    if unknown:
        raise InvalidTypeError(
            f"{function}() got an unexpected keyword argument {unknown[0]!r} ({function}? lists what it takes)."
        )
