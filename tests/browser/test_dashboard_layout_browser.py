"""What a dashboard's viewer sees of its forms and panels, measured in headless Chromium on
notebooks/07-dashboard.ipynb served by Voilà: a fixed field's value lines up with the fields the
viewer fills, a result is as wide as the form above it, and a panel of two tools lists them in a
two-row list, not a tall and mostly empty one."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.lab import POLL_MS, record_page_events, screenshot
from tests.helpers.support import REPO
from tests.helpers.voila import call_fixed_add

pytestmark = pytest.mark.browser

WAIT_MS = 120_000  # a kernel, a demo server and every cell: generous on a busy machine
LAST_TEXT = "The server “weather” is not available right now."

GEOMETRY = """form => {
  const box = element => element.getBoundingClientRect();
  const inputs = [...form.querySelectorAll('.widget-text input')].map(input => ({
    disabled: input.disabled, left: Math.round(box(input).left)}));
  const result = box(form.querySelector('.widget-output .anvia-result'));
  const whole = box(form.querySelector('.widget-vbox'));
  return {inputs, result: [Math.round(result.left), Math.round(result.right)],
          form: [Math.round(whole.left), Math.round(whole.right)]};
}"""


def _open_dashboard(page: Any, base: str, root: Path) -> None:
    shutil.copy(REPO / "notebooks" / "07-dashboard.ipynb", root / "layout.ipynb")
    page.goto(base + "/voila/render/layout.ipynb", wait_until="commit", timeout=WAIT_MS)
    page.get_by_text(LAST_TEXT).first.wait_for(timeout=WAIT_MS)


def test_a_fixed_field_lines_up_and_a_result_is_as_wide_as_its_form(
    voila: tuple[str, Path], voila_context: Any
) -> None:
    base, root = voila
    page = voila_context.new_page()
    events = record_page_events(page)
    try:
        _open_dashboard(page, base, root)
        form = call_fixed_add(page, "2", WAIT_MS, POLL_MS).first
        shown = form.evaluate(GEOMETRY)
        fixed = [i["left"] for i in shown["inputs"] if i["disabled"]]
        filled = [i["left"] for i in shown["inputs"] if not i["disabled"]]
        assert fixed and filled and set(fixed) == set(filled), shown  # one column of values
        assert shown["result"] == shown["form"], shown  # the result spans the form's width
        screenshot(page, "dashboard_form_layout")
        assert events.page_errors == []
    finally:
        page.close()


def test_a_panel_of_two_tools_lists_them_in_two_rows(voila: tuple[str, Path], voila_context: Any) -> None:
    base, root = voila
    page = voila_context.new_page()
    try:
        _open_dashboard(page, base, root)
        tools_label = page.locator("label", has_text=re.compile(r"^Tools$"))
        panel = page.locator(".jp-OutputArea-output").filter(has_text="2 of 2 tools")
        tools = panel.locator(".widget-select", has=tools_label).locator("select")
        tools.locator("option").nth(1).wait_for(timeout=WAIT_MS)  # the list arrives in its own widget update
        assert tools.evaluate("select => [select.options.length, select.size]") == [2, 2]
    finally:
        page.close()
