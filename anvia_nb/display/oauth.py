"""The authorization request as a person sees it: which server asks, at which authorization
host, and the link (text and an explicit link, never opened by itself).

Pure: values in, text and HTML out. The authorization URL comes from the authorization server's
metadata, so it is masked by the connection's policy, its special characters made visible, and
shown as a link only when it is a plain http(s) URL.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from anvia_nb.display._html import element, is_link_url, join, link, text
from anvia_nb.policy import NOT_MATH_CLASSES, ShowPolicy

__all__ = ["authorization_html", "authorization_text"]


def _host(url: str) -> str:
    try:
        return urlsplit(url).netloc or url
    except ValueError:
        return url


def authorization_text(server: str, server_url: str, authorization_url: str, policy: ShowPolicy) -> str:
    """Plain text: the server, the authorization host and the whole link, masked."""
    shown_url = policy.visible(authorization_url)
    return (
        f"{policy.line(server)} ({policy.line(_host(server_url))}) needs you to authorize at "
        f"{policy.line(_host(authorization_url))}. Open this link in your browser (nothing opens it for you):\n"
        f"{shown_url}\n"
        "When your browser is redirected, paste the whole URL from its address bar below "
        f"(or run %mcp connect {server} --oauth-redirect URL). If your browser runs on the machine of this "
        "kernel, the redirect completes by itself."
    )


def authorization_html(server: str, server_url: str, authorization_url: str, policy: ShowPolicy) -> str:
    """The same as HTML: the host named, the link as text and as a link a person may follow."""
    masked = policy.mask(authorization_url)
    shown = policy.visible(authorization_url)
    anchor = link(masked, f"Authorize at {policy.line(_host(authorization_url))}") if is_link_url(masked) else text("")
    return element(
        "div",
        element("b", policy.line(server)),
        f" ({policy.line(_host(server_url))}) needs you to authorize at ",
        element("b", policy.line(_host(authorization_url))),
        ". Open the link in your browser (nothing opens it for you): ",
        anchor,
        element("pre", shown),
        element(
            "small",
            join(
                [
                    "When your browser is redirected, paste the whole URL from its address bar below, or run ",
                    element("code", f"%mcp connect {policy.line(server)} --oauth-redirect URL"),
                    ". If your browser runs on the machine of this kernel, the redirect completes by itself.",
                ]
            ),
        ),
        cls=NOT_MATH_CLASSES,
    ).markup
