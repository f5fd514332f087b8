"""``ReadView`` and ``PromptView``: a resource read and a prompt as values a notebook displays
safely and code reads exactly (``.contents`` / ``.messages`` stay what the server sent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from anvia_nb._passthrough import Passthrough
from anvia_nb.core.protocol.readings import PromptResult, ResourceRead
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.display.bundles import filtered_bundle
from anvia_nb.display.readings import bundle_from_prompt, bundle_from_read
from anvia_nb.display.settings import RenderSettings

__all__ = ["PromptView", "ReadView"]


class ReadView:
    """One ``resources/read``: shown escaped with its provenance; ``.contents``, ``.text``,
    ``.data(i)`` and ``.save(i, path)`` for Python."""

    contents = Passthrough[list[JsonObject]]("read.contents", "The contents as sent (wire keys); exact, not masked.")
    text = Passthrough[str | None](
        "read.text", "The text contents joined; ``None`` when there is none. Exact, not masked."
    )
    raw = Passthrough[JsonObject]("read.raw", "The ReadResourceResult as sent (wire keys); exact, not masked.")
    uri = Passthrough[str]("read.uri", "The URI read.")
    server = Passthrough[str]("read.server", "The connection's name.")
    provenance = Passthrough[str](
        "read.provenance", "Where it came from, as shown: read from server NAME, or read on request from server NAME."
    )

    def __init__(self, read: ResourceRead, settings: RenderSettings | None = None) -> None:
        self.read = read
        self.settings = settings if settings is not None else RenderSettings()

    def data(self, index: int = 0) -> bytes:
        """The bytes of content ``index`` (a blob decoded, a text as UTF-8)."""
        return self.read.data(index)

    def save(self, index: int, path: str | Path) -> Path:
        """Write content ``index`` to ``path``; returns the path."""
        return self.read.save(index, path)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict[str, Any]:
        return filtered_bundle(bundle_from_read(self.read, self.settings), include, exclude)

    def __repr__(self) -> str:
        policy = self.settings.policy(self.read.secrets)
        return f"<ReadView {policy.name(self.read.uri)!r} {self.read.provenance}, {len(self.contents)} contents>"


class PromptView:
    """One ``prompts/get``: its messages shown role by role, safely; ``.messages`` as sent."""

    messages = Passthrough[list[JsonObject]](
        "result.messages", "The messages as sent (``role`` and ``content``); exact, not masked."
    )
    description = Passthrough[str | None](
        "result.description", "The prompt's description as sent; ``None`` without one."
    )
    raw = Passthrough[JsonObject]("result.raw", "The GetPromptResult as sent (wire keys); exact, not masked.")

    def __init__(self, result: PromptResult, settings: RenderSettings | None = None) -> None:
        self.result = result
        self.settings = settings if settings is not None else RenderSettings()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict[str, Any]:
        return filtered_bundle(bundle_from_prompt(self.result, self.settings), include, exclude)

    def __repr__(self) -> str:
        policy = self.settings.policy(self.result.secrets)
        name = policy.name(f"{self.result.server}.{self.result.prompt}")
        return f"<PromptView {name!r}, {len(self.messages)} messages>"
