"""What the docs say about the code's structure is checked against the code.

The error tree, the subcommands, the settings, the README's layout, where HTML is written outside
display, where SDK exceptions are tested, and every path and dotted name the docs give: each is
read from the doc and compared with the package, so neither can change without the other.
(Who may import whom is test_import_layers.py.)
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

from anvia_nb import errors
from anvia_nb.magic.magics import McpMagics
from anvia_nb.magic.output.help import TOPICS
from anvia_nb.magic.subcommands import TABLE
from tests.helpers.package_source import (
    PACKAGE,
    REPO,
    code_spans,
    module_name,
    modules,
    paths_to_units,
    section,
    table_rows,
    tree,
)

README = REPO / "README.md"
ARCHITECTURE = REPO / "docs" / "architecture.md"
DOCS = [README, *sorted((REPO / "docs").rglob("*.md"))]  # the guides in docs/guides/ too
TREE_LINE = re.compile(r"^(?P<indent>[│ ]*[├└]── )?(?P<name>\w+)(?: \((?P<bases>[\w, ]+)\))?(?:\s|$)")


# -- the error tree --------------------------------------------------------------------------


def _drawn_tree() -> dict[str, tuple[str, tuple[str, ...]]]:
    """The tree of docs/architecture.md: each class, its parent in the tree and its other bases."""
    block = section(ARCHITECTURE, "## The error tree").split("```")[1]
    drawn: dict[str, tuple[str, tuple[str, ...]]] = {}
    parents: list[str] = []
    for line in block.strip("\n").splitlines():
        match = TREE_LINE.match(line)
        assert match, line
        depth = len(match["indent"] or "") // 4
        parents[depth:] = [match["name"]]
        bases = tuple(b.strip() for b in match["bases"].split(",")) if match["bases"] else ()
        assert match["name"] not in drawn, f"{match['name']} is drawn twice"
        drawn[match["name"]] = (parents[depth - 1] if depth else "", bases)
    return drawn


def _real_tree() -> dict[str, tuple[str, tuple[str, ...]]]:
    real: dict[str, tuple[str, tuple[str, ...]]] = {}
    for name, value in vars(errors).items():
        if isinstance(value, type) and issubclass(value, errors.AnviaError) and value.__module__ == errors.__name__:
            ours = [b.__name__ for b in value.__bases__ if issubclass(b, errors.AnviaError)]
            others = tuple(b.__name__ for b in value.__bases__ if not issubclass(b, errors.AnviaError))
            real[name] = (ours[0] if ours else "", () if others == ("Exception",) else others)
    return real


def test_the_error_tree_drawn_in_the_docs_is_the_tree_of_errors_py() -> None:
    drawn, real = _drawn_tree(), _real_tree()
    assert sorted(drawn) == sorted(real)
    assert {n: drawn[n] for n in real if drawn[n] != real[n]} == {}
    assert set(real) - {"AnviaError"} == set(errors.__all__) - {"AnviaError"}


def test_the_error_tree_is_drawn_once() -> None:
    sources = [*DOCS, *sorted(PACKAGE.rglob("*.py"))]
    drawings = {
        str(path.relative_to(REPO)): len(re.findall(r"^\s*AnviaError\s*\n\s*[├└]── ", path.read_text(), re.M))
        for path in sources
    }
    assert {path: n for path, n in drawings.items() if n} == {"docs/architecture.md": 1}


# -- subcommands and settings ----------------------------------------------------------------


def test_the_readme_lists_every_subcommand_of_the_table() -> None:
    text = README.read_text()
    start = text.index("`%mcp help` prints one screen with every subcommand:")
    listed = code_spans(text[start : text.index("Settings are traitlets", start)])[1:]
    assert [w for w in listed if not w.startswith("%")] == list(TABLE)


def test_every_mcp_subcommand_the_docs_mention_is_in_the_table() -> None:
    named = {
        (str(path.relative_to(REPO)), word)
        for path in DOCS
        for word in re.findall(r"(?<![\w%])%{1,2}mcp ([a-z][a-z_-]*)", path.read_text())
    }
    assert sorted((p, w) for p, w in named if w not in TABLE) == []


def _settings() -> dict[str, str]:
    """Every ``%config McpMagics`` setting and its default, as Python writes it."""
    return {name: repr(trait.default_value) for name, trait in McpMagics.class_traits(config=True).items()}


def test_the_readme_settings_table_is_every_setting_with_its_default() -> None:
    rows = list(table_rows(section(README, "## Settings and troubleshooting"), "`%config McpMagics.…`"))
    documented = {row[0].strip("`"): row[1].strip("`") for row in rows}
    assert documented == _settings()
    assert all(row[2] for row in rows)


def test_help_settings_names_every_setting_with_its_default() -> None:
    shown = dict(re.findall(r"^  (\w+) = (\S+)", TOPICS["settings"], re.M))
    assert shown == _settings()


# -- the README's layout ---------------------------------------------------------------------


def test_the_readme_layout_names_every_package_and_top_module() -> None:
    named = {span.rstrip("/") for span in code_spans(section(README, "## Layout"))}
    parts = [
        *(p for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()),
        *(p for p in (PACKAGE / "core").iterdir() if (p / "__init__.py").exists()),
    ]
    expected = {str(p.relative_to(REPO)) for p in parts}
    assert sorted(expected - named) == []


# -- HTML outside display, SDK exceptions ----------------------------------------------------

HTML_TAG = re.compile(
    r"<(?:div|span|style|table|tr|td|a|b|i|p|pre|code|img|br|ul|li|details|summary|script|iframe)[\s>]"
)


def _texts(tree: ast.AST) -> list[ast.Constant]:
    """String constants that are not docstrings and not in a ``__repr__``."""
    left_out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "__repr__":
            left_out.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            left_out.add(id(node.value))  # a docstring, of a module, a class, a function or a name
    return [
        n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in left_out
    ]


def _table_modules(heading: str, first: str) -> set[str]:
    rows = table_rows(section(ARCHITECTURE, heading), first)
    return {unit for row in rows for unit in paths_to_units(row[0])}


def test_html_is_written_outside_display_only_where_the_docs_say() -> None:
    writing = {
        name
        for name, path in modules().items()
        if not name.startswith(("anvia_nb.display", "anvia_nb.demo_server"))
        and any(isinstance(c.value, str) and HTML_TAG.search(c.value) for c in _texts(tree(path)))
    }
    assert writing == _table_modules("### What each layer is for", "module")


def _sdk_exception_names(tree: ast.AST) -> set[str]:
    """Names bound in the module to exception classes of the MCP SDK."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("mcp", "mcp_types"):
            for alias in node.names:
                if not alias.name.endswith(("Error", "Exception", "Exceeded", "Warning")):
                    continue  # not an exception's name: its module is not imported to find out
                value = getattr(importlib.import_module(node.module), alias.name, None)
                if isinstance(value, type) and issubclass(value, BaseException):
                    names.add(alias.asname or alias.name)
    return names


