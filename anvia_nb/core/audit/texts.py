"""Every text of a definition a model reads, with where it sits: descriptions, titles, parameter
names and descriptions, defaults, enums, examples, output schemas, a prompt's arguments, the
server's instructions. The checks read these, never the definition's JSON as a whole, so a finding
can say which field it is in (``inputSchema.properties.path.description``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from anvia_nb.core.audit.definitions import Definition
from anvia_nb.core.protocol.limits import VALUE_DEPTH

__all__ = ["Text", "texts_of"]


@dataclass(frozen=True)
class Text:
    """One string a model reads, and where it is in its definition.

    Attributes
    ----------
    field : str
        Its path in the definition, keys joined by dots and list indexes in brackets
        (``inputSchema.properties.path.description``); a key itself is its path with ``(name)``.
    value : str
        The string as the server sent it.
    """

    field: str
    value: str


_PLAIN = re.compile(r"[A-Za-z0-9_$][A-Za-z0-9_$.\-]{0,63}")
"""An ASCII word with no space (a wire key, a type, a parameter's name, an identifier-like value):
nothing any check finds is in one (no hidden character, no sentence, no link)."""


def texts_of(definition: Definition) -> list[Text]:
    """Each string of ``definition``'s body, and each key of its objects, that is more than a
    plain ASCII word (:data:`_PLAIN`: ``string``, ``inputSchema``), depth first in the order sent;
    the item's own name always, first, and a parameter's name of several words (``dry_run``,
    ``content_from_reading_id_rsa``: the checks read it as words).

    Nesting deeper than :data:`~anvia_nb.core.protocol.limits.VALUE_DEPTH` is not read (a walk, not
    a recursion: a hostile schema cannot exhaust the stack).
    """
    found = [Text("name", definition.name)]

    def plain(word: str) -> bool:  # str's own tests first: most keys and schema words pass them
        return (word.isascii() and word.isidentifier()) or _PLAIN.fullmatch(word) is not None

    stack: list[tuple[str, object, int]] = [("", definition.body, 0)]
    while stack:
        path, value, depth = stack.pop()
        if depth >= VALUE_DEPTH:
            continue
        if isinstance(value, dict):
            children: list[tuple[str, object, int]] = []
            for key, item in value.items():
                key = str(key)
                if not plain(key) or (path.endswith("properties") and ("_" in key or "-" in key)):
                    found.append(Text(f"{path}.{key}(name)" if path else f"{key}(name)", key))
                if isinstance(item, str):
                    if not plain(item) and (path or key != "name"):
                        children.append((f"{path}.{key}" if path else key, item, depth))
                elif isinstance(item, dict | list) and item:
                    children.append((f"{path}.{key}" if path else key, item, depth + 1))
            stack.extend(reversed(children))
        elif isinstance(value, list):
            children = []
            for index, item in enumerate(value):
                if isinstance(item, str):
                    if not plain(item):
                        children.append((f"{path}[{index}]", item, depth))
                elif isinstance(item, dict | list) and item:
                    children.append((f"{path}[{index}]", item, depth + 1))
            stack.extend(reversed(children))
        elif isinstance(value, str):
            found.append(Text(path or "(value)", value))
    return found
