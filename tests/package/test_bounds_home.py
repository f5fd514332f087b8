"""Every bound has one home, and the docs' sentences about bounds are true.

Bounds on what a connection sends, keeps and waits for live in ``anvia_nb/core/protocol/limits.py`` (and
its group ``trace_limits.py``, which it imports);
bounds on what may be shown are fields of the policy's ``Limits`` (``anvia_nb/policy.py``). This
reads the package's source (no import) and fails on a module-level number anywhere else whose
name or size says it is a bound, unless the short list below says why it is not one. It also
checks that each limit docs/safety.md's "Bounds" names is a field of ``Limits`` or a constant of
``limits.py`` with the value written beside it, and that the README names real constants.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from anvia_nb.core.protocol import limits
from anvia_nb.policy import Limits
from tests.helpers.package_source import section, tree

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "anvia_nb"
HOMES = {PACKAGE / "core" / "protocol" / name for name in ("limits.py", "trace_limits.py")} | {PACKAGE / "policy.py"}
"""``trace_limits.py`` is a group of ``limits.py``'s bounds (what the log, trace and a recording keep)."""
SEPARATE_PROGRAM = PACKAGE / "demo_server"
"""The demo server is a program of its own (it may not import the client's bounds): its numbers
are what it sends, not bounds of the client."""

BOUND_WORDS = re.compile(
    r"(^|_)(MAX|MIN|LIMIT|KEPT|SHOWN|DEPTH|TIMEOUT|WAIT|GRACE|MARGIN|BURST|RATE|PENDING|TTL)(_|$)"
    r"|_(BYTES|SECONDS|MS|CHARS|ROWS|LINES|ENTRIES|ITEMS|SIZE|PX|FIELDS|PAGES|IDS|URIS|REQUESTS|NAMES"
    r"|MESSAGES|PROBLEMS|CELLS|KEYS|CONCURRENCY|COUNT|LISTED|COMPLETIONS|CHANGES|WIDTH|HEIGHT)$"
)
"""A name that says it bounds something: a most, a least, what is kept or shown, a time, a size."""
LARGE = 100
"""A module-level number this large is a bound whatever its name (a count, a size, a time)."""

NOT_BOUNDS = {
    ("trace_wire.py", "_MAX_BYTES_PER_CHAR"): "UTF-8 takes at most four bytes per character: a fact, not a choice",
    ("to_pytest.py", "_WIDTH"): "the line width of generated test code: layout, not a bound",
    ("map_progress.py", "_BAR_CELLS"): "the width of a progress bar: layout, not a bound",
}
"""(file name, constant): why it is not a bound. Keep it short: a bound belongs in its home."""


