"""What a definition costs a model's context, estimated: :func:`estimate_tokens` is the bytes of
the definition as canonical JSON (keys sorted, no spaces, UTF-8) divided by 4, rounded up, the
usual rule of thumb for English text and JSON (``docs/audit.md`` says why it is an estimate)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from anvia_nb.core.audit.definitions import Definition, definitions_of
from anvia_nb.core.protocol.types import ToolInfo

__all__ = ["BYTES_PER_TOKEN", "estimate_tokens", "tool_tokens", "total_tokens"]

BYTES_PER_TOKEN = 4
"""Bytes of JSON one token stands for, in the estimate."""


def estimate_tokens(body: Mapping[str, object]) -> int:
    """About how many tokens a model spends reading ``body`` (a definition as listed).

    Parameters
    ----------
    body : mapping
        A definition with the wire's keys (a :class:`~anvia_nb.core.audit.definitions.Definition`'s
        ``body``).

    Returns
    -------
    int
        The bytes of ``body`` as canonical JSON (keys sorted, no spaces, UTF-8) divided by
        :data:`BYTES_PER_TOKEN`, rounded up: an estimate, not a tokenizer's count.
    """
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    size = len(text.encode("utf-8", "surrogatepass"))
    return -(-size // BYTES_PER_TOKEN)


def total_tokens(definitions: Iterable[Definition]) -> int:
    """The sum of :func:`estimate_tokens` over ``definitions`` (a server's items: what connecting
    it costs a model's context)."""
    return sum(estimate_tokens(definition.body) for definition in definitions)


def tool_tokens(tool: ToolInfo) -> int:
    """:func:`estimate_tokens` of one listed tool's definition (name, title, description, schemas,
    annotations: what ``tools/list`` hands a model)."""
    return estimate_tokens(definitions_of(tool.server, tools=[tool])[1].body)
