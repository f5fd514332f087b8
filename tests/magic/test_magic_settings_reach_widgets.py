"""The magic's settings (``hide_server_errors``, ``timeout_seconds``) reach the forms and panels
it opens."""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell

from tests.helpers.magic import run


def test_forms_and_panels_from_the_magic_use_its_settings(ip: InteractiveShell, demo: str) -> None:
    magics = ip.magics_manager.registry["McpMagics"]
    magics.hide_server_errors = True
    magics.timeout_seconds = 7.0
    form = run(ip, "form demo.fail")
    assert form.settings.hide_server_errors is True
    assert form.timeout_seconds == 7.0
    panel = run(ip, "panel")
    assert panel.settings.hide_server_errors is True
    assert panel.timeout_seconds == 7.0
