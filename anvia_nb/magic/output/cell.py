"""What the magic writes into the running cell besides its value: close warnings on stderr, once,
and notices displayed without stopping the cell."""

from __future__ import annotations

import sys

__all__ = ["report_warnings", "show_in_cell"]


def report_warnings(warnings: list[str]) -> None:
    """Close problems, once, on stderr of the cell that caused them."""
    for warning in warnings:
        print(f"anvia_nb warning: {warning}", file=sys.stderr)


def show_in_cell(value: object) -> None:
    """Display ``value`` in the output of the running cell (a notice that must not stop it)."""
    from IPython.display import display

    display(value)  # type: ignore[no-untyped-call]  # IPython: display is untyped
