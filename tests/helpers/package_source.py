"""The package's source as the doc checks read it: its modules, what each imports, and the
sections and tables of a Markdown file.

An import is every way a module can reach another: ``import`` and ``from ... import`` at module
level, inside functions and under ``TYPE_CHECKING``, and a string that names a module of the
package (what ``importlib.import_module`` and the lazy name tables are given).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import anvia_nb

PACKAGE = Path(anvia_nb.__file__).parent
REPO = PACKAGE.parent


def module_name(path: Path) -> str:
    """``anvia_nb/core/api/tool.py`` -> ``anvia_nb.core.api.tool``; a package is its ``__init__``."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def tree(path: Path) -> ast.Module:
    """The module's syntax tree, parsed once per test session."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@functools.cache
def _all_modules() -> tuple[tuple[str, Path], ...]:
    return tuple((module_name(path), path) for path in sorted(PACKAGE.rglob("*.py")))


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    return dict(_all_modules())


@dataclass(frozen=True)
class Import:
    """One import of a module: the module it names, and where."""

    target: str
    line: int
    how: str  # "import", "string"


def _resolve(module: str | None, level: int, importer: str, is_package: bool) -> str:
    if level == 0:
        return module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def imports_of(path: Path, known: dict[str, Path] | None = None, as_module: str = "") -> list[Import]:
    """Every module of the package that the module at ``path`` imports, by any of the ways above
    (``as_module``: the name a file outside the package is read as)."""
    known = modules() if known is None else known
    importer = as_module or module_name(path)
    found: list[Import] = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, node.lineno, "import") for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module, node.level, importer, path.name == "__init__.py")
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.append(Import(child if child in known else base, node.lineno, "import"))
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known.keys() - {"anvia_nb"}
        ):
            found.append(Import(node.value, node.lineno, "string"))
    return [i for i in found if i.target == "anvia_nb" or i.target.startswith("anvia_nb.")]


def third_party_imports(path: Path) -> set[str]:
    """The top-level names of every other distribution the module imports (at any depth)."""
    names: set[str] = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value.split(".")[0])
    return names


# -- Markdown ---------------------------------------------------------------------------------


def section(path: Path, heading: str) -> str:
    """The text under ``heading`` (a whole heading line, ``## ...``) up to the next heading of its level."""
    text = path.read_text(encoding="utf-8")
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n") + len(heading) + 2
    ends = [m.start() for m in re.finditer(rf"\n#{{1,{len(level)}}} ", text[start:])]
    return text[start : start + ends[0]] if ends else text[start:]


def table_rows(text: str, first_header: str) -> Iterator[list[str]]:
    """The cells of each row of the Markdown table whose header row starts with ``| first_header |``."""
    lines = [line.strip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            return
        yield [cell.strip() for cell in line.strip().strip("|").split("|")]


def code_spans(text: str) -> list[str]:
    """The text of every `code span` in ``text``."""
    return re.findall(r"`([^`\n]+)`", text)


def paths_to_units(cell: str) -> list[str]:
    """```anvia_nb/core/api/`` and ``anvia_nb/errors.py``` -> ``anvia_nb.core.api`` and ``anvia_nb.errors``:
    a folder stands for every module under it, a file for itself (``__init__.py`` for its package)."""
    units = []
    for span in code_spans(cell):
        if not span.startswith("anvia_nb/"):
            continue  # a path, not a dotted name
        parts = span.rstrip("/").removesuffix(".py").split("/")
        if parts[-1] == "__init__":
            parts.pop()
        units.append(".".join(parts) + ("/" if span.endswith("/") else ""))
    return units
