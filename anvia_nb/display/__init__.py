"""Pure rendering of MCP tool results: values in, Jupyter mime bundles out.

The only place anvia_nb assembles HTML. Every server string is escaped, masked and bounded; see
DESIGN.md section 4. Imports nothing beyond the stdlib, ``anvia_nb.errors`` and ``anvia_nb.core.types``.
"""

from anvia_nb.display._text import MASK, mask_json, mask_secrets, visible_text
from anvia_nb.display.bundles import bundle_from_error, bundle_from_outcome, display_status, tree_bundle_from_outcome
from anvia_nb.display.chrome import (
    destructive_warning_html,
    hints_text,
    is_destructive,
    notice_html,
    request_header_html,
    server_text_html,
    tool_header_html,
)
from anvia_nb.display.model_context import model_context_from_outcome
from anvia_nb.display.settings import GENERIC_SERVER_ERROR, RenderSettings
from anvia_nb.display.view import JsonTree, ResultView

__all__ = [
    "GENERIC_SERVER_ERROR",
    "MASK",
    "JsonTree",
    "RenderSettings",
    "ResultView",
    "bundle_from_error",
    "bundle_from_outcome",
    "destructive_warning_html",
    "display_status",
    "hints_text",
    "is_destructive",
    "mask_json",
    "mask_secrets",
    "model_context_from_outcome",
    "notice_html",
    "request_header_html",
    "server_text_html",
    "tool_header_html",
    "tree_bundle_from_outcome",
    "visible_text",
]
