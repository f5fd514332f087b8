"""The public API says its parameters, what it returns and what it raises, as IPython's ``?`` shows it.

In a notebook, ``tool.call?`` and ``mcp.http?`` are how people read the API, so every public
callable reachable from ``anvia_nb.__all__`` (with the ``mcp`` factories, the methods and
properties of the public classes, and the dashboard's and the workshop's names) has a docstring in
numpydoc's plain sections:

- a function with parameters (besides ``self``) has a ``Parameters`` section naming each of them,
  and no name that is not one (a class may name its ``__init__``'s parameters in its own
  docstring, as numpydoc does; a dataclass names its fields in ``Attributes`` or ``Parameters``,
  its own or a base class's);
- a function whose return annotation is not ``None`` has a ``Returns`` section (properties are read
  as attributes: their prose says what they hold);
- a method that overrides one without a docstring of its own shows the base class's
  (``inspect.getdoc``, which IPython's ``?`` uses), so it is read there;
- a ``Raises`` section names only exception classes that exist (a built-in, a class of
  ``anvia_nb.errors``, or a name of the function's module);
- the sections use no Sphinx role (the pager shows it raw): names are written as ``code``.

Error classes are caught, not built, so their constructors are not held to a ``Parameters``
section; their docstrings say when they are raised.
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib
import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import anvia_nb
from anvia_nb import errors

SECTION = re.compile(r"^(?P<title>[A-Z][A-Za-z ]+)\n-+\n", re.MULTILINE)
"""A numpydoc heading: a title line underlined with dashes."""

ROLE = re.compile(r":[a-z]+:`[^`]*`")
"""A Sphinx role (``:meth:`x```): IPython's pager shows it raw, so the sections write ``x``."""

MODULES = ("anvia_nb.dashboard", "anvia_nb.workshop")
"""Modules beside ``anvia_nb.__all__`` whose public names a notebook imports."""


def _sections(doc: str) -> dict[str, str]:
    """The docstring's sections by title, each the text up to the next heading."""
    text = inspect.cleandoc(doc) + "\n"
    found: dict[str, str] = {}
    heads = list(SECTION.finditer(text))
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        found[head["title"].strip()] = text[head.end() : end]
    return found


def _entries(section: str) -> list[str]:
    """The names an entry line gives (``name : type``, ``a, b : int``, ``*args``), in order."""
    names: list[str] = []
    for line in section.splitlines():
        if not line.strip() or line[0].isspace():
            continue
        head = line.split(" : ", 1)[0]
        names += [name.strip() for name in head.split(",") if name.strip()]
    return names


