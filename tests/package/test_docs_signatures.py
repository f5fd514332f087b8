"""What the docs say a call takes, and the numbers they give for bounds, are checked against the code.

- Every call the docs write with keywords (``mcp.stdio(name=..., keep_log=False)``) names
  parameters the real function has; in the signature tables (architecture.md's "Anvia names and
  anvia_nb names", mapping.md's ``call_outcome``) a literal default equals the real one, and a
  default given as a time ("30 s") equals the constant the code falls back on.
- Every number the README and the docs state for a bound of ``core/protocol/limits.py`` equals the
  constant.
- Every guide in docs/guides/ is listed, every relative link of the docs reaches a file, and a link
  to a heading reaches that heading. (That every path the docs name exists is
  test_docs_match_code.py, over the guides too.)
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import anvia_nb
from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.server import McpServer
from anvia_nb.core.api.tool import Tool
from anvia_nb.core.protocol import limits
from anvia_nb.core.transport.client import McpClient
from anvia_nb.magic.magics import McpMagics
from tests.helpers.package_source import REPO, code_spans, section, table_rows

ARCHITECTURE = REPO / "docs" / "architecture.md"
MAPPING = REPO / "docs" / "mapping.md"
GUIDES = REPO / "docs" / "guides"
DOCS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]

# -- calls and their defaults ----------------------------------------------------------------

OWNERS: dict[str, object] = {
    "mcp": mcp,
    "tool": Tool,
    "Tool": Tool,
    "server": McpServer,
    "McpClient": McpClient,
    "anvia_nb": anvia_nb,
}
"""What the first word of a documented call names (``tool.call`` is ``Tool.call``)."""

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "connect_mcp": connect_mcp,
    "call": Tool.call,
    "call_outcome": Tool.call_outcome,
}
"""Bare function names the docs call."""

OTHER_CALLS = {"form", "panel", "soft_connect", "Subcommand", "RenderSettings", "Path", "connect", "Client", "masked"}
"""Callables the docs write that this test does not check: not ours (``Path``, the SDK's
``Client``, a test helper's ``masked``), widgets, or a method named in prose (``connect()``)."""

SENTINEL_SECONDS: dict[tuple[str, str], float] = {
    ("connect_mcp", "timeout_seconds"): limits.DEFAULT_CONNECT_TIMEOUT_SECONDS,
    ("Tool.call", "timeout_seconds"): limits.DEFAULT_CALL_TIMEOUT_SECONDS,
    ("Tool.call_outcome", "timeout_seconds"): limits.DEFAULT_CALL_TIMEOUT_SECONDS,
    ("Tool.call", "max_time_seconds"): limits.DEFAULT_CALL_MAX_SECONDS,
    ("Tool.call_outcome", "max_time_seconds"): limits.DEFAULT_CALL_MAX_SECONDS,
}
"""What ``limits.DEFAULT`` ("no timeout given") means for each parameter that takes it."""


def _callee(node: ast.expr) -> tuple[str, Callable[..., Any]] | None:
    """``mcp.stdio`` -> ("mcp.stdio", the function); ``None`` for a callable checked elsewhere."""
    if isinstance(node, ast.Name):
        if node.id in OTHER_CALLS:
            return None
        assert node.id in FUNCTIONS, f"the docs call {node.id}(...): say in FUNCTIONS what it is"
        return FUNCTIONS[node.id].__qualname__, FUNCTIONS[node.id]
    assert isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name), ast.unparse(node)
    owner = node.value.id
    if owner == "os" or owner in OTHER_CALLS:
        return None
    assert owner in OWNERS, f"the docs call {ast.unparse(node)}(...): say in OWNERS what {owner} is"
    found = OWNERS[owner]
    method = getattr(found, node.attr, None)
    assert callable(method), f"{ast.unparse(node)} is not a callable of {owner}"
    return f"{found.__name__ if isinstance(found, type) else owner}.{node.attr}", method


