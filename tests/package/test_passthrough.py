"""A ``Passthrough`` (a property that reads a field of the object a wrapper holds) is honest: the
type it declares, which mypy gives the attribute, is the type of the field it reads, and it reads
the way a written property does (IPython's ``?`` shows its docstring, it cannot be set)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import sys
import textwrap
import typing
from typing import Any

import pytest

import anvia_nb
from anvia_nb._passthrough import Passthrough


def _passthroughs() -> list[tuple[type, str, Passthrough[Any]]]:
    found = []
    for module in pkgutil.walk_packages(anvia_nb.__path__, "anvia_nb."):
        if ".demo_server." in module.name or module.name.endswith("__main__"):
            continue
        try:
            loaded = importlib.import_module(module.name)
        except ImportError:  # an extra that is not installed: its classes are not read here
            continue
        for cls in vars(loaded).values():
            if inspect.isclass(cls) and cls.__module__ == module.name:
                found += [(cls, name, value) for name, value in vars(cls).items() if isinstance(value, Passthrough)]
    return found


PASSTHROUGHS = _passthroughs()


def _field_type(cls: type, path: str) -> object:
    """The type of what ``path`` reads from an instance of ``cls``, from the annotations."""
    holder_name, field = path.split(".")
    holder_name = holder_name.removeprefix("_")  # a private attribute holding the parameter of its name
    holder = typing.get_type_hints(inspect.getattr_static(cls, "__init__"))[holder_name]
    member = inspect.getattr_static(holder, field, None)
    if isinstance(member, property) and member.fget is not None:
        return typing.get_type_hints(member.fget)["return"]
    hints = typing.get_type_hints(holder)
    return hints[field] if field in hints else _set_in_init(holder, field)


def _set_in_init(holder: type, field: str) -> object:
    """The annotation of ``self.field: T = ...`` in ``holder.__init__`` (an attribute set there)."""
    source = textwrap.dedent(inspect.getsource(inspect.getattr_static(holder, "__init__")))
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute) and node.target.attr == field:
            return eval(ast.unparse(node.annotation), vars(sys.modules[holder.__module__]))  # our own source
    raise AssertionError(f"{holder.__name__}.{field} has no annotation to hold a Passthrough to")


def test_the_package_has_its_passthroughs() -> None:
    assert {cls.__name__ for cls, _, _ in PASSTHROUGHS} >= {"Tool", "ResultView", "ReadView", "PromptView"}


def _written(hint: object) -> str:
    """A type as written: a recursive alias's ``ForwardRef('JsonValue')`` read as ``'JsonValue'``."""
    return re.sub(r"ForwardRef\(('\w+')[^)]*\)", r"\1", repr(hint))


@pytest.mark.parametrize(
    ("cls", "name", "field"), [pytest.param(*found, id=f"{found[0].__name__}.{found[1]}") for found in PASSTHROUGHS]
)
def test_a_passthrough_declares_the_type_of_the_field_it_reads(cls: type, name: str, field: Passthrough[Any]) -> None:
    declared = typing.get_args(field.__orig_class__)[0]  # type: ignore[attr-defined]  # Generic sets it on the instance
    assert _written(declared) == _written(_field_type(cls, field.path)), f"{cls.__name__}.{name}"
    assert field.__doc__, f"{cls.__name__}.{name} has no docstring for ? to show"


def test_it_reads_shows_and_refuses_as_a_property() -> None:
    class Info:
        name = "echo"

    class Wrapper:
        name = Passthrough[str]("info.name", "The name.")

        def __init__(self) -> None:
            self.info = Info()

    wrapper = Wrapper()
    assert wrapper.name == "echo" and isinstance(Wrapper.name, property) and Wrapper.name.__doc__ == "The name."
    with pytest.raises(AttributeError):
        wrapper.name = "other"  # type: ignore[assignment]  # the mistake tested: mypy refuses it too
