"""A session's history as a pytest module: connect as the session did, repeat the calls, check them.

:func:`pytest_module` writes plain Python: one test per call, each asserting what the history saw
(the status, the mapped output, the structuredContent, the outputSchema verdict), so ``pytest
FILE`` passes against the same server and fails with pytest's own diff when the server changes.
Values that vary between runs (times, ids) can be checked by type only: each key named in
``loose`` is replaced by its type's name on both sides, also inside text that is JSON.

Secrets never reach the file: a secret env value or header becomes ``os.environ["NAME"]``, read
when the test runs. A replayed connection is written as ``mcp.replay(...)``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pprint import pformat
from typing import Any

from anvia_nb.core.api.connections import HttpConnection, McpConnection, ReplayConnection, StdioConnection
from anvia_nb.core.protocol.types import CallRecord
from anvia_nb.errors import InvalidValueError
from anvia_nb.policy import ShowPolicy

__all__ = ["pytest_module"]

_WIDTH = 100


def _env_name(header: str) -> str:
    return "MCP_HEADER_" + re.sub(r"[^A-Za-z0-9]", "_", header).upper()


def _secret_dict(values: Mapping[str, str], secrets: Sequence[str], name_of: Any) -> tuple[str, list[str]]:
    """A dict literal whose secret values are read from the environment; and those names."""
    parts, names = [], []
    for key, value in values.items():
        if any(secret and secret in value for secret in secrets):
            names.append(name_of(key))
            parts.append(f"{key!r}: os.environ[{name_of(key)!r}]")
        else:
            parts.append(f"{key!r}: {value!r}")
    return "{" + ", ".join(parts) + "}", names


def _connection_code(connection: McpConnection) -> tuple[str, list[str]]:
    """``mcp.stdio(...)`` / ``mcp.http(...)`` / ``mcp.replay(...)`` source, and the env names it reads."""
    if isinstance(connection, ReplayConnection):
        return f"mcp.replay(name={connection.name!r}, path={connection.path!r})", []
    secrets = connection.secrets()
    if isinstance(connection, StdioConnection):
        if any(s in arg for s in secrets for arg in (connection.command, *connection.args)):
            raise InvalidValueError(
                f"{connection.name}'s command line holds a secret, which a test file must not: pass it with "
                "--secret-env instead, connect again and repeat the calls."
            )
        env, names = _secret_dict(connection.env, secrets, lambda key: key)
        cwd = f", cwd={connection.cwd!r}" if connection.cwd else ""
        return (
            f"mcp.stdio(name={connection.name!r}, command={connection.command!r}, args={list(connection.args)!r}, "
            f"env={env}{cwd})",
            names,
        )
    if isinstance(connection, HttpConnection):
        if any(s in connection.url for s in secrets):
            raise InvalidValueError(f"{connection.name}'s URL holds a secret, which a test file must not hold.")
        headers, names = _secret_dict(connection.headers, secrets, _env_name)
        return f"mcp.http(name={connection.name!r}, url={connection.url!r}, headers={headers})", names
    raise InvalidValueError(f"{connection.name} is an in-memory connection: a test file cannot reach it.")


def _literal(value: Any, indent: int) -> str:
    text = pformat(value, width=_WIDTH - indent, sort_dicts=False)
    return text.replace("\n", "\n" + " " * indent)


def _test_name(index: int, outcome: CallRecord) -> str:
    words = re.sub(r"[^A-Za-z0-9]+", "_", f"{outcome.server}_{outcome.tool}").strip("_").lower()
    return f"test_{index:02d}_{words}"


def _checks(outcome: CallRecord, loose: Sequence[str], policy: ShowPolicy) -> list[str]:
    seen = policy.mask_json(outcome.seen)
    lines = [f"    assert outcome.status == {outcome.status!r}"]
    if outcome.error is not None and outcome.status in ("tool error", "failed", "unsupported content"):
        message = policy.mask(str(outcome.error.args[0]) if outcome.error.args else "")
        lines.append(f"    assert str(outcome.error) == {_literal(message, 31)}")
    wrap = ("loosened(", ")") if loose else ("", "")
    for name, attribute in (("output", "outcome.output"), ("structured", "outcome.structured")):
        if name in seen:
            expected = _loosened(seen[name], loose) if loose else seen[name]
            prefix = f"    assert {wrap[0]}{attribute}{wrap[1]} == "
            lines.append(prefix + _literal(expected, len(prefix)))
        elif name == "output" and outcome.output_chars is not None:
            lines.append(f"    assert outcome.output_chars == {outcome.output_chars}  # too large to keep")
    if outcome.schema_problems is not None and outcome.status != "schema mismatch":
        lines.append(f"    assert outcome.schema_problems == {outcome.schema_problems!r}  # the outputSchema verdict")
    elif outcome.status == "schema mismatch":
        lines.append("    assert outcome.schema_problems  # structuredContent did not match the outputSchema")
    return lines


def _loosened(value: Any, keys: Sequence[str]) -> Any:
    """The same transformation the written module's ``loosened`` makes (kept in step with _HELPER)."""
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return _loosened(json.loads(value), keys)
        except ValueError:
            return value
    if isinstance(value, dict):
        return {k: (f"<{type(v).__name__}>" if k in keys else _loosened(v, keys)) for k, v in value.items()}
    if isinstance(value, list):
        return [_loosened(v, keys) for v in value]
    return value


