"""Every text of a definition a model reads, with where it sits: descriptions, titles, parameter
names and descriptions, defaults, enums, examples, output schemas, a prompt's arguments, the
server's instructions. The checks read these, never the definition's JSON as a whole, so a finding
can say which field it is in (``inputSchema.properties.path.description``).
"""

from __future__ import annotations

from collections.abc import Iterator
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


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def texts_of(definition: Definition) -> Iterator[Text]:
    """Each string of ``definition``'s body, and each key of its objects that is not a plain
    word of the wire (a parameter's or a property's name), depth first in the order sent.

    Nesting deeper than :data:`~anvia_nb.core.protocol.limits.VALUE_DEPTH` is not read (a walk, not
    a recursion: a hostile schema cannot exhaust the stack).
    """
    stack: list[tuple[str, object, int]] = [("", definition.body, 0)]
    while stack:
        path, value, depth = stack.pop()
        if isinstance(value, str):
            yield Text(path or "(value)", value)
        elif depth >= VALUE_DEPTH:
            continue
        elif isinstance(value, dict):
            children = []
            for key, item in value.items():
                key = str(key)
                if not _is_plain_key(key):
                    yield Text(f"{_child(path, key)}(name)", key)
                children.append((_child(path, key), item, depth + 1))
            stack.extend(reversed(children))
        elif isinstance(value, list):
            stack.extend((f"{path}[{index}]", item, depth + 1) for index, item in reversed(list(enumerate(value))))


def _is_plain_key(key: str) -> bool:
    """A key made of ASCII letters, digits and underscores (a wire key or an ordinary parameter
    name): nothing a check could find in it that it would not find in the text around it."""
    return key.isascii() and key.replace("_", "").isalnum() and len(key) <= 64