def _functions_testing(tree: ast.AST, names: set[str]) -> set[str]:
    """Functions with an ``except``, ``contextlib.suppress`` or ``isinstance`` naming one of ``names``."""
    found: set[str] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            tested: list[ast.AST] = []
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                tested = [node.type]
            elif isinstance(node, ast.Call):
                called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                tested = [*node.args] if called == "suppress" else [*node.args[1:]] if called == "isinstance" else []
            if any(isinstance(n, ast.Name) and n.id in names for t in tested for n in ast.walk(t)):
                found.add(function.name)
    return found


def test_sdk_exceptions_are_tested_only_in_the_functions_the_docs_list() -> None:
    found: set[tuple[str, str]] = set()
    for name, path in modules().items():
        if name.startswith("anvia_nb.demo_server"):
            continue
        parsed = tree(path)
        names = _sdk_exception_names(parsed)
        found.update((name, function) for function in _functions_testing(parsed, names) if names)
    rows = table_rows(section(ARCHITECTURE, "### The border with the MCP SDK"), "module")
    listed = {(paths_to_units(row[0])[0], row[1].strip("`")) for row in rows}
    assert found == listed


def test_only_the_magic_raises_ipythons_usage_error() -> None:
    """architecture.md: "Only the magic turns our errors into IPython's ``UsageError``"."""
    assert "Only the magic turns" in ARCHITECTURE.read_text()
    using = {
        name
        for name, path in modules().items()
        if any(isinstance(n, ast.Name) and n.id == "UsageError" for n in ast.walk(tree(path)))
    }
    assert using and all(name.startswith("anvia_nb.magic.") for name in using)


# -- paths and names the docs give -----------------------------------------------------------

FOLDERS = ("core", "magic", "display", "runtime", "widgets", "frames", "demo_server")


def _named_path(span: str) -> Path | None:
    """The file or folder a code span names, if it names one of the repository's."""
    if not re.fullmatch(r"[\w.-]+(/[\w.-]+)*/?", span) or ("/" not in span and not span.endswith(".py")):
        return None
    first = span.split("/")[0]
    if first in FOLDERS:
        return PACKAGE / span
    if first in ("anvia_nb", "tests", "benchmarks", "notebooks", "docs", "binder"):
        return REPO / span
    return None


def test_every_path_the_docs_name_exists() -> None:
    missing = [
        f"{path.relative_to(REPO)}: {span}"
        for path in DOCS
        for span in code_spans(path.read_text())
        if (named := _named_path(span)) is not None and not named.exists()
    ]
    assert missing == []


def test_every_dotted_name_the_docs_give_resolves() -> None:
    known = modules()
    unresolved = []
    for path in DOCS:
        for dotted in set(re.findall(r"\banvia_nb(?:\.\w+)+", path.read_text())):
            parts = dotted.split(".")
            at = max(i for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in known)
            value: object = importlib.import_module(".".join(parts[:at]))
            for attribute in parts[at:]:
                value = getattr(value, attribute, None)
            if value is None:
                unresolved.append(f"{path.relative_to(REPO)}: {dotted}")
    assert unresolved == []


def test_module_name_reads_packages_as_their_init() -> None:
    assert module_name(PACKAGE / "core" / "__init__.py") == "anvia_nb.core"
    assert module_name(PACKAGE / "errors.py") == "anvia_nb.errors"
