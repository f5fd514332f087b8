"""The person's part of an OAuth connect in a real IPython shell, against the local authorization
server (tests/helpers/oauth_server.py): follow the link, give back the redirected URL."""

from __future__ import annotations

import httpx2
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.widgets.prompts.oauth import AuthorizationPrompt
from tests.helpers.magic import run

__all__ = ["authorize", "link_of", "redirected"]


def redirected(authorization_url: str, **change: str) -> str:
    answer = httpx2.get(authorization_url, follow_redirects=False)
    assert answer.status_code == 302
    location = httpx2.URL(answer.headers["location"])
    return str(location.copy_merge_params(change)) if change else str(location)


def link_of(prompt: AuthorizationPrompt) -> str:
    return next(line for line in prompt.text.splitlines() if line.startswith("http"))


def authorize(ip: InteractiveShell, connect: str) -> str:
    """Run ``connect`` (``connect NAME --oauth ...``, which shows the link), authorize, give back the
    redirect; the link it showed."""
    prompt = run(ip, connect)
    assert isinstance(prompt, AuthorizationPrompt)
    link = link_of(prompt)
    run(ip, f"connect {connect.split()[1]} --oauth-redirect {redirected(link)}")
    return link
