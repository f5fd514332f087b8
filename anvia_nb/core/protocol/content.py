"""The kinds of content a tool result can hold, and what each layer does with each kind.

One table, :data:`KINDS`: a new content type is one row here. Each row says

- ``mapped``: what the result mapping (docs/mapping.md) makes of it (``"text"``: its ``text`` joins the
  output; ``"file"``: a file part; ``"resource"``: the JSON of the embedded resource;
  ``"unsupported"``: the call raises ``Unsupported MCP tool result content type``);
- ``shown``: how a notebook shows it (``"text"``, ``"image"``, ``"resource"``, or ``"metadata"``:
  only the listed ``fields``, never played, fetched or linked);
- ``label``: how the row reads in provenance ("resource link"), and for metadata the verb saying
  what was not done ("not played", "not fetched").

Mapping (:mod:`anvia_nb.core.protocol.mapping`), rendering (``display._blocks``), the model's view
(``display.model_context``) and the status (``display.bundles``) all dispatch on this table.
A ``type`` not in it is mapped as unsupported and shown as its bounded JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["KINDS", "UNSUPPORTED_KINDS", "ContentKind", "kind_of", "resource_links"]

Mapped = Literal["text", "file", "resource", "unsupported"]
Shown = Literal["text", "image", "resource", "metadata"]


@dataclass(frozen=True)
class ContentKind:
    """One kind of content item (its wire ``type``) and each layer's treatment of it."""

    type: str
    mapped: Mapped
    shown: Shown
    label: str
    fields: tuple[str, ...] = ()
    """For ``shown == "metadata"``: the item's keys listed (values escaped, masked, bounded)."""
    not_done: str = ""
    """For ``shown == "metadata"``: what anvia_nb did not do with it ("not played")."""
    sized_data: bool = False
    """Whether the item carries base64 ``data`` whose decoded size is worth stating."""

    @property
    def supported(self) -> bool:
        return self.mapped != "unsupported"


KINDS: dict[str, ContentKind] = {
    kind.type: kind
    for kind in (
        ContentKind("text", mapped="text", shown="text", label="text"),
        ContentKind("image", mapped="file", shown="image", label="image", sized_data=True),
        ContentKind("resource", mapped="resource", shown="resource", label="resource"),
        ContentKind(
            "audio",
            mapped="unsupported",
            shown="metadata",
            label="audio",
            fields=("mimeType",),
            not_done="not played",
            sized_data=True,
        ),
        ContentKind(
            "resource_link",
            mapped="unsupported",
            shown="metadata",
            label="resource link",
            fields=("uri", "name", "title", "mimeType", "size", "description"),
            not_done="not fetched",
        ),
    )
}

UNSUPPORTED_KINDS = tuple(name for name, kind in KINDS.items() if not kind.supported)
"""Types the result mapping refuses (docs/mapping.md, rule 5): a result holding one is never shown as ``ok``."""


def kind_of(item: object) -> ContentKind | None:
    """The kind of one content item, or ``None`` for an item of no known ``type``."""
    if not isinstance(item, (dict, Mapping)):  # a dict first: the common case, without the ABC's check
        return None
    kind = item.get("type")
    return KINDS.get(kind) if isinstance(kind, str) else None


def resource_links(content: Sequence[Any]) -> list[dict[str, Any]]:
    """The ``resource_link`` items of a content list whose ``uri`` is a string, in order: what
    ``read_link(i)`` numbers (never fetched unless the person asks)."""
    links = []
    for item in content:  # a loop: cheaper than a comprehension's frame for the usual one or two items
        if isinstance(item, dict) and item.get("type") == "resource_link" and isinstance(item.get("uri"), str):
            links.append(item)
    return links