def _calls(span: str) -> Iterator[ast.Call]:
    """Every call written in a code span (``await`` and nested calls included); none if it is not Python."""
    try:
        parsed = ast.parse(span.removeprefix("await ").strip(), mode="eval")
    except SyntaxError:
        return
    yield from (node for node in ast.walk(parsed) if isinstance(node, ast.Call))


def _literal(node: ast.expr) -> tuple[bool, object]:
    """``(True, value)`` for a literal with no ``...`` in it, else ``(False, None)``."""
    if any(isinstance(n, ast.Constant) and n.value is Ellipsis for n in ast.walk(node)):
        return False, None
    try:
        return True, ast.literal_eval(node)
    except ValueError:
        return False, None


def _problems(span: str, context: str, *, defaults: bool) -> list[str]:
    """What in one documented call does not match the code. ``defaults``: the span states a
    signature (its literals are the defaults, and ``context`` its prose), not a use."""
    found = []
    for call in _calls(span):
        named = _callee(call.func)
        if named is None:
            continue
        name, function = named
        parameters = inspect.signature(function).parameters
        takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
        positional = [p for p in parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        positional = [p for p in positional if p.name not in ("self", "cls")]
        given = [a for a in call.args if not (isinstance(a, ast.Constant) and a.value is Ellipsis)]
        if len(given) > len(positional) and not any(p.kind is p.VAR_POSITIONAL for p in parameters.values()):
            found.append(f"{span}: {name} takes {len(positional)} positional arguments")
        for keyword in call.keywords:
            key = keyword.arg
            if key is None or (key not in parameters and takes_any):
                continue
            if key not in parameters:
                found.append(f"{span}: {name} has no parameter {key!r}")
                continue
            if not defaults:
                continue
            real = parameters[key].default
            is_literal, written = _literal(keyword.value)
            if is_literal and (real is inspect.Parameter.empty or written != real or type(written) is not type(real)):
                found.append(f"{span}: {name}'s {key} defaults to {real!r}, not {written!r}")
            stated = re.search(rf"`{key}`[^|`]*?\b(\d+(?:\.\d+)?) s\b", context)
            seconds = SENTINEL_SECONDS.get((name, key)) if real is limits.DEFAULT else real
            if real is limits.DEFAULT and seconds is None:
                found.append(f"{span}: say in SENTINEL_SECONDS what limits.DEFAULT means for {name}'s {key}")
            elif real is limits.DEFAULT and not is_literal and stated is None:
                found.append(f"{span}: {name}'s {key} has a default the docs do not state (write '`{key}` is N s')")
            elif stated is not None and float(stated[1]) != seconds:
                found.append(f"{span}: {name}'s {key} defaults to {seconds} s, not {stated[1]} s")
    return found


def _signature_rows() -> list[tuple[str, str]]:
    """``(span, context)`` of every call the signature tables and sentences state."""
    rows = table_rows(section(ARCHITECTURE, "### Anvia names and anvia_nb names"), "Anvia (TypeScript)")
    stated = [(span, " ".join(row)) for row in rows for span in code_spans(row[1])]
    paragraph = section(MAPPING, "## `call()` and `call_outcome()`").split("\n\n")[1]
    stated += [(span, paragraph) for span in code_spans(paragraph)]
    return stated


def test_the_signature_tables_state_real_parameters_and_defaults() -> None:
    stated = _signature_rows()
    assert len([span for span, _ in stated if "(" in span]) >= 8, "the signature tables were not found"
    assert [p for span, context in stated for p in _problems(span, context, defaults=True)] == []


def test_every_call_the_docs_write_names_real_parameters() -> None:
    spans = [(path, span) for path in DOCS for span in code_spans(path.read_text(encoding="utf-8")) if "=" in span]
    checked = [(path, span) for path, span in spans if any(True for _ in _calls(span))]
    assert len(checked) >= 20, "the calls in the docs were not found"
    found = [f"{path.relative_to(REPO)}: {p}" for path, span in checked for p in _problems(span, "", defaults=False)]
    assert found == []


@pytest.mark.parametrize(
    ("span", "context", "problem"),
    [
        ("await connect_mcp(connection, timeout_seconds=None)", "", "connect_mcp's timeout_seconds defaults to"),
        ("await connect_mcp(connection, timeout_seconds=...)", "", "has a default the docs do not state"),
        ("await connect_mcp(connection, timeout_seconds=...)", "`timeout_seconds` is 20 s", "not 20 s"),
        ("mcp.stdio(name=..., keep_log=True)", "", "mcp.stdio's keep_log defaults to False"),
        ("mcp.stdio(name=..., keep_logs=False)", "", "has no parameter 'keep_logs'"),
        ("mcp.http(name=..., timeout_seconds=...)", "`timeout_seconds` is 3 s", "not 3 s"),
        ("await tool.call_outcome(a, b)", "", "takes 1 positional arguments"),
    ],
)
def test_a_wrong_signature_line_is_found(span: str, context: str, problem: str) -> None:
    assert any(problem in p for p in _problems(span, context, defaults=True)), _problems(span, context, defaults=True)


def test_what_limits_default_means_is_what_the_code_falls_back_on() -> None:
    from anvia_nb.core.api.connections import connect_timeout

    connection = mcp.stdio(name="x", command="python")
    assert connect_timeout(connection, limits.DEFAULT) == SENTINEL_SECONDS[("connect_mcp", "timeout_seconds")]
    assert limits.timeout_or_default(limits.DEFAULT, limits.DEFAULT_CALL_TIMEOUT_SECONDS) == 60.0
    assert limits.max_time_or_default(limits.DEFAULT, 60.0) == SENTINEL_SECONDS[("Tool.call", "max_time_seconds")]


# -- numbers the docs give for the bounds ----------------------------------------------------

MIB = 1024 * 1024

BOUNDS: list[tuple[str, str, float]] = [
    ("README.md", r"`connect_mcp` gives up after (\d+) s", limits.DEFAULT_CONNECT_TIMEOUT_SECONDS),
    ("README.md", r"a call after (\d+) s without an answer", limits.DEFAULT_CALL_TIMEOUT_SECONDS),
    ("README.md", r"starts the (\d+) s again", limits.DEFAULT_CALL_TIMEOUT_SECONDS),
    ("README.md", r"`max_time_seconds`, (\d+) s by\s+default", limits.DEFAULT_CALL_MAX_SECONDS),
    ("README.md", r"message may be at most (\d+) MiB", limits.MAX_MESSAGE_BYTES / MIB),
    ("README.md", r"connection's `max_calls_in_flight` \((\d+);", limits.DEFAULT_MAX_CALLS_IN_FLIGHT),
    ("docs/safety.md", r"maximum message size \((\d+) MiB\)", limits.MAX_MESSAGE_BYTES / MIB),
    ("docs/troubleshooting.md", r"did not finish connecting within (\d+) s", limits.DEFAULT_CONNECT_TIMEOUT_SECONDS),
    ("docs/troubleshooting.md", r"is bounded by (\d+) s unless given", limits.DEFAULT_CONNECT_TIMEOUT_SECONDS),
    ("docs/troubleshooting.md", r"`tool\.call_task`\) by (\d+) s", limits.DEFAULT_CALL_TIMEOUT_SECONDS),
    ("docs/dataframes.md", r"by default the\s+(\d+) s of every call", limits.DEFAULT_CALL_TIMEOUT_SECONDS),
    ("docs/dataframes.md", r"are sent at once \(default (\d+)\)", limits.DEFAULT_MAX_CALLS_IN_FLIGHT),
    ("docs/client-capabilities.md", r"McpMagics\.timeout_seconds` \((\d+) s\)", limits.DEFAULT_CALL_TIMEOUT_SECONDS),
    ("docs/client-capabilities.md", r"McpMagics\.max_time_seconds` \((\d+) s\)", limits.DEFAULT_CALL_MAX_SECONDS),
]
"""Where a doc states a bound of ``limits.py`` as a number: the file, the words around the number,
and the constant it must equal."""


def _stated(path: str, pattern: str) -> list[float]:
    return [float(n) for n in re.findall(pattern, (REPO / path).read_text(encoding="utf-8"))]


@pytest.mark.parametrize(("path", "pattern", "value"), BOUNDS)
def test_the_bounds_the_docs_state_are_the_constants(path: str, pattern: str, value: float) -> None:
    stated = _stated(path, pattern)
    assert stated, f"{path} no longer says {pattern!r}: update BOUNDS with its new words"
    assert set(stated) == {value}


def test_the_readme_names_the_constants_its_numbers_come_from() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    for name in ("MAX_MESSAGE_BYTES", "DEFAULT_CONNECT_TIMEOUT_SECONDS", "DEFAULT_CALL_TIMEOUT_SECONDS"):
        assert f"`{name}`" in text and name in limits.__all__


def test_the_magics_timeouts_are_the_limits() -> None:
    """The settings table's defaults are checked against the traits; the traits against limits.py."""
    traits = McpMagics.class_traits(config=True)
    assert traits["timeout_seconds"].default_value == limits.DEFAULT_CALL_TIMEOUT_SECONDS
    assert traits["max_time_seconds"].default_value == limits.DEFAULT_CALL_MAX_SECONDS
    assert traits["connect_timeout_seconds"].default_value == limits.DEFAULT_CONNECT_TIMEOUT_SECONDS


def test_a_wrong_number_is_found(tmp_path: Path) -> None:
    wrong = (REPO / "README.md").read_text(encoding="utf-8").replace("gives up after 30 s", "gives up after 45 s")
    (tmp_path / "README.md").write_text(wrong, encoding="utf-8")
    _, pattern, value = BOUNDS[0]
    assert set(_stated(str(tmp_path / "README.md"), pattern)) == {45.0} != {value}


# -- guides and links ------------------------------------------------------------------------

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def _broken_links(path: Path, root: Path = REPO) -> list[str]:
    """The relative links of one Markdown file that reach no file, or no heading of it."""
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a URL
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists():
            broken.append(f"{path.relative_to(root)}: {target}")
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            broken.append(f"{path.relative_to(root)}: {target} (no such heading)")
    return broken


def test_every_relative_link_of_the_docs_reaches_its_file_and_heading() -> None:
    assert [b for path in DOCS for b in _broken_links(path)] == []


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A b\n\n[x](#a-b) [y](#adding-a-mcp-subcommand) [z](b.md)\n", encoding="utf-8")
    found = [b.split(": ", 1)[1] for b in _broken_links(tmp_path / "a.md", root=tmp_path)]
    assert found == ["#adding-a-mcp-subcommand (no such heading)", "b.md"]


def test_every_guide_is_listed_and_every_listed_guide_exists() -> None:
    rows = table_rows((GUIDES / "README.md").read_text(encoding="utf-8"), "guide")
    listed = {target for row in rows for target in LINK.findall(row[0])}
    files = {path.name for path in GUIDES.glob("*.md")} - {"README.md"}
    expected = {"transport.md", "protocol-version.md", "safety-rule.md", "subcommand.md", "content-kind.md"}
    assert listed == files == expected


def test_each_guide_says_which_files_a_change_touches_and_which_tests_to_add() -> None:
    for guide in sorted(GUIDES.glob("*.md")):
        if guide.name == "README.md":
            continue
        text = guide.read_text(encoding="utf-8")
        assert re.search(r"^## .*\bfiles\b", text, re.M), f"{guide.name} has no section on the files it touches"
        assert re.search(r"^## .*\btests?\b", text, re.M), f"{guide.name} has no section on the tests to add"
        assert any(span.startswith(("anvia_nb/", "tests/")) for span in code_spans(text)), guide.name
