"""A session's history as a pytest module: connect as the session did, repeat the calls, check them.

:func:`pytest_module` writes plain Python: one test per call, each asserting what the history saw
(the status, the mapped output, the structuredContent, the outputSchema verdict), so ``pytest
FILE`` passes against the same server and fails with pytest's own diff when the server changes.
Values that vary between runs (times, ids) can be checked by type only: each key named in
``loose`` is replaced by its type's name on both sides, also inside text that is JSON.

Secrets never reach the file: a secret in any setting (an env value, an argument, the URL, a
header, a call's arguments) is written as ``os.environ["NAME"]``, the variable it came from (see
:func:`anvia_nb.core.api.secrets.environ_names`), read when the test runs, and the file says so in
a comment; one that no variable holds is refused, saying how to connect instead. OAuth tokens,
refreshed ones too, are never written: the test uses ``mcp.oauth()``, which reads the token cache,
and what the server echoed is compared masked. Dates, times and weekdays in what was seen change
between runs: they are compared loosely by default (``loose_times``), and the file says so.
A replayed connection is written as ``mcp.replay(...)``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import sys
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from pprint import pformat
from typing import Any

from anvia_nb.core.api.connections import HttpConnection, McpConnection, ReplayConnection, StdioConnection
from anvia_nb.core.api.secrets import environ_names, environ_parts
from anvia_nb.core.protocol.types import CallRecord
from anvia_nb.core.transport.oauth.settings import OAuth
from anvia_nb.errors import InvalidValueError
from anvia_nb.policy import MASK, ShowPolicy

__all__ = ["TIMES", "pytest_module", "run_command"]

_WIDTH = 100


class _Code:
    """Source code standing where a value would be written (its repr is the code)."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __repr__(self) -> str:
        return self.code


