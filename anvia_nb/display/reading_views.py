"""``ReadView`` and ``PromptView``: a resource read and a prompt as values a notebook displays
safely and code reads exactly (``.contents`` / ``.messages`` stay what the server sent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from anvia_nb.core.protocol.readings import PromptResult, ResourceRead
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.display.bundles import filtered_bundle
from anvia_nb.display.readings import bundle_from_prompt, bundle_from_read
from anvia_nb.display.settings import RenderSettings

__all__ = ["PromptView", "ReadView"]


class ReadView:
    """One ``resources/read``: shown escaped with its provenance; ``.contents``, ``.text``,
    ``.data(i)`` and ``.save(i, path)`` for Python."""

    def __init__(self, read: ResourceRead, settings: RenderSettings | None = None) -> None:
        self.read = read
        self.settings = settings if settings is not None else RenderSettings()

    @property
    def contents(self) -> list[JsonObject]:
        """The contents as sent (wire keys); exact, not masked."""
        return self.read.contents

    @property
    def text(self) -> str | None:
        """The text contents joined; ``None`` when there is none. Exact, not masked."""
        return self.read.text

    @property
    def raw(self) -> JsonObject:
        return self.read.raw

    @property
    def uri(self) -> str:
        return self.read.uri

    @property
    def server(self) -> str:
        return self.read.server

    @property
    def provenance(self) -> str:
        return self.read.provenance

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

    def __init__(self, result: PromptResult, settings: RenderSettings | None = None) -> None:
        self.result = result
        self.settings = settings if settings is not None else RenderSettings()

    @property
    def messages(self) -> list[JsonObject]:
        """The messages as sent (``role`` and ``content``); exact, not masked."""
        return self.result.messages

    @property
    def description(self) -> str | None:
        return self.result.description

    @property
    def raw(self) -> JsonObject:
        return self.result.raw

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None, **kwargs: Any) -> dict[str, Any]:
        return filtered_bundle(bundle_from_prompt(self.result, self.settings), include, exclude)

    def __repr__(self) -> str:
        policy = self.settings.policy(self.result.secrets)
        name = policy.name(f"{self.result.server}.{self.result.prompt}")
        return f"<PromptView {name!r}, {len(self.messages)} messages>"
