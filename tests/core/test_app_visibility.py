"""Who may call a tool, by its ``_meta.ui.visibility``: with or without a view of its own (the
system-monitor example server's ``poll-system-stats`` is for its view only and names no view)."""

from __future__ import annotations

from anvia_nb.core.protocol.apps import tool_visibility
from anvia_nb.core.protocol.types import ToolInfo


def info(meta: object) -> ToolInfo:
    return ToolInfo(server="s", name="t", meta=meta)  # type: ignore[arg-type]


def test_a_tool_for_views_only_need_not_name_a_view() -> None:
    polled = info({"ui": {"visibility": ["app"]}})
    assert polled.app is None and not polled.for_cells and polled.for_app


def test_visibility_defaults_to_both_and_reads_only_known_words() -> None:
    metas: tuple[object, ...] = (
        None, {}, {"ui": {}}, {"ui": 3}, {"ui": {"visibility": []}}, {"ui": {"visibility": "app"}},
        {"ui": {"visibility": ["app", 7]}},
    )  # fmt: skip
    for meta in metas:
        assert tool_visibility(meta) == ("model", "app"), meta
        assert info(meta).for_cells and info(meta).for_app
    assert tool_visibility({"ui": {"visibility": ["model", "other"]}}) == ("model",)
    cells_only = info({"ui": {"visibility": ["model"], "resourceUri": "ui://x"}})
    assert cells_only.for_cells and not cells_only.for_app and cells_only.app is not None
