"""The ``httpx2.Auth`` one connection hands the SDK for ``auth=mcp.oauth(...)``.

It is the SDK's provider for the settings' grant: a person's sign-in
(:mod:`.person`) or a grant that needs nobody (:mod:`.grants`), wrapped for DPoP
(:mod:`.dpop`), which acts where the authorization server offers it. All three share one
token store, so DPoP's key is written in the same write as the tokens it binds.
"""

from __future__ import annotations

import httpx2

from anvia_nb.core.transport.oauth.dpop import DPoPAuth
from anvia_nb.core.transport.oauth.person import NotebookOAuthProvider
from anvia_nb.core.transport.oauth.settings import OAuth

__all__ = ["oauth_provider"]


def oauth_provider(settings: OAuth, server: str, server_url: str) -> httpx2.Auth:
    """A fresh provider for one connection to ``server_url`` (``server`` names it in errors)."""
    store = settings.token_file(server_url)
    if settings.grant is not None:
        return DPoPAuth(settings.grant.provider(settings, server, server_url, store), store)
    return DPoPAuth(NotebookOAuthProvider(settings, server, server_url, store), store)
