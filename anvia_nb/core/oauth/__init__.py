"""OAuth 2.1 for HTTP servers: the provider handed to the SDK and the 0600 token cache.
Built on ``core.protocol``.
"""