def _number(node: ast.expr) -> float | None:
    """The value of a numeric literal expression (``256 * 1024``, ``1 << 20``, ``-1``), else ``None``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _number(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult | ast.Add | ast.Sub | ast.Pow | ast.LShift):
        left, right = _number(node.left), _number(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.LShift):
            return int(left) << int(right)
        if isinstance(node.op, ast.Pow):
            return float(left**right)
        if isinstance(node.op, ast.Mult):
            return left * right
        return left + right if isinstance(node.op, ast.Add) else left - right
    return None


def bounds_outside_their_home(package: Path = PACKAGE, root: Path = ROOT) -> list[str]:
    """``path:line NAME = value`` for each module-level number outside the homes that looks like a bound."""
    found = []
    for path in sorted(package.rglob("*.py")):
        if path in HOMES or SEPARATE_PROGRAM in path.parents:
            continue
        for statement in tree(path).body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target, value = statement.targets[0], statement.value
            elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                target, value = statement.target, statement.value
            else:
                continue
            number = _number(value) if isinstance(target, ast.Name) else None
            if number is None or not isinstance(target, ast.Name) or not target.id.isupper():
                continue
            if (path.name, target.id) in NOT_BOUNDS:
                continue
            if BOUND_WORDS.search(target.id) or number >= LARGE:  # codes (JSON-RPC errors) are negative
                found.append(f"{path.relative_to(root)}:{statement.lineno} {target.id} = {number}")
    return found


def test_every_bound_is_in_its_home() -> None:
    assert bounds_outside_their_home() == [], (
        "a bound written outside core/protocol/limits.py (what a connection sends, keeps, waits for) "
        "and policy.Limits (what may be shown); move it there, or add it to NOT_BOUNDS saying why it is none"
    )


def test_the_scan_finds_a_bound_written_elsewhere(tmp_path: Path) -> None:
    module = tmp_path / "trace_wire.py"
    module.write_text(
        "_MAX_ENTRIES = 500\nDEFAULT_MAX_TOTAL_CHARS: int = 8_000_000\nPIPE = 1 << 20\n"
        "_MAX_BYTES_PER_CHAR = 4\nFORMAT = 1\nNAME = 'x'\nFLAG = True\nCODE = -32601\n",
        encoding="utf-8",
    )
    found = bounds_outside_their_home(tmp_path, tmp_path)
    assert [line.split(" ", 1)[1] for line in found] == [
        "_MAX_ENTRIES = 500",
        "DEFAULT_MAX_TOTAL_CHARS = 8000000",
        "PIPE = 1048576",  # a size, whatever its name
    ]


def test_no_exception_names_a_constant_that_is_gone() -> None:
    present: set[tuple[str, str]] = set()
    for path in PACKAGE.rglob("*.py"):
        for statement in tree(path).body:
            if isinstance(statement, ast.Assign):
                present.update((path.name, t.id) for t in statement.targets if isinstance(t, ast.Name))
    assert set(NOT_BOUNDS) <= present, "an entry of NOT_BOUNDS names a constant that no longer exists"


BOUNDS = section(ROOT / "docs" / "safety.md", "## Bounds")
NAMED = re.findall(r"`(\w+)`,?\s+\(?(\d[\d,]*)", BOUNDS)
"""(name, value as written) for each limit the section names: ``name`` (1,000) or ``name``, 1,000."""


def _value(name: str) -> int | float:
    fields = {f.name: f.default for f in dataclasses.fields(Limits)}
    if name in fields:
        value = fields[name]
    elif name.isupper() and name in limits.__all__:
        value = getattr(limits, name)
    else:
        raise AssertionError(f"docs/safety.md names {name!r}, which is neither a field of Limits nor in limits.py")
    assert isinstance(value, int | float)
    return value


@pytest.mark.parametrize(("name", "written"), NAMED, ids=[name for name, _ in NAMED])
def test_each_limit_safety_names_has_the_value_written(name: str, written: str) -> None:
    assert _value(name) == int(written.replace(",", "")), f"docs/safety.md says {name} is {written}"


def test_safety_names_the_limits_it_promises() -> None:
    named = {name for name, _ in NAMED}
    promised = {"output_chars", "blocks", "markers", "json_depth", "preview_chars", "image_bytes", "name_chars"}
    promised |= {"line_chars", "text_chars", "log_chars", "choices", "form_fields"}
    promised |= {"LOG_ENTRIES_KEPT", "HISTORY_CALLS_KEPT", "TRACE_MESSAGES_KEPT", "TRACE_TOTAL_CHARS"}
    assert promised <= named, f"docs/safety.md's Bounds no longer names {sorted(promised - named)}"


def test_every_number_in_safety_bounds_is_a_named_limit() -> None:
    """A number written in the section is one of the named limits' values (an example excepted)."""
    example = "1,234"  # "… 1,234 more characters not shown": an example of the message, not a limit
    values = {written for _, written in NAMED}
    numbers = {n for n in re.findall(r"(?<![\w.])\d[\d,]*\d(?![\w.])", BOUNDS) if n != example}
    assert numbers <= values, f"docs/safety.md's Bounds writes {sorted(numbers - values)} without naming the limit"


def test_readme_names_real_bounds() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("These bounds live in `anvia_nb.core.protocol.limits`") :].split("\n\n")[0]
    names = re.findall(r"`([A-Z][A-Z0-9_]+)`", paragraph)
    assert names, "README's paragraph about bounds names no constant"
    assert [n for n in names if n not in limits.__all__] == []
    assert limits.MAX_MESSAGE_BYTES == 256 * 1024 * 1024 and "256 MiB" in readme
    assert limits.DEFAULT_CONNECT_TIMEOUT_SECONDS == 30.0 and limits.DEFAULT_CALL_TIMEOUT_SECONDS == 60.0
    assert limits.DEFAULT_CALL_MAX_SECONDS == 600.0 and "600 s" in readme
