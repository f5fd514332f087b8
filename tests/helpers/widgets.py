"""Widgets as the tests that call tools from them need them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anvia_nb.core import Tool
    from anvia_nb.runtime import Runtime
    from anvia_nb.widgets import ToolForm


def form(
    target: str | tuple[str, str] | Tool, tool: str | None = None, *, runtime: Runtime | None = None, **options: Any
) -> ToolForm:
    """``anvia_nb.widgets.form`` for a tool the test will call: its form, or the test fails with the
    reason the form is unavailable (its ``UnavailableForm``)."""
    from anvia_nb.widgets import ToolForm, form

    built = form(target, tool, runtime=runtime, **options)
    assert isinstance(built, ToolForm), f"the form is unavailable: {built!r}"
    return built
