"""Plain data of what a resource read and a prompt produced, for display beside the raw result.

:class:`ResourceRead` is one ``resources/read``: the contents as sent (``.contents``), their text
(``.text``) and bytes (``.data(i)``), and ``.save(i, path)`` to write one of them to a file; its
provenance says whether the person read it themselves or asked for an offered link.
:class:`PromptResult` is one ``prompts/get``: ``.messages`` as sent. Both hold JSON with the wire's
keys, never SDK models, and are exact (not masked): the display layer masks what it shows.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.errors import InvalidTypeError, InvalidValueError

__all__ = ["PromptResult", "ResourceRead"]


def _objects(raw: JsonObject, key: str) -> list[JsonObject]:
    """The objects of the list ``raw[key]`` as sent, in order; what is not an object is passed over."""
    found = raw.get(key)
    return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []


@dataclass(frozen=True)
class ResourceRead:
    """Everything one ``resources/read`` produced."""

    server: str
    uri: str
    raw: JsonObject
    """The ReadResourceResult as sent (wire keys): ``{"contents": [...]}``."""
    seconds: float
    on_request: bool = False
    """Read from a ``resource_link`` of a result, because the person asked for it."""
    template: str | None = None
    """The uriTemplate the URI was expanded from, if any."""
    secrets: tuple[str, ...] = field(default=(), repr=False)

    @property
    def contents(self) -> list[JsonObject]:
        """Each content as sent: ``uri``, ``mimeType`` and ``text`` or ``blob`` (base64)."""
        return _objects(self.raw, "contents")

    @property
    def text(self) -> str | None:
        """The text contents joined in server order; ``None`` when there is no text content."""
        texts = [c["text"] for c in self.contents if isinstance(c.get("text"), str)]
        return "".join(texts) if texts else None

    @property
    def provenance(self) -> str:
        how = "read on request from server" if self.on_request else "read from server"
        return f"{how} {self.server}"

    def data(self, index: int = 0) -> bytes:
        """The bytes of content ``index``: a blob decoded, a text as UTF-8."""
        item = self._item(index)
        if isinstance(item.get("blob"), str):
            try:
                return base64.b64decode(item["blob"], validate=True)
            except (binascii.Error, ValueError) as exc:
                raise InvalidValueError(f"Content {index} of {self.uri} is not valid base64: {exc}.") from exc
        if isinstance(item.get("text"), str):
            return str(item["text"]).encode("utf-8")
        raise InvalidValueError(f"Content {index} of {self.uri} has neither text nor blob.")

    def save(self, index: int, path: str | Path) -> Path:
        """Write content ``index`` (decoded) to ``path``; returns the path written."""
        target = Path(path).expanduser()
        target.write_bytes(self.data(index))
        return target

    def _item(self, index: Any) -> JsonObject:
        if not isinstance(index, int) or isinstance(index, bool):
            raise InvalidTypeError(f"A content index is a whole number, not {index!r}.")
        contents = self.contents
        if not -len(contents) <= index < len(contents):
            raise InvalidValueError(f"{self.uri} has {len(contents)} content(s): index {index} is out of range.")
        return contents[index]


@dataclass(frozen=True)
class PromptResult:
    """Everything one ``prompts/get`` produced."""

    server: str
    prompt: str
    arguments: dict[str, str]
    raw: JsonObject
    """The GetPromptResult as sent (wire keys): ``description`` and ``messages``."""
    seconds: float
    secrets: tuple[str, ...] = field(default=(), repr=False)

    @property
    def messages(self) -> list[JsonObject]:
        """Each message as sent: ``role`` and one ``content`` item."""
        return _objects(self.raw, "messages")

    @property
    def description(self) -> str | None:
        text = self.raw.get("description")
        return text if isinstance(text, str) else None
