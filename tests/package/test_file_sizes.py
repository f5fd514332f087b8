"""Files stay under 400 lines (CONTRIBUTING.md's house rule): every ``.py`` file of the package, the
tests and the benchmarks. A file that grows past it is split by concern, into a module named for what
it holds, not trimmed of its docstrings."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FOLDERS = ("anvia_nb", "tests", "benchmarks")
LIMIT = 400


def line_counts() -> dict[str, int]:
    """Lines of every ``.py`` file under :data:`FOLDERS`, by its path from the repository."""
    return {
        str(path.relative_to(REPO)): len(path.read_text(encoding="utf-8").splitlines())
        for folder in FOLDERS
        for path in sorted((REPO / folder).rglob("*.py"))
    }


def test_the_counts_read_real_files() -> None:
    counts = line_counts()
    assert counts["anvia_nb/policy.py"] > 50
    assert "tests/package/test_file_sizes.py" in counts


def test_files_stay_under_400_lines() -> None:
    too_long = [f"{path}: {count} lines" for path, count in line_counts().items() if count >= LIMIT]
    assert not too_long, f"split by concern, files stay under {LIMIT} lines:\n" + "\n".join(too_long)
