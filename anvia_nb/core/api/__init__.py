"""The user-facing client: connections (``mcp.stdio``, ``mcp.http``, ``mcp.replay``),
``connect_mcp``, ``McpServer`` and ``Tool``, with what a server offers besides tools
(resources, prompts, completion, subscriptions, tasks, maps). The top room of ``core``.
"""

__all__: list[str] = []