def _parameters(function: Callable[..., Any]) -> list[str]:
    """The parameters a caller gives, as the docstring writes them (``*args``, ``**kwargs``)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return []
    names = []
    for i, parameter in enumerate(signature.parameters.values()):
        if i == 0 and parameter.name in ("self", "cls"):
            continue
        stars: dict[object, str] = {
            inspect.Parameter.VAR_POSITIONAL: "*",
            inspect.Parameter.VAR_KEYWORD: "**",
        }
        prefix = stars.get(parameter.kind, "")
        names.append(prefix + parameter.name)
    return names


def _returns_value(function: Callable[..., Any]) -> bool:
    try:
        annotation = inspect.signature(function).return_annotation
    except (TypeError, ValueError):
        return False
    return annotation not in (None, "None", inspect.Signature.empty)


def _ours(value: object) -> bool:
    return str(getattr(value, "__module__", "")).startswith("anvia_nb")


def _public_names() -> Iterator[tuple[str, object]]:
    for name in anvia_nb.__all__:
        if not name.startswith("_"):
            yield f"anvia_nb.{name}", getattr(anvia_nb, name)
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            value = getattr(module, name)
            if callable(value):
                yield f"{module_name}.{name}", value


def _members(cls: type) -> Iterator[tuple[str, object]]:
    """Public methods and properties a class has from our own code (its own or inherited)."""
    seen: set[str] = set()
    for owner in cls.__mro__:
        if not _ours(owner):
            continue
        for name, value in vars(owner).items():
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if isinstance(value, property) or inspect.isfunction(value):
                yield name, value


def _public_api() -> dict[str, tuple[object, type | None]]:
    """Every public callable: its dotted name, the object, and the class it is a member of."""
    api: dict[str, tuple[object, type | None]] = {}
    for path, value in _public_names():
        cls = value if isinstance(value, type) else None
        if cls is None and not inspect.isroutine(value) and _ours(type(value)):
            cls = type(value)  # the ``mcp`` object: its factories are what people call
        else:
            api[path] = (value, None)
        if cls is not None and _ours(cls):
            for name, member in _members(cls):
                api[f"{path}.{name}"] = (member, cls)
    return api


API = _public_api()


def _problems(path: str, value: object, cls: type | None) -> list[str]:
    doc = inspect.getdoc(value) if not isinstance(value, property) else value.__doc__
    if isinstance(value, type):
        return _class_problems(path, value)
    if not doc or not doc.strip():
        return [f"{path} has no docstring"]
    if isinstance(value, property) or not callable(value):
        return []
    return _function_problems(path, value, doc)


def _class_problems(path: str, cls: type) -> list[str]:
    doc = cls.__doc__
    if not doc or not doc.strip():
        return [f"{path} has no docstring"]
    if issubclass(cls, BaseException):
        return []
    sections = _sections(doc)
    if dataclasses.is_dataclass(cls):
        named = [
            name
            for owner in cls.__mro__
            if _ours(owner) and owner.__doc__
            for title in ("Attributes", "Parameters")
            for name in _entries(_sections(owner.__doc__).get(title, ""))
        ]  # the settings every connection has are named once, by their base class
        fields = [field.name for field in dataclasses.fields(cls) if not field.name.startswith("_")]
        return _role_problems(path, sections) + [
            f"{path} does not name its field {name!r} in Attributes" for name in fields if name not in named
        ]
    init = vars(cls).get("__init__")
    if init is None or not _parameters(init):
        return []
    init_doc = inspect.getdoc(init) or ""
    documented = "Parameters" in sections or "Parameters" in _sections(init_doc)
    where = doc if "Parameters" in sections else init_doc
    return (
        _function_problems(f"{path}.__init__", init, where)
        if documented
        else [f"{path} has no Parameters section (in its docstring or its __init__'s)"]
    )


def _role_problems(path: str, sections: dict[str, str]) -> list[str]:
    return [
        f"{path}: {title} uses the Sphinx role {role}: write ``code``"
        for title, text in sections.items()
        for role in ROLE.findall(text)
    ]


def _function_problems(path: str, function: Callable[..., Any], doc: str) -> list[str]:
    sections = _sections(doc)
    problems = []
    parameters = _parameters(function)
    if parameters:
        named = _entries(sections.get("Parameters", ""))
        problems += [f"{path}: parameter {name!r} is not in Parameters" for name in parameters if name not in named]
        problems += [
            f"{path}: Parameters names {name!r}, which it does not take" for name in named if name not in parameters
        ]
    if _returns_value(function) and "Returns" not in sections and "Yields" not in sections:
        problems.append(f"{path} returns a value but has no Returns section")
    problems += _role_problems(path, sections)
    module = inspect.getmodule(function)
    for name in _entries(sections.get("Raises", "")):
        if not _is_exception(name, module):
            problems.append(f"{path}: Raises names {name!r}, which is not an exception class")
    return problems


def _is_exception(name: str, module: object) -> bool:
    short = name.strip("`").rsplit(".", 1)[-1]
    for home in (builtins, errors, module):
        value = getattr(home, short, None)
        if isinstance(value, type) and issubclass(value, BaseException):
            return True
    return False


def test_the_public_api_is_found() -> None:
    """The walk reaches what the docstrings are for (a broken walk would pass everything)."""
    for path in (
        "anvia_nb.connect_mcp",
        "anvia_nb.mcp.stdio",
        "anvia_nb.mcp.http",
        "anvia_nb.mcp.oauth",
        "anvia_nb.McpServer.tool",
        "anvia_nb.McpServer.read_resource",
        "anvia_nb.Tool.call",
        "anvia_nb.Tool.map",
        "anvia_nb.ResultView.frame",
        "anvia_nb.McpClient.call_tool",
        "anvia_nb.form",
        "anvia_nb.dashboard.soft_connect",
        "anvia_nb.workshop.check",
    ):
        assert path in API, path


@pytest.mark.parametrize("path", sorted(API))
def test_public_docstring(path: str) -> None:
    value, cls = API[path]
    problems = _problems(path, value, cls)
    assert not problems, "\n".join(problems)


def test_the_sections_are_read() -> None:
    def sample(a: int, *rest: int, flag: bool = False) -> int:
        """Add.

        Parameters
        ----------
        a, *rest : int
            Numbers.
        flag : bool
            Unused.

        Returns
        -------
        int

        Raises
        ------
        ConnectError
            Never.
        """
        return a + sum(rest)

    assert not _function_problems("sample", sample, inspect.getdoc(sample) or "")
    assert _function_problems("sample", sample, "Add.\n\nRaises\n------\nNoSuchError\n    Never.\n")
    assert _function_problems("sample", sample, "Add.\n\nRaises\n------\nConnectError\n    As :meth:`call`.\n")
