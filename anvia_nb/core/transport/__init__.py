"""The one border with the MCP SDK and the transports: the stdio transport and its processes,
the SDK session over stdio, streamable HTTP and memory, the translation of foreign errors, OAuth
for HTTP servers (the provider handed to the SDK, the 0600 token cache), and
:class:`~anvia_nb.core.transport.client.McpClient`, the task that owns one live session.
Built on ``core.protocol`` and ``core.exchange``.
"""

__all__: list[str] = []
