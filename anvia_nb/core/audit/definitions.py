"""A server's definitions as a model reads them: one :class:`Definition` per item (the server
itself, each tool, prompt, resource and resource template), with a canonical hash, and the
:class:`Finding` an audit check reports on one of them.

Everything here is plain data built from what the server listed (untrusted text), so the checks,
the pins, the exports and the display can share it without a session.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from anvia_nb.core.protocol.types import JsonObject, ToolInfo

__all__ = [
    "KINDS",
    "SEVERITIES",
    "Definition",
    "Finding",
    "Kind",
    "Severity",
    "canonical_hash",
    "definitions_of",
]

Kind = Literal["server", "tool", "prompt", "resource", "template"]
KINDS: tuple[Kind, ...] = ("server", "tool", "prompt", "resource", "template")
"""The kinds of item a server defines, in the order an audit lists them."""

Severity = Literal["high", "medium", "low", "info"]
SEVERITIES: tuple[Severity, ...] = ("high", "medium", "low", "info")
"""Finding severities, most severe first."""


def canonical_hash(body: Mapping[str, object]) -> str:
    """``sha256:`` and the hex digest of ``body`` as canonical JSON (keys sorted, no spaces,
    Unicode kept as is), so the same definition hashes the same in any kernel and any order."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Definition:
    """One item a server defines, as a model reads it.

    Attributes
    ----------
    server : str
        The connection's name.
    kind : {"server", "tool", "prompt", "resource", "template"}
        What the item is.
    name : str
        The item's name (a resource's and a template's URI; the server's own name for ``"server"``).
    body : dict
        The definition with the wire's keys: for a tool ``name``, ``title``, ``description``,
        ``inputSchema``, ``outputSchema``, ``annotations``; for the server ``instructions`` and
        ``serverInfo``; a prompt, resource or template as listed. Keys with no value are left out.
    """

    server: str
    kind: Kind
    name: str
    body: JsonObject

    @property
    def key(self) -> str:
        """``kind:name``: the item's key in a lock file and a diff."""
        return f"{self.kind}:{self.name}"

    @property
    def digest(self) -> str:
        """The body's :func:`canonical_hash`."""
        return canonical_hash(self.body)


@dataclass(frozen=True)
class Finding:
    """What one check found in one item.

    Attributes
    ----------
    server, kind, item : str
        Where: the connection, the item's kind and its name.
    check : str
        The check's id (``docs/audit.md`` has one section per check).
    severity : {"high", "medium", "low", "info"}
        How much a model trusting the item is at risk.
    evidence : str
        The offending text with hidden characters made visible (``U+XXXX`` and their names).
    advice : str
        One line: why it matters and what to do.
    digest : str
        The item's definition hash when found: an accepted finding stays accepted until it changes.
    """

    server: str
    kind: Kind
    item: str
    check: str
    severity: Severity
    evidence: str
    advice: str
    digest: str = ""


def _present(body: Mapping[str, object]) -> JsonObject:
    return {key: value for key, value in body.items() if value is not None}


def _tool_body(tool: ToolInfo) -> JsonObject:
    return _present(
        {
            "name": tool.name,
            "title": tool.title,
            "description": tool.description,
            "inputSchema": tool.input_schema,
            "outputSchema": tool.output_schema,
            "annotations": tool.annotations,
        }
    )


def definitions_of(
    server: str,
    *,
    instructions: str | None = None,
    server_info: JsonObject | None = None,
    tools: Iterable[ToolInfo] = (),
    prompts: Iterable[JsonObject] = (),
    resources: Iterable[JsonObject] = (),
    templates: Iterable[JsonObject] = (),
) -> list[Definition]:
    """Every item ``server`` defines, server first, then tools, prompts, resources and templates
    in the order listed."""
    found = [Definition(server, "server", server, _present({"instructions": instructions, "serverInfo": server_info}))]
    found += [Definition(server, "tool", tool.name, _tool_body(tool)) for tool in tools]
    found += [Definition(server, "prompt", str(p.get("name", "")), _present(dict(p))) for p in prompts]
    found += [Definition(server, "resource", str(r.get("uri", "")), _present(dict(r))) for r in resources]
    found += [Definition(server, "template", str(t.get("uriTemplate", "")), _present(dict(t))) for t in templates]
    return found
