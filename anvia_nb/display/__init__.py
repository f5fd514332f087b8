"""Pure rendering of MCP tool results: values in, Jupyter mime bundles out.

Where anvia_nb assembles its HTML (two widget modules write markup of their own, no server text
in it unescaped: ``widgets/fields/leaf.py`` and ``widgets/explorer/layout.py``, listed in
docs/architecture.md and found by a test). Every server string is escaped, and masked and bounded by
the one :class:`~anvia_nb.policy.ShowPolicy`. Imports nothing beyond the stdlib, ``anvia_nb.errors``,
``anvia_nb.policy``, core's plain data (``anvia_nb.core.protocol.types``, ``anvia_nb.core.protocol.content``)
and the hook through which the DataFrame layer lends ``r.frame()`` its tables (``anvia_nb.core.api.dataframes``).
"""

from anvia_nb.display.bundles import bundle_from_error, bundle_from_outcome, display_status, tree_bundle_from_outcome
from anvia_nb.display.chrome import (
    destructive_warning_html,
    hints_text,
    is_destructive,
    notice_html,
    policy_of,
    request_header_html,
    server_text_html,
    tool_header_html,
)
from anvia_nb.display.model_context import model_context_from_outcome
from anvia_nb.display.reading_views import PromptView, ReadView
from anvia_nb.display.readings import bundle_from_prompt, bundle_from_read
from anvia_nb.display.settings import GENERIC_SERVER_ERROR, RenderSettings
from anvia_nb.display.view import JsonTree, LinkReader, ResultView

__all__ = [
    "GENERIC_SERVER_ERROR",
    "JsonTree",
    "LinkReader",
    "PromptView",
    "ReadView",
    "RenderSettings",
    "ResultView",
    "bundle_from_error",
    "bundle_from_outcome",
    "bundle_from_prompt",
    "bundle_from_read",
    "destructive_warning_html",
    "display_status",
    "hints_text",
    "is_destructive",
    "model_context_from_outcome",
    "notice_html",
    "policy_of",
    "request_header_html",
    "server_text_html",
    "tool_header_html",
    "tree_bundle_from_outcome",
]
