"""JSON-RPC error codes the client sends or reads, and the listings a server may leave out."""

from __future__ import annotations

__all__ = ["INTERNAL_ERROR", "INVALID_PARAMS", "LISTING_METHODS", "METHOD_NOT_FOUND"]

METHOD_NOT_FOUND = -32601
"""JSON-RPC's "Method not found": a method the other side does not carry out."""
INVALID_PARAMS = -32602
"""JSON-RPC's "Invalid params": a request that will not be carried out as asked."""
INTERNAL_ERROR = -32603
"""JSON-RPC's "Internal error": a request that failed on the way."""

LISTING_METHODS = {
    "tools": ("tools/list", "tools"),
    "resources": ("resources/list", "resources"),
    "resourceTemplates": ("resources/templates/list", "resource templates"),
    "prompts": ("prompts/list", "prompts"),
}
"""Each listing a server may leave out: its method and what it lists. A listing refused with
``-32601 Method not found`` is empty, and :attr:`McpClient.listing_notes` says why (the sqlite and
duckdb reference servers declare ``resources`` yet have no ``resources/templates/list``)."""
