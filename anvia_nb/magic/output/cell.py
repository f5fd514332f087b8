"""What the magic writes into the running cell besides its value: close warnings on stderr, once,
notices displayed without stopping the cell, and the one place an error of a line is said."""

from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["EndsWith", "report_warnings", "show_in_cell"]


class EndsWith:
    """A ``with`` block that hands the error it ends with (``None``: none) to ``handler``, which
    says it (``True``: said, and the cell goes on) or lets it through. A class, where a
    generator's context manager makes six Python calls on every ``%mcp``, this three (issue 41)."""

    __slots__ = ("_handler",)

    def __init__(self, handler: Callable[[BaseException | None], bool]) -> None:
        self._handler = handler

    def __enter__(self) -> None:
        return None

    def __exit__(self, _kind: object, exc: BaseException | None, _traceback: object) -> bool:
        return self._handler(exc)


def report_warnings(warnings: list[str]) -> None:
    """Close problems, once, on stderr of the cell that caused them."""
    for warning in warnings:
        print(f"anvia_nb warning: {warning}", file=sys.stderr)


def show_in_cell(value: object) -> None:
    """Display ``value`` in the output of the running cell (a notice that must not stop it)."""
    from IPython.display import display

    display(value)  # type: ignore[no-untyped-call]  # IPython: display is untyped