_HELPER = '''

def loosened(value):
    """``value`` with each key in LOOSE replaced by its type's name ("<str>"), also inside JSON text."""
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return loosened(json.loads(value))
        except ValueError:
            return value
    if isinstance(value, dict):
        return {k: (f"<{type(v).__name__}>" if k in LOOSE else loosened(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [loosened(v) for v in value]
    return value
'''


def pytest_module(
    outcomes: Sequence[CallRecord],
    connections: Mapping[str, McpConnection],
    *,
    loose: Sequence[str] = (),
    command: str = "",
) -> str:
    """The source of a pytest module repeating ``outcomes`` (history entries) on ``connections``.

    Raises :class:`InvalidValueError` when there is nothing to write or a connection cannot be
    written without a secret.
    """
    if not outcomes:
        raise InvalidValueError("There are no calls to write a test from: make some calls first.")
    names = list(dict.fromkeys(o.server for o in outcomes))
    missing = [name for name in names if name not in connections]
    if missing:
        raise InvalidValueError(
            f"{missing[0]} is not connected now, so how to reach it is unknown: connect it again as before, "
            "or name only open connections."
        )
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    env_names: list[str] = []
    connects: list[str] = []
    for name in names:
        code, needed = _connection_code(connections[name])
        env_names += needed
        connects.append(f"        runtime.connect({code})")
    made_by = f"`{command}`" if command else "anvia_nb"
    lines = [
        f'"""{len(outcomes)} MCP call{"s" if len(outcomes) != 1 else ""} to {", ".join(names)}, repeated and checked',
        f"against what was seen. Written by {made_by} on {when}.",
        "",
        "Run with `pytest THIS_FILE`. It connects as the session did, so the same servers must be reachable.",
    ]
    if loose:
        lines.append(f"Checked by type only: {', '.join(loose)}.")
    if env_names:
        lines.append(f"Reads from the environment (never written here): {', '.join(dict.fromkeys(env_names))}.")
    lines += [
        '"""',
        "",
        "import json  # noqa: F401",
        "import os  # noqa: F401",
        "",
        "import pytest",
        "",
        "from anvia_nb import mcp",
        "from anvia_nb.runtime import Runtime",
        "",
        f"LOOSE = {tuple(loose)!r}",
        _HELPER,
        "",
        '@pytest.fixture(scope="module")',
        "def runtime():",
        "    runtime = Runtime()",
        "    try:",
        *connects,
        "        yield runtime",
        "    finally:",
        "        runtime.shutdown()",
    ]
    for index, outcome in enumerate(outcomes, 1):
        policy = ShowPolicy().with_secrets(outcome.secrets)
        arguments = policy.mask_json(outcome.arguments)
        call = f"    outcome = runtime.call({outcome.server!r}, {outcome.tool!r}, "
        lines += [
            "",
            "",
            f"def {_test_name(index, outcome)}(runtime):",
            call + _literal(arguments, len(call)) + ")",
            *_checks(outcome, loose, policy),
        ]
    return "\n".join(lines) + "\n"
