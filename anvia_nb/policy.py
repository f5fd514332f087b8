"""What may be shown of a server's data: the one policy every surface goes through.

A :class:`ShowPolicy` is built once per connection and settings (the connection's secrets, the
named limits, whether server error text is hidden from viewers) and every surface that shows
server data -- results, DataFrames, forms, the panel, logs, errors, connection targets -- asks it,
instead of carrying its own mask, literal limit or ``hide_server_errors`` test.

Stdlib only (and :mod:`anvia_nb.errors`): core, display, widgets and magic may all import it.
Core only *discovers* which values are secrets (``connection.secrets``); masking lives here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["HIDDEN_SERVER_ERROR", "MASK", "Limits", "ShowPolicy"]

MASK = "••••••"
HIDDEN_SERVER_ERROR = "The server reported an error; details are kept in Python (outcome.error)."


@dataclass(frozen=True)
class Limits:
    """Named limits, in characters unless the name says otherwise."""

    output_chars: int = 20_000
    """Server text rendered for one result (what the server sent, not layout)."""
    preview_chars: int = 2_000
    """Preview of one embedded resource."""
    image_bytes: int = 5 * 1024 * 1024
    """Inline images, each and all of one result together."""
    name_chars: int = 200
    """A server, tool, field or resource name."""
    line_chars: int = 500
    """A one-line text: a title, a description in a table cell, an error line."""
    log_chars: int = 20_000
    """How much of a connection's log is shown."""


@dataclass(frozen=True)
class ShowPolicy:
    """Secrets to mask, limits to respect, and whether server error text is hidden."""

    secrets: frozenset[str] = frozenset()
    hide_server_errors: bool = False
    limits: Limits = field(default_factory=Limits)

    def with_secrets(self, secrets: Iterable[str]) -> ShowPolicy:
        """This policy, also masking ``secrets`` (e.g. one connection's)."""
        return replace(self, secrets=self.secrets | frozenset(s for s in secrets if s))

    def mask(self, text: str) -> str:
        """``text`` with every secret (and its escaped forms) replaced by :data:`MASK`."""
        from anvia_nb.display._text import mask_secrets

        return mask_secrets(text, tuple(self.secrets))

    def mask_json(self, value: Any) -> Any:
        """A copy of a JSON value with secrets masked in every string."""
        from anvia_nb.display._text import mask_json

        return mask_json(value, tuple(self.secrets))

    def line(self, text: str, limit: int | None = None) -> str:
        """One line fit to show: masked, special characters visible, cut to ``limit`` (default line_chars)."""
        from anvia_nb.display._text import visible_text

        return visible_text(text, tuple(self.secrets), self.limits.line_chars if limit is None else limit)

    def server_error(self, text: str) -> str:
        """Error text that came from a server, as a viewer may see it."""
        return HIDDEN_SERVER_ERROR if self.hide_server_errors else self.line(text)
