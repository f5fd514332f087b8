"""The MCP protocol versions anvia_nb speaks, and what each one can do: the one module that
knows version strings. Everything else asks a predicate (``listens(version)``...) or names a
constant; a test (tests/core/test_protocol_versions.py) finds any version literal elsewhere.

Which generation a connection speaks (``mcp.stdio(..., protocol=...)``):

- ``None`` (the default): ``server/discover`` first (2026-07-28), and the ``initialize``
  handshake (2025-11-25 and older) when the server refuses it or does not answer;
- ``"2025-11-25"``: the ``initialize`` handshake only; the server may answer an older version.
  For a server that never answers ``server/discover`` (the default waits for it before falling
  back), or to reproduce what a client of the older protocol sees;
- ``"2026-07-28"``: ``server/discover`` only; a server that refuses it fails the connect.

What a version can do (each predicate takes the version a session speaks; ``None`` or an
unknown string counts as the older generation, as the SDK counts it):

- :func:`listens`: list changes and resource updates travel on ``subscriptions/listen`` streams
  the client opens (before: ``notifications/*/list_changed`` sent unasked, ``resources/subscribe``);
- :func:`has_tasks_extension`: tasks are the ``io.modelcontextprotocol/tasks`` extension and the
  server decides which call becomes one (before: the client asks with ``task: {ttl}``);
- :func:`has_input_rounds`: a server asks for input by answering ``input_required`` and the client
  calls again with the answers (before: it sends ``elicitation/create`` or ``sampling/createMessage``);
- :func:`sends_log_level_per_request`: the wanted log level travels with every request (before:
  ``logging/setLevel`` once).

Pure: the values and their checks. :mod:`anvia_nb.core.transport.sdk.protocol` maps them to the SDK.
"""

from __future__ import annotations

from typing import Final

from anvia_nb.errors import InvalidValueError

__all__ = [
    "HANDSHAKE",
    "MODERN",
    "PROTOCOLS",
    "PROTOCOL_CHOICES",
    "check_protocol",
    "has_input_rounds",
    "has_tasks_extension",
    "listens",
    "sends_log_level_per_request",
]

HANDSHAKE: Final = "2025-11-25"
"""The newest version reached by the ``initialize`` handshake."""
MODERN: Final = "2026-07-28"
"""The first version of ``server/discover`` and stateless requests."""
PROTOCOLS: Final = (HANDSHAKE, MODERN)
"""The values a connection's ``protocol`` may name."""
PROTOCOL_CHOICES: Final = "|".join(PROTOCOLS)
"""The same, as a usage line writes them (``--protocol 2025-11-25|2026-07-28``)."""
_DISCOVERED: Final = frozenset({MODERN})
"""The versions reached by ``server/discover`` (a set, not an order: as the SDK's own registry)."""


def check_protocol(value: object) -> str | None:
    """``value`` if it is an accepted protocol (or ``None``); otherwise a one-line error."""
    if value is None or (isinstance(value, str) and value in PROTOCOLS):
        return value
    shown = repr(value)[:60]
    raise InvalidValueError(
        f"protocol must be {HANDSHAKE!r} (the initialize handshake), {MODERN!r} (server/discover only) "
        f"or None (discover, then fall back), not {shown}."
    )


def listens(version: str | None) -> bool:
    """Whether change news comes only on ``subscriptions/listen`` streams the client opens."""
    return version in _DISCOVERED


def has_tasks_extension(version: str | None) -> bool:
    """Whether tasks are the ``io.modelcontextprotocol/tasks`` extension (the server decides)."""
    return version in _DISCOVERED


def has_input_rounds(version: str | None) -> bool:
    """Whether a server asks for input with an ``input_required`` answer, not a request of its own."""
    return version in _DISCOVERED


def sends_log_level_per_request(version: str | None) -> bool:
    """Whether the wanted log level travels with every request (no ``logging/setLevel``)."""
    return version in _DISCOVERED
