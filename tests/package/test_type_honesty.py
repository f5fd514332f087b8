"""The package's types are honest: no ``# type: ignore`` or ``cast`` papers over a mismatch in our own
code. What is left is over third-party stubs (IPython, pandas-stubs, the MCP SDK, jsonschema...), and
each says so where it stands: a ``# type: ignore`` names its error code and gives its reason in a comment
on the same line, and a ``cast(`` has a reason comment on its line. Read from the source with
``tokenize`` and ``ast``; the failure message counts what it found."""

from __future__ import annotations

import ast
import inspect
import io
import re
import tokenize
from pathlib import Path

import anvia_nb

PACKAGE = Path(anvia_nb.__file__).parent

_IGNORE = re.compile(r"type:\s*ignore")
_EXPLAINED = re.compile(r"#\s*type:\s*ignore\[[a-z][a-z-]*(\s*,\s*[a-z][a-z-]*)*\]\s*#\s*(?P<reason>.+)$")


def _reason(text: str) -> bool:
    """Whether a comment's text says something: a few words, not a bare marker."""
    return len(re.findall(r"[A-Za-z_]{2,}", text)) >= 2


def _problems(source: str, name: str) -> tuple[list[str], int, int]:
    """What in ``source`` breaks the rule, and how many ignores and casts it holds."""
    comments: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string
    found: list[str] = []
    ignores = 0
    for line, comment in sorted(comments.items()):
        if not _IGNORE.search(comment):
            continue
        ignores += 1
        explained = _EXPLAINED.search(comment)
        if explained is None or not _reason(explained.group("reason")):
            found.append(f"{name}:{line}: a type: ignore without an error code and a reason on its line: {comment}")
    casts = 0
    for node in ast.walk(ast.parse(source, name)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Name) and func.id == "cast") or (
            isinstance(func, ast.Attribute) and func.attr == "cast"
        ):
            casts += 1
            comment = comments.get(node.lineno, "")
            if not _reason(comment.lstrip("#")):
                found.append(f"{name}:{node.lineno}: a cast without a reason comment on its line")
    return found, ignores, casts


