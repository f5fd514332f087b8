"""OAuth 2.1 for HTTP servers (``mcp.http(..., auth=mcp.oauth(...))``): the settings and their
factories (``settings``, ``machine``), the SDK provider one connection hands httpx (``provider``:
a person's sign-in in ``person`` with its loopback ``callback``, or a machine's grant in
``grants`` with secrets from ``sources``), DPoP proofs (``dpop``) and the 0600 token cache
(``tokens``). Modules are imported by path: loading this room loads neither PyJWT nor the SDK's
OAuth client."""

__all__: list[str] = []
