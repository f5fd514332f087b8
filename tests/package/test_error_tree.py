"""One error tree: every error anvia_nb raises on purpose is a class of ``anvia_nb.errors``.

Walks the package's source: a ``raise`` of a built-in exception (``ValueError(...)``,
``TypeError(...)``...) is a deliberate error outside the documented tree. The only exceptions
are a module's ``__getattr__`` (the import protocol wants ``AttributeError``) and the bundled
demo server, whose raises become a tool's error result on the server side.
"""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import anvia_nb
from anvia_nb import errors

PACKAGE = Path(anvia_nb.__file__).parent
BUILTIN_ERRORS = {
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
}


class _Raises(ast.NodeVisitor):
    """Raises of built-in exceptions, outside any ``__getattr__``."""

    def __init__(self) -> None:
        self.found: list[tuple[int, str]] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name != "__getattr__":
            self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Raise(self, node: ast.Raise) -> None:
        target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if isinstance(target, ast.Name) and target.id in BUILTIN_ERRORS:
            self.found.append((node.lineno, target.id))


def _raised_builtins(path: Path) -> list[str]:
    visitor = _Raises()
    visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return [f"{path.relative_to(PACKAGE.parent)}:{line}: raise {name}" for line, name in visitor.found]


def test_every_deliberate_raise_is_a_class_of_the_error_tree() -> None:
    offenders: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "demo_server":
            continue
        offenders.extend(_raised_builtins(path))
    assert offenders == []


def test_every_error_class_lives_in_errors_py_and_subclasses_anvia_error() -> None:
    outside: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "errors.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name) and (base.id == "AnviaError" or base.id in BUILTIN_ERRORS)
                for base in node.bases
            ):
                outside.append(f"{path.relative_to(PACKAGE.parent)}: class {node.name}")
    assert outside == []
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), errors.AnviaError), name