def test_every_ignore_and_cast_in_the_package_says_which_stub_it_is_over() -> None:
    found: list[str] = []
    ignores = casts = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        problems, file_ignores, file_casts = _problems(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
        found += problems
        ignores += file_ignores
        casts += file_casts
    assert found == [], (
        f"{len(found)} unexplained of {ignores} type: ignore and {casts} cast in anvia_nb/:\n" + "\n".join(found)
    )


def test_the_check_refuses_what_the_tree_once_held() -> None:
    old = (
        "return mcp.workload_identity(**given, scopes=scopes)  # type: ignore[arg-type]\n"
        "display(value)  # type: ignore\n"
        "x = f()  # type: ignore  # no code given\n"
        "y = cast(Any, z)\n"
        "w = typing.cast(int, v)  # noqa\n"
    )
    problems, ignores, casts = _problems(old, "old.py")
    assert (len(problems), ignores, casts) == (5, 3, 2)
    kept = (
        "display(value)  # type: ignore[no-untyped-call]  # IPython: display is untyped\n"
        "y = cast(Any, z)  # mcp SDK: send_request wants a result model\n"
    )
    assert _problems(kept, "kept.py") == ([], 1, 1)


def test_signatures_read_plainly_in_ipython() -> None:
    """What ``?`` shows: the timeout sentinel as ``DEFAULT`` (still an Enum member, so ``is`` and
    ``Literal`` checks hold), and ``Tool.map``'s ``self`` without the type its base tells mypy."""
    from anvia_nb.core.api.tool import Tool
    from anvia_nb.core.protocol import limits

    assert repr(limits.DEFAULT) == "DEFAULT"
    assert isinstance(limits.DEFAULT, limits.Default)
    assert "= DEFAULT" in str(inspect.signature(anvia_nb.connect_mcp))
    for method in (Tool.map, Tool.map_sync):
        assert inspect.signature(method).parameters["self"].annotation is inspect.Parameter.empty


def _is_any(node: ast.expr | None) -> bool:
    """Whether an annotation is ``Any`` or a union with ``Any`` in it (``X | Any``), quoted or not."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        node = ast.parse(node.value, mode="eval").body
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _is_any(node.left) or _is_any(node.right)
    return (isinstance(node, ast.Name) and node.id == "Any") or (isinstance(node, ast.Attribute) and node.attr == "Any")


def _exported(tree: ast.Module) -> set[str]:
    """A module's ``__all__``, with the classes of the instances it exports (``mcp = _Factories()``)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.List | ast.Tuple):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                names |= {str(e.value) for e in node.value.elts if isinstance(e, ast.Constant)}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        made = node.value.func
        if isinstance(made, ast.Name) and any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
            names.add(made.id)
    return names


def _public_any(source: str, name: str) -> list[tuple[int, str]]:
    """Each bare ``Any`` in a public signature of ``source``: the parameters and returns of the
    functions and the methods (``__init__`` and public ones) of the classes in ``__all__``, and
    their public annotated fields; as (line, what)."""
    tree = ast.parse(source, name)
    exported = _exported(tree)
    found: list[tuple[int, str]] = []

    def function(node: ast.FunctionDef | ast.AsyncFunctionDef, owner: str) -> None:
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        for argument in every:
            if argument is not None and argument.annotation is not None and _is_any(argument.annotation):
                found.append((argument.annotation.lineno, f"{owner}{node.name}({argument.arg})"))
        if node.returns is not None and _is_any(node.returns):
            found.append((node.returns.lineno, f"{owner}{node.name} return"))

    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in exported:
            function(node, "")
        elif isinstance(node, ast.ClassDef) and node.name in exported:
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    not item.name.startswith("_") or item.name == "__init__"
                ):
                    function(item, f"{node.name}.")
                elif (
                    isinstance(item, ast.AnnAssign)
                    and isinstance(item.target, ast.Name)
                    and not item.target.id.startswith("_")
                    and _is_any(item.annotation)
                ):
                    found.append((item.lineno, f"{node.name}.{item.target.id}"))
    return found


def _unexplained_any(source: str, name: str) -> tuple[list[str], int]:
    """The public signatures' bare ``Any`` without a reason comment on their line, and how many there are."""
    comments = {
        token.start[0]: token.string
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    }
    found = _public_any(source, name)
    unexplained = [
        f"{name}:{line}: {what} is typed Any without a reason comment on its line"
        for line, what in found
        if not _reason(comments.get(line, "").lstrip("#"))
    ]
    return unexplained, len(found)


def test_a_public_signatures_any_says_why_on_its_line() -> None:
    """A bare ``Any`` left in a public signature is honest only where the value is passed through
    untouched (to the SDK, IPython or ipywidgets, which have no types for it) or is theirs at the
    border; its line says so in a comment. Everything else is typed (``object`` where any value is
    taken and narrowed)."""
    found: list[str] = []
    total = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        problems, count = _unexplained_any(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
        found += problems
        total += count
    assert found == [], f"{len(found)} of {total} bare Any in public signatures say no reason:\n" + "\n".join(found)


def test_the_any_check_refuses_what_the_tree_once_held() -> None:
    old = (
        "from typing import Any\n"
        "__all__ = ['json_value', 'ShowPolicy', 'mcp']\n"
        "def json_value(value: Any, root: str = 'the value') -> Any:\n"
        "    return value\n"
        "def _private(value: Any) -> Any:\n"
        "    return value\n"
        "class ShowPolicy:\n"
        "    grant: Any = None\n"
        "    def mask_json(self, value: 'Any') -> Any:\n"
        "        return value\n"
        "    def _own(self, value: Any) -> None: ...\n"
        "class _Factories:\n"
        "    def memory(self, *, server: Any | None) -> None: ...\n"
        "mcp = _Factories()\n"
    )
    assert _unexplained_any(old, "old.py")[1] == 6
    kept = old.replace("None) -> None: ...", "None) -> None: ...  # the SDK's server object")
    assert _unexplained_any(kept, "kept.py")[1] == 6
    assert len(_unexplained_any(kept, "kept.py")[0]) == 5
