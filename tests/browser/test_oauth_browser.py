"""OAuth from a notebook in a real JupyterLab, with a kernel the person's browser cannot reach.

A person runs ``%mcp connect NAME --oauth --http URL``, reads the link the cell shows (nothing
opened it), follows it in their own browser, and pastes the URL the browser was redirected to
into the box (Finish). Their browser cannot reach the kernel's one-shot 127.0.0.1 callback: its
context sends every request except those to the authorization server through a proxy that
refuses connections, as a browser on another machine would fail to load the kernel's
127.0.0.1. The tool then works; after a kernel restart the same connect uses the cached token
and shows no link. No token ever appears on the page.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.helpers.lab import (
    POLL_MS,
    LabServer,
    PageEvents,
    open_notebook,
    screenshot,
    write_notebook,
)
from tests.helpers.oauth_server import OAuthTestServer

pytestmark = pytest.mark.browser

WAIT_MS = 60_000


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A port on 127.0.0.1 that is bound but not listening: every connection to it is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])


def _cell(page: Any, index: int) -> Any:
    return page.locator(".jp-NotebookPanel").filter(visible=True).locator(".jp-Notebook .jp-Cell").nth(index)


def _run_cell(page: Any, index: int) -> str:
    """Click into cell `index`, run it in place (Ctrl+Enter), wait until it ran; return its output text."""
    cell = _cell(page, index)
    prompt_before = cell.locator(".jp-InputPrompt").inner_text().strip()
    assert prompt_before == "[ ]:", f"cell {index} already ran: {prompt_before}"
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+Enter")
    page.wait_for_function(
        """([cell, before]) => {
          const prompt = cell.querySelector('.jp-InputPrompt').textContent.trim();
          const indicator = cell.closest('.jp-NotebookPanel').querySelector('.jp-Notebook-ExecutionIndicator');
          return /^\\[\\d+\\]:$/.test(prompt) && prompt !== before && indicator && indicator.dataset.status === 'idle';
        }""",
        arg=[cell.element_handle(), prompt_before],
        timeout=WAIT_MS,
        polling=POLL_MS,
    )
    return "\n".join(output.inner_text() for output in cell.locator(".jp-OutputArea-output").all())


def _assert_added(result: str) -> None:
    """The result of ``%mcp call guarded.add a=2 b=3`` as the notebook shows it."""
    assert re.search(r"guarded\s*·\s*add\s*ok", result), result
    assert '"sum": 5' in result, result


def _restart_and_clear(page: Any) -> None:
    """Kernel > Restart Kernel and Clear Outputs of All Cells, confirmed; wait until idle and cleared."""
    page.locator(".lm-MenuBar-item", has_text=re.compile(r"^\s*Kernel\s*$")).click()
    label = page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Restart Kernel and Clear Outputs of All Cells"))
    page.locator(".lm-Menu .lm-Menu-item", has=label).filter(visible=True).click()
    page.locator(".jp-Dialog .jp-mod-accept").filter(visible=True).click()
    page.wait_for_function(
        """() => {
          const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => p.checkVisibility());
          const indicator = panel && panel.querySelector('.jp-Notebook-ExecutionIndicator');
          const prompts = panel ? [...panel.querySelectorAll('.jp-CodeCell .jp-InputPrompt')] : [];
          return indicator && indicator.dataset.status === 'idle'
            && prompts.length > 0 && prompts.every(p => p.textContent.trim() === '[ ]:')
            && panel.querySelectorAll('.jp-OutputArea-output').length === 0;
        }""",
        timeout=WAIT_MS,
        polling=POLL_MS,
    )


def _follow_link_in_the_persons_browser(chromium: Any, link: str, auth_port: int, refused_port: int) -> str:
    """Open `link` in another browser whose requests, except to the authorization server, fail.

    Returns the URL the browser was redirected to (what a person copies from the address bar).
    """
    context = chromium.new_context(
        proxy={"server": f"http://127.0.0.1:{refused_port}", "bypass": f"127.0.0.1:{auth_port}"}
    )
    try:
        person = context.new_page()
        requested: list[str] = []
        failed: list[str] = []
        person.on("request", lambda request: requested.append(request.url))
        person.on("requestfailed", lambda request: failed.append(request.url))
        with pytest.raises(Exception, match="ERR_PROXY_CONNECTION_FAILED|ERR_TUNNEL_CONNECTION_FAILED"):
            person.goto(link, timeout=WAIT_MS)
        assert requested[0] == link
        redirected = [url for url in failed if urlsplit(url).path == "/callback"]
        assert len(redirected) == 1, f"requests: {requested}, failed: {failed}"
        return redirected[0]
    finally:
        context.close()


def test_a_person_authorizes_from_a_notebook_whose_kernel_the_browser_cannot_reach(
    page: Any,
    chromium: Any,
    jupyter_lab: LabServer,
    page_events: PageEvents,
    oauth_server: OAuthTestServer,
    refused_port: int,
    tmp_path: Path,
) -> None:
    token_dir = tmp_path / "oauth"
    cells = [
        f"import os\nos.environ['ANVIA_NB_OAUTH_DIR'] = {str(token_dir)!r}\n%load_ext anvia_nb",
        f"%mcp connect guarded --oauth --http {oauth_server.url}",
        "%mcp call guarded.add a=2 b=3",
    ]
    path = write_notebook(jupyter_lab, "oauth_browser.ipynb", cells)
    open_notebook(page, jupyter_lab.base_url, path, jupyter_lab.token)
    popups: list[Any] = []
    page.on("popup", lambda popup: popups.append(popup))

    _run_cell(page, 0)
    _run_cell(page, 1)
    auth_host = f"127.0.0.1:{oauth_server.port}"
    prompt = _cell(page, 1)
    anchor = prompt.locator(f"a:has-text('Authorize at {auth_host}')")
    anchor.wait_for(timeout=WAIT_MS)  # the prompt's widgets are drawn
    shown = prompt.locator(".jp-OutputArea-output").inner_text()
    assert f"guarded ({auth_host}) needs you to authorize at {auth_host}" in shown
    assert "nothing opens it for you" in shown
    assert anchor.count() == 1
    link = anchor.get_attribute("href")
    assert link is not None and link.startswith(f"http://{auth_host}/authorize?")
    assert link in shown  # the link is also shown as text
    # nothing followed the link by itself: no new tab, no authorization yet
    assert popups == [] and len(page.context.pages) == 1 and oauth_server.authorizations == 0
    redirect_uri = parse_qs(urlsplit(link).query)["redirect_uri"][0]
    assert urlsplit(redirect_uri).hostname == "127.0.0.1"  # the kernel's one-shot callback
    screenshot(page, "oauth_browser_link")

    redirected = _follow_link_in_the_persons_browser(chromium, link, oauth_server.port, refused_port)
    assert redirected.startswith(redirect_uri + "?") and "code=" in redirected
    assert oauth_server.authorizations == 1
    assert prompt.get_by_text(re.compile(r"^guarded: http")).count() == 0  # nothing completed it yet

    box = prompt.locator(".widget-text input")
    box.fill(redirected)
    prompt.locator("button.widget-button", has_text=re.compile(r"^\s*Finish\s*$")).click()
    prompt.get_by_text(re.compile(r"^guarded: http")).wait_for(timeout=WAIT_MS)
    assert box.input_value() == ""  # the code does not stay on the page
    assert box.is_disabled()
    screenshot(page, "oauth_browser_connected")

    _assert_added(_run_cell(page, 2))
    assert oauth_server.access, "the server issued no token"

    _restart_and_clear(page)
    _run_cell(page, 0)
    again = _run_cell(page, 1)
    assert again.startswith("guarded: http"), again
    assert "authorize" not in again.lower()
    assert _cell(page, 1).locator("a, input").count() == 0  # no link, no paste box
    _assert_added(_run_cell(page, 2))
    assert oauth_server.authorizations == 1  # the cached token, no second authorization
    assert list(token_dir.iterdir()), "no token was cached in ANVIA_NB_OAUTH_DIR"
    screenshot(page, "oauth_browser_cached")

    page_text = page.evaluate("() => document.body.innerText")
    page_html = page.content()
    for secret in oauth_server.access | oauth_server.refresh:
        assert secret not in page_text and secret not in page_html
    assert page_events.page_errors == []
    assert page_events.dialogs == []
