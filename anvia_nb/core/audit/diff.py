"""How two sets of definitions differ: items added, removed and changed, each change with its
difference (``difflib`` over the definitions as canonical pretty JSON, so key order and spacing
never count as a change).

Used by ``%mcp diff`` (two connections, a connection and its pins, a connection and a recording)
and by the pins (a definition that changed since a person pinned it).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from anvia_nb.core.audit.definitions import KINDS, Definition, Kind
from anvia_nb.core.protocol import limits

__all__ = ["Change", "DefinitionChange", "compare_definitions", "difference", "pretty"]

Change = Literal["added", "removed", "changed"]


@dataclass(frozen=True)
class DefinitionChange:
    """One item that is not the same on both sides.

    Attributes
    ----------
    kind : {"server", "tool", "prompt", "resource", "template"}
        What the item is.
    item : str
        Its name (a resource's URI; for ``"server"`` the name on the new side).
    change : {"added", "removed", "changed"}
        Only on the new side, only on the old side, or on both with another definition.
    difference : str
        A unified diff of the two definitions as pretty JSON (the whole definition when added or
        removed), at most :data:`~anvia_nb.core.protocol.limits.DEFINITION_DIFF_LINES` lines.
    before, after : str
        The item's hash on each side (``""`` where it is absent).
    """

    kind: Kind
    item: str
    change: Change
    difference: str
    before: str = ""
    after: str = ""

    @property
    def line(self) -> str:
        """``tool echo changed``: the change in a few words (the item's name unmasked)."""
        return f"{self.kind} {self.item} {self.change}"


def pretty(body: Mapping[str, object]) -> str:
    """The definition as canonical pretty JSON: keys sorted, two-space indent, Unicode kept."""
    return json.dumps(body, sort_keys=True, indent=2, ensure_ascii=False)


def _bounded(lines: list[str]) -> str:
    most = limits.DEFINITION_DIFF_LINES
    if len(lines) > most:
        lines = [*lines[:most], f"… {len(lines) - most} more lines"]
    return "\n".join(lines)


def difference(
    before: Mapping[str, object] | None, after: Mapping[str, object] | None, *, old: str = "before", new: str = "after"
) -> str:
    """A unified diff of two definitions (either may be ``None``: absent) as pretty JSON.

    Parameters
    ----------
    before, after : mapping or None
        The definition on each side.
    old, new : str, optional
        The labels of the two sides in the diff's header.

    Returns
    -------
    str
        The diff's lines, bounded (see :class:`DefinitionChange`).
    """
    a = pretty(before).splitlines() if before is not None else []
    b = pretty(after).splitlines() if after is not None else []
    return _bounded(list(difflib.unified_diff(a, b, fromfile=old, tofile=new, lineterm="", n=2)))


def _key(definition: Definition) -> str:
    """The server's own item matches across connections of other names."""
    return "server:" if definition.kind == "server" else definition.key


def compare_definitions(
    before: Iterable[Definition], after: Iterable[Definition], *, old: str = "before", new: str = "after"
) -> list[DefinitionChange]:
    """The items added, removed and changed from ``before`` to ``after``, by kind then name.

    Parameters
    ----------
    before, after : iterable of Definition
        Two sets of definitions (of one server each, or the same server at two times).
    old, new : str, optional
        What each side is, for the diffs' headers (``"pins"``, ``"demo"``...).

    Returns
    -------
    list of DefinitionChange
        Nothing when both define the same items the same way.
    """
    olds = {_key(d): d for d in before}
    news = {_key(d): d for d in after}
    found: list[DefinitionChange] = []
    for key in [*olds, *(k for k in news if k not in olds)]:
        was, now = olds.get(key), news.get(key)
        if was is not None and now is not None and was.digest == now.digest:
            continue
        shown = now or was
        assert shown is not None  # the key came from one of the two sides
        change: Change = "added" if was is None else "removed" if now is None else "changed"
        found.append(
            DefinitionChange(
                kind=shown.kind,
                item=shown.name,
                change=change,
                difference=difference(
                    None if was is None else was.body, None if now is None else now.body, old=old, new=new
                ),
                before="" if was is None else was.digest,
                after="" if now is None else now.digest,
            )
        )
    order = {kind: index for index, kind in enumerate(KINDS)}
    return sorted(found, key=lambda c: (order[c.kind], c.item))