class _Writer:
    """Writes values as source, each secret as the environment variable it is read from."""

    def __init__(self, secrets: Sequence[str], names: dict[str, str]) -> None:
        self.policy = ShowPolicy().with_secrets(secrets)
        self.names = names
        self.read: dict[str, None] = {}
        """The variables the written code reads, in order."""

    def text(self, value: str) -> Any:
        """``value``, or code joining its literal parts and ``os.environ[...]`` reads."""
        parts = environ_parts(value, self.names)
        if not any(is_name for _, is_name in parts):
            return value
        self.read.update((part, None) for part, is_name in parts if is_name)
        code = [f"os.environ[{part!r}]" if is_name else repr(self.policy.mask(part)) for part, is_name in parts if part]
        return _Code(" + ".join(code))

    def json(self, value: Any) -> Any:
        """A JSON value with secrets read from the environment, or masked when no variable holds them."""
        if isinstance(value, str):
            found = self.text(value)
            return found if isinstance(found, _Code) else self.policy.mask(value)
        if isinstance(value, dict):
            return {k: self.json(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.json(v) for v in value]
        return value

    def setting(self, connection: McpConnection, what: str, value: Any) -> Any:
        """A setting as code; a secret in it that no variable holds is refused, saying what to do."""
        written = self.json(value)
        if MASK in repr(written) and MASK not in repr(value):
            raise InvalidValueError(
                f"{connection.name}'s {what} holds a secret, which a test file must not: give it from the kernel's "
                "environment instead (--secret-env NAME, $NAME in the connect line, ${NAME} in a config file), "
                "connect again and repeat the calls."
            )
        return written


def _by_key(writer: _Writer, values: Mapping[str, str], name_of: Any) -> None:
    """An env value or header holding a secret no variable holds (typed in the notebook) is read,
    whole, from a variable named after it (``API_TOKEN``, ``MCP_HEADER_AUTHORIZATION``): set it
    where the test runs. The file's docstring lists every variable it reads."""
    names = dict(writer.names)
    for key, value in values.items():
        parts = environ_parts(value, names)
        if any(not is_name and writer.policy.mask(part) != part for part, is_name in parts):
            writer.names = {**writer.names, value: name_of(key)}


def _header_name(header: str) -> str:
    return "MCP_HEADER_" + re.sub(r"[^A-Za-z0-9]", "_", header).upper()


def _read(writer: _Writer, before: int) -> str:
    """``from_environ=`` for the variables a connection's code read (secrets in the test's runtime too)."""
    names = list(writer.read)[before:]
    return f", from_environ={{{', '.join(f'{n!r}: os.environ[{n!r}]' for n in names)}}}" if names else ""


def _connection_code(connection: McpConnection, writer: _Writer) -> str:
    """``mcp.stdio(...)`` / ``mcp.http(...)`` / ``mcp.replay(...)`` source, secrets read from the environment."""
    if isinstance(connection, ReplayConnection):
        return f"mcp.replay(name={connection.name!r}, path={connection.path!r})"
    name = f"name={connection.name!r}"
    before = len(writer.read)
    if isinstance(connection, StdioConnection):
        _by_key(writer, connection.env, lambda key: key)
        command = writer.setting(connection, "command", connection.command)
        args = writer.setting(connection, "command line", list(connection.args))
        env = writer.setting(connection, "env", dict(connection.env))
        cwd = f", cwd={writer.setting(connection, 'cwd', connection.cwd)!r}" if connection.cwd else ""
        return f"mcp.stdio({name}, command={command!r}, args={args!r}, env={env!r}{cwd}{_read(writer, before)})"
    if isinstance(connection, HttpConnection):
        _by_key(writer, connection.headers, _header_name)
        url = writer.setting(connection, "URL", connection.url)
        headers = writer.setting(connection, "headers", dict(connection.headers))
        auth = ""
        if isinstance(connection.auth, OAuth):
            settings = connection.auth
            secret = writer.setting(connection, "OAuth client secret", settings.client_secret)
            scopes = list(settings.scopes)
            auth = f", auth=mcp.oauth(client_id={settings.client_id!r}, client_secret={secret!r}, scopes={scopes!r})"
        elif connection.auth is not None:
            raise InvalidValueError(f"{connection.name}'s auth object cannot be written to a test file.")
        return f"mcp.http({name}, url={url!r}, headers={headers!r}{auth}{_read(writer, before)})"
    raise InvalidValueError(f"{connection.name} is an in-memory connection: a test file cannot reach it.")


def _literal(value: Any, indent: int) -> str:
    text = pformat(value, width=_WIDTH - indent, sort_dicts=False)
    return text.replace("\n", "\n" + " " * indent)


def _test_name(index: int, outcome: CallRecord) -> str:
    words = re.sub(r"[^A-Za-z0-9]+", "_", f"{outcome.server}_{outcome.tool}").strip("_").lower()
    return f"test_{index:02d}_{words}"


TIMES = (
    (r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?", "<datetime>"),
    (r"\b\d{4}-\d{2}-\d{2}\b", "<date>"),
    (r"\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?[AaPp][Mm])?\b", "<time>"),
    (r"\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b", "<weekday>"),
)
"""What changes between runs, and the word it is compared as: ISO date-times, dates, times of day,
weekdays. The written module's ``timeless`` uses these same patterns."""


def _expected(value: Any, actual: str, loose: Sequence[str], loose_times: bool) -> tuple[str, Any, str]:
    """How ``actual`` is compared with the masked ``value`` seen: masked too when a secret was seen,
    by type for the ``loose`` keys, and with times as words when times were seen (and a comment)."""
    note = ""
    helpers = _helpers(loose)
    if MASK in json.dumps(value, ensure_ascii=False):
        actual = f"masked(runtime, {actual})"
    if loose:
        value, actual = helpers["loosened"](value), f"loosened({actual})"
    if loose_times and helpers["timeless"](value) != value:
        value, actual = helpers["timeless"](value), f"timeless({actual})"
        note = "    # dates, times and weekdays change between runs: compared as <date>, <time>... (see timeless)"
    return actual, value, note


def _checks(outcome: CallRecord, loose: Sequence[str], policy: ShowPolicy, loose_times: bool) -> list[str]:
    seen = policy.mask_json(outcome.seen)
    lines = [f"    assert outcome.status == {outcome.status!r}"]
    if outcome.error is not None and outcome.status in ("tool error", "failed", "unsupported content"):
        message = policy.mask(str(outcome.error.args[0]) if outcome.error.args else "")
        actual, message, note = _expected(message, "str(outcome.error)", (), loose_times)
        lines += [note] if note else []
        prefix = f"    assert {actual} == "
        lines.append(prefix + _literal(message, len(prefix)))
    for name, attribute in (("output", "outcome.output"), ("structured", "outcome.structured")):
        if name in seen:
            actual, expected, note = _expected(seen[name], attribute, loose, loose_times)
            lines += [note] if note else []
            prefix = f"    assert {actual} == "
            lines.append(prefix + _literal(expected, len(prefix)))
        elif name == "output" and outcome.output_chars is not None:
            lines.append(f"    assert outcome.output_chars == {outcome.output_chars}  # too large to keep")
    if outcome.schema_problems is not None and outcome.status != "schema mismatch":
        lines.append(f"    assert outcome.schema_problems == {outcome.schema_problems!r}  # the outputSchema verdict")
    elif outcome.status == "schema mismatch":
        lines.append("    assert outcome.schema_problems  # structuredContent did not match the outputSchema")
    return lines


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


def timeless(value):
    """``value`` with dates, times and weekdays (TIMES) as words: they change between runs."""
    if isinstance(value, str):
        for pattern, word in TIMES:
            value = re.sub(pattern, word, value)
        return value
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items()}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


def masked(runtime, value):
    """``value`` with the connections' secrets masked, as the session kept what it saw."""
    secrets = [secret for name in runtime.names() for secret in runtime.server(name).secrets]
    return ShowPolicy().with_secrets(secrets).mask_json(value)
'''

_HELPER_CODE = compile(_HELPER, "<the written module's helpers>", "exec")


def _helpers(loose: Sequence[str]) -> dict[str, Any]:  # any: the helpers' functions, as _HELPER defines them
    """The written module's helpers, run here on what was seen: the expected values are made by the
    same ``loosened`` and ``timeless`` the test runs, written once in _HELPER."""
    helpers: dict[str, Any] = {  # any: a module's globals
        "json": json,
        "re": re,
        "ShowPolicy": ShowPolicy,
        "LOOSE": tuple(loose),
        "TIMES": TIMES,
    }
    exec(_HELPER_CODE, helpers)
    return helpers


def run_command(path: str | os.PathLike[str]) -> str:
    """The command that runs a written file where it was written, and says so: this kernel's
    Python, and no configuration or conftest.py of the folders around it (a repository's
    ``addopts`` may force plugins, such as nbval, that the file does not need)."""
    file = os.path.abspath(path)
    python = "python" if os.path.realpath(_which_python()) == os.path.realpath(sys.executable) else sys.executable
    words = [python, "-m", "pytest", "-p", "no:cacheprovider", "-c", os.devnull, "--noconftest"]
    return shlex.join([*words, "--rootdir", os.path.dirname(file), file])  # from any folder


def _which_python() -> str:
    import shutil

    return shutil.which("python") or ""


def pytest_note() -> str | None:
    """How to get pytest when this kernel has none (Binder's environment has no pytest)."""
    if importlib.util.find_spec("pytest") is not None:
        return None
    return "pytest is not installed in this kernel's environment: run %pip install pytest first."


def pytest_module(
    outcomes: Sequence[CallRecord],
    connections: Mapping[str, McpConnection],
    *,
    loose: Sequence[str] = (),
    command: str = "",
    secrets: Mapping[str, Sequence[str]] | None = None,
    loose_times: bool = True,
    path: str = "THIS_FILE",
) -> str:
    """The source of a pytest module repeating ``outcomes`` (history entries) on ``connections``.

    ``secrets``: each connection's secrets as the session knows them now (OAuth tokens, refreshed
    ones): never written, like the connections' own. ``loose_times``: dates, times and weekdays
    are compared as words. Raises :class:`InvalidValueError` when there is nothing to write or a
    connection cannot be written without a secret.
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
    known = [s for name in names for s in (*_secrets_of(connections[name]), *(secrets or {}).get(name, ()))]
    known += [s for outcome in outcomes for s in outcome.secrets]
    from_environ: dict[str, str] = {}
    env: dict[str, str] = {}
    for name in names:
        from_environ.update(getattr(connections[name], "from_environ", {}))
        env.update(getattr(connections[name], "env", {}))
    writer = _Writer(known, environ_names(known, from_environ, os.environ, env))
    connects = [f"        runtime.connect({_connection_code(connections[name], writer)})" for name in names]
    oauth = any(isinstance(getattr(connections[n], "auth", None), OAuth) for n in names)
    calls: list[str] = []
    for index, outcome in enumerate(outcomes, 1):
        call = f"    outcome = runtime.call({outcome.server!r}, {outcome.tool!r}, "
        calls += [
            "",
            "",
            f"def {_test_name(index, outcome)}(runtime):",
            call + _literal(writer.json(outcome.arguments), len(call)) + ")",
            *_checks(outcome, loose, writer.policy, loose_times),
        ]
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    made_by = f"`{command}`" if command else "anvia_nb"
    lines = [
        f'"""{len(outcomes)} MCP call{"s" if len(outcomes) != 1 else ""} to {", ".join(names)}, repeated and checked',
        f"against what was seen. Written by {made_by} on {when}.",
        "",
        f"Run with: {run_command(path) if path != 'THIS_FILE' else 'pytest THIS_FILE'}",
        "It connects as the session did, so the same servers must be reachable.",
    ]
    if loose:
        lines.append(f"Checked by type only: {', '.join(loose)}.")
    if loose_times:
        lines.append("Dates, times and weekdays are compared loosely, as <date>, <time>...: they change between runs.")
    read = list(writer.read)
    if read:
        lines.append(f"Reads from the environment (never written here): {', '.join(read)}.")
    lines += [
        '"""',
        "",
        "import json  # noqa: F401",
        "import os  # noqa: F401",
        "import re  # noqa: F401",
        "",
        "import pytest",
        "",
        "from anvia_nb import mcp",
        "from anvia_nb.policy import ShowPolicy",
        "from anvia_nb.runtime import Runtime",
        "",
        f"LOOSE = {tuple(loose)!r}",
        f"TIMES = {TIMES!r}",
        _HELPER,
        "",
        '@pytest.fixture(scope="module")',
        "def runtime():",
        "    runtime = Runtime()",
        "    try:",
        *(
            [
                "        # secrets are read from the environment when the test runs, never written here: "
                + ", ".join(read)
            ]
            if read
            else []
        ),
        *(
            ["        # OAuth: mcp.oauth() reads the cached token when the test runs; no token is written here"]
            if oauth
            else []
        ),
        *connects,
        "        yield runtime",
        "    finally:",
        "        runtime.shutdown()",
        *calls,
    ]
    return "\n".join(lines) + "\n"


def _secrets_of(connection: McpConnection) -> tuple[str, ...]:
    found = getattr(connection, "secrets", None)
    return tuple(found()) if callable(found) else ()
