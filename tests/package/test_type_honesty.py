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
