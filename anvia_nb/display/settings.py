"""How much of a result is rendered, and whether server error text may reach the browser."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from anvia_nb.errors import InvalidValueError
from anvia_nb.policy import HIDDEN_SERVER_ERROR, Limits, ShowPolicy

__all__ = ["GENERIC_SERVER_ERROR", "RenderSettings"]

GENERIC_SERVER_ERROR = HIDDEN_SERVER_ERROR
"""The text shown instead of a server's error text (kept here for notebooks that import it)."""


@dataclass(frozen=True)
class RenderSettings:
    """The notebook's settings for rendering results; :meth:`policy` turns them into the one
    :class:`~anvia_nb.policy.ShowPolicy` that decides what is shown.

    ``max_output_chars`` caps the characters the server sent that are rendered for one result
    (the rest is elided visibly and stays in ``.output``/``.raw``); ``max_image_bytes`` caps inline
    images (each, and all of one result together); ``preview_chars`` caps the preview of each
    embedded resource. ``hide_server_errors`` is for notebooks served to others (Voilà, shared
    dashboards): server error text is replaced by :data:`GENERIC_SERVER_ERROR` in what is
    rendered, while Python keeps the detail.
    """

    max_output_chars: int = 20_000
    max_image_bytes: int = 5 * 1024 * 1024
    preview_chars: int = 2_000
    hide_server_errors: bool = False

    def __post_init__(self) -> None:
        for name in ("max_output_chars", "max_image_bytes", "preview_chars"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidValueError(f"RenderSettings.{name} must be a non-negative int, not {value!r}")

    def policy(self, secrets: Iterable[str] = ()) -> ShowPolicy:
        """The show policy of these settings, masking ``secrets`` (a connection's).

        The same settings and secrets give the same policy object, so what it builds from the
        secrets (every escaped form, one regex) is built once per connection, not per result.
        """
        return _policy(self, secrets if isinstance(secrets, tuple) else tuple(secrets))


@functools.lru_cache(maxsize=64)
def _policy(settings: RenderSettings, secrets: tuple[str, ...]) -> ShowPolicy:
    limits = Limits(
        output_chars=settings.max_output_chars,
        preview_chars=settings.preview_chars,
        image_bytes=settings.max_image_bytes,
    )
    return ShowPolicy(hide_server_errors=settings.hide_server_errors, limits=limits).with_secrets(secrets)
