"""The tool annotations the demo server's read-only tools share (``ToolAnnotations`` hints)."""

from __future__ import annotations

__all__ = ["READ_ONLY"]

READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
