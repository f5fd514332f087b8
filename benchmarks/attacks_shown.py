"""Attacks on what a person sees: floods of prompts and options, secrets the server echoes or the
settings carry, error text. Text a server chose that MathJax would typeset or that is too large to
show is attacked in ``attacks_server_text``, with the helpers here."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.connections import HttpConnection, StdioConnection
from anvia_nb.core.api.secrets import unmasked_note
from anvia_nb.display import bundle_from_outcome
from anvia_nb.errors import AnviaError
from anvia_nb.policy import Limits, ShowPolicy, secret_variants
from anvia_nb.runtime import Runtime
from benchmarks.attacks_common import (
    BOUND_SECONDS,
    FAILING_INIT,
    ROGUE,
    Result,
    attack,
    captured_fds,
    sync,
    wait_for,
)
from tests.helpers import attack_servers as servers

__all__ = ["leaked", "new_widget_state", "runtime", "state_chars", "widget_ids"]

HIDDEN = ShowPolicy(hide_server_errors=True)


@contextmanager
def runtime() -> Iterator[Runtime]:
    started = Runtime()
    try:
        yield started
    finally:
        started.shutdown()


def new_widget_state(before: set[str]) -> list[dict[str, Any]]:
    """The state of every widget made since ``before`` (what would travel to the browser)."""
    from ipywidgets.widgets.widget import _instances

    return [w.get_state() for key, w in list(_instances.items()) if key not in before]


def widget_ids() -> set[str]:
    from ipywidgets.widgets.widget import _instances

    return set(_instances)


def state_chars(states: list[dict[str, Any]]) -> int:
    return sum(len(json.dumps(s, default=str)) for s in states)


def leaked(text: str, secret: str = servers.SECRET) -> int:
    """How many times any escaped form of ``secret`` occurs in ``text``."""
    return sum(text.count(form) for form in secret_variants([secret]))


# -- floods -----------------------------------------------------------------------------------


@attack("elicitation-flood-form", "memory", "requests for input at once in one form (2,000 full, 200 quick)")
def flood_form(full: bool) -> Result:
    from anvia_nb.widgets import form
    from anvia_nb.widgets.forms.tool_form import ToolForm

    requests = 2_000 if full else 200
    bound = Limits().prompts
    with runtime() as rt:
        rt.connect(mcp.memory(name="asker", server=servers.asker(requests)))
        before = widget_ids()
        asker = form("asker.ask_many", runtime=rt)
        assert isinstance(asker, ToolForm), asker
        asker.call()
        counted = wait_for(lambda: asker.refused_prompts == requests - bound)
        shown = len(asker.prompt_area.children)
        for prompt in list(asker.prompts.shown):
            prompt.decline()
        outcome = asker.wait(BOUND_SECONDS)
        chars = state_chars(new_widget_state(before))
    return Result(
        counted and shown <= bound and outcome is not None,
        f"{shown} prompts shown, {requests - shown:,} cancelled and counted",
        chars,
    )


@attack(
    "elicitation-flood-cell",
    "memory",
    "2,000 requests for input during a call awaited in a cell (kernel)",
    full_only=True,
)
def flood_cell(full: bool) -> Result:
    from tests.helpers.kernel import Kernel

    requests, bound = 2_000, Limits().prompts
    kernel = Kernel()
    try:
        kernel.run(
            "import asyncio, time\nfrom anvia_nb import connect_mcp, mcp\n"
            "from anvia_nb.widgets import enable_elicitation\nfrom tests.helpers.attack_servers import asker\n"
            f"server = await connect_mcp(mcp.memory(name='asker', server=asker({requests})))\n"
            "router = enable_elicitation(server)\n"
            "task = asyncio.ensure_future(server.tool('ask_many').call({}))\n"
        )
        cell = kernel.run(
            f"deadline = time.monotonic() + {BOUND_SECONDS}\n"
            f"while router.in_cells.refused < {requests - bound} and time.monotonic() < deadline:\n"
            "    await asyncio.sleep(0.05)\n"
            "print(router.in_cells.refused, len(router.prompts))\n"
            "for prompt in router.prompts:\n    prompt.decline()\n"
            f"print(await asyncio.wait_for(task, {BOUND_SECONDS}))\n"
        )
        peak = kernel.peak_kb()
    finally:
        kernel.stop()
    counts = cell.stdout.split("\n", 1)[0]
    refused, shown = [*counts.split(), "?", "?"][:2]
    return Result(
        counts == f"{requests - bound} {bound}" and "'decline': 5" in cell.stdout,
        f"{shown} prompts shown, {refused} cancelled and counted",
        cell.shown_chars,
        peak,
    )


@attack("huge-enums", "memory", "ten enums of 20,000 values in one form", full_only=True)
def huge_enums(full: bool) -> Result:
    from anvia_nb.widgets import form

    with runtime() as rt:
        rt.connect(mcp.memory(name="enums", server=servers.enums()))
        before = widget_ids()
        form("enums.choose", runtime=rt)
        states = new_widget_state(before)
    options = sum(len(s.get("_options_labels", ())) for s in states)
    chars = state_chars(states)
    return Result(
        options <= 10 * Limits().choices and chars < 2_000_000,
        f"{options:,} options sent of 200,000; widget state {chars:,} chars",
        chars,
    )


@attack("wide-form", "memory", "a form for 5,000 arguments, flat and nested in an object")
def wide_form(full: bool) -> Result:
    from anvia_nb.widgets import form

    with runtime() as rt:
        rt.connect(mcp.memory(name="wide", server=servers.wide(5_000 if full else 2_000)))
        before = widget_ids()
        form("wide.fill", runtime=rt)
        form("wide.nested", runtime=rt)
        states = new_widget_state(before)
    chars = state_chars(states)
    return Result(
        len(states) < 200 and chars < 200_000, f"{len(states):,} widgets, widget state {chars:,} chars", chars
    )


@attack("history-of-big-results", "memory", "20 MB results kept by the history (10 full, 2 quick)", full_only=True)
def history(full: bool) -> Result:
    import gc
    import weakref

    with runtime() as rt:
        rt.connect(
            mcp.stdio(name="demo", command=sys.executable, args=["-m", "anvia_nb.demo_server"]),
            timeout_seconds=BOUND_SECONDS,
        )
        refs = []
        for _ in range(10 if full else 2):
            outcome = rt.call("demo", "large", {"size_chars": 20_000_000 if full else 2_000_000})
            refs.append(weakref.ref(outcome))
            del outcome
        gc.collect()
        freed = all(ref() is None for ref in refs)
        kept = [o.seen for o in rt.calls()]  # a history entry keeps a result only when it is small
    return Result(freed and kept == [{}] * len(refs), f"{len(refs)} results dropped, history keeps metadata")


# -- secrets and hidden text ------------------------------------------------------------------


@attack("sdk-noise", "secrets", "invalid notifications quoting key=sk-live-… (20,000 full, 2,000 quick)")
def sdk_noise(full: bool) -> Result:
    count, secret = (20_000 if full else 2_000), "sk-live-secret42"

    async def run() -> Any:
        connection = mcp.stdio(
            name="noisy", command=sys.executable, args=[ROGUE, "noise", str(count)], env={"API_KEY": secret}
        )
        server = await connect_mcp(connection, timeout_seconds=BOUND_SECONDS)
        try:
            outcome = await server.tool("attack").call_outcome({}, timeout_seconds=BOUND_SECONDS)
            wait_for(lambda: server.client.log.sdk_records >= count)
            return outcome, server.client.log.sdk_records
        finally:
            await server.close()

    with captured_fds() as printed:
        outcome, records = sync(run)
    text = printed[0]
    return Result(
        outcome.status == "ok" and secret not in text and "Traceback" not in text,
        f"{records:,} records to the connection's log; printed: {len(text)} chars, {text.count(secret)} secrets",
        len(text),
    )


def _hidden(error: BaseException | None, secret: str) -> Result:
    line = HIDDEN.error_line(error) if error is not None else ""
    return Result(
        error is not None and secret not in line and HIDDEN.hides(error),
        f"{type(error).__name__} shown as: {line[:60]}",
        len(line),
    )


def _connect_error(connection: Any) -> BaseException | None:
    async def run() -> BaseException | None:
        try:
            server = await connect_mcp(connection, timeout_seconds=BOUND_SECONDS)
        except AnviaError as exc:
            return exc
        await server.close()
        return None

    return sync(run)


@attack("connect-error-hidden", "secrets", "initialize refused with 'db password=hunter2 at 10.0.0.5'", full_only=True)
def connect_refused(full: bool) -> Result:
    connection = mcp.stdio(name="refuses", command=sys.executable, args=[FAILING_INIT])
    return _hidden(_connect_error(connection), "hunter2")


@attack("protocol-version-hidden", "secrets", "initialize answered with a password as protocolVersion", overlaps=True)
def odd_version(full: bool) -> Result:
    raw = servers.RawHttp(servers.initialize_with_version("db password=hunter2 at 10.0.0.5"))
    try:
        return _hidden(_connect_error(mcp.http(name="odd", url=raw.url)), "hunter2")
    finally:
        raw.stop()


@attack("not-http-hidden", "secrets", "status line replaced by 'db password=hunter2'", overlaps=True)
def not_http(full: bool) -> Result:
    raw = servers.RawHttp(servers.not_http("db password=hunter2 at 10.0.0.5"))
    try:
        return _hidden(_connect_error(mcp.http(name="odd", url=raw.url)), "hunter2")
    finally:
        raw.stop()


@attack("short-values-not-masked", "secrets", "X-Api-Version: 2 and AUTH_ENABLED=1 as 'secrets'", overlaps=True)
def short_values(full: bool) -> Result:
    connection = mcp.stdio(name="calc", command="python", env={"AUTH_ENABLED": "1", "API_TOKEN": "tok-4567890"})
    http = mcp.http(name="h", url="https://h.example/mcp", headers={"X-Api-Version": "2", "X-Api-Key": "2"})
    text = "add 20 + 2 = 22 on 2021-01-01, v1.2"
    shown = {ShowPolicy().with_secrets(c.secrets()).mask(text) for c in (connection, http)}
    note = unmasked_note(connection) or ""
    return Result(shown == {text} and "AUTH_ENABLED" in note, "numbers, dates, versions shown; connect note says so")


@attack(
    "secrets-in-settings",
    "secrets",
    "URL user token, sig=/code=, DATABASE_URL, DSN, --api-key, quoted header",
    overlaps=True,
)
def settings(full: bool) -> Result:
    token, quoted = "ghp_Abc123Def456Ghi789", "ab\"c\\def'-123456"
    connections: list[HttpConnection | StdioConnection] = [
        mcp.http(name="gh", url=f"https://{token}@h.example/mcp?sig=9f86d081884c&code=Zm9vYmFyYmF6"),
        mcp.http(name="q", url="https://h.example/mcp", headers={"Authorization": f"Bearer {quoted}"}),
        mcp.stdio(
            name="db",
            command="npx",
            args=["server", "--api-key", "sk-live-123456"],
            env={
                "DATABASE_URL": "postgres://app:s3cr3t-pw@db:5432/app",
                "SENTRY_DSN": "https://e3b0c44298fc1c14@o1.ingest.sentry.io/6",
            },
        ),
    ]
    shown = " ".join(f"{c!r} {c.target()}" for c in connections)
    found = [
        s
        for s in (token, "9f86d081884c", "Zm9vYmFyYmF6", "s3cr3t-pw", "e3b0c44298fc1c14", "sk-live-123456")
        if leaked(shown, s)
    ] + ([quoted] if leaked(shown, quoted) else [])
    return Result(not found, f"repr and targets of 3 connections: {len(found)} secrets shown", len(shown))


@attack("secret-echoed-in-result", "secrets", "result echoes the secret: whole, split, in a resource, as default")
def echoed(full: bool) -> Result:
    from anvia_nb.widgets.fields.arguments_form import ArgumentsForm

    async def run() -> Any:
        server = await connect_mcp(mcp.memory(name="echo", server=servers.secret_echo()))
        try:
            return await server.tool("echo").call_outcome({}), server.tool("prefill").info.input_schema
        finally:
            await server.close()

    outcome, schema = sync(run)
    bundle = bundle_from_outcome(dataclasses.replace(outcome, secrets=(servers.SECRET,)))
    text = json.dumps(bundle, ensure_ascii=False) + json.dumps(bundle)
    before = widget_ids()
    ArgumentsForm(schema=schema, secrets=(servers.SECRET,))
    states = json.dumps(new_widget_state(before), default=str)
    half = len(servers.SECRET) // 2
    pieces = leaked(text) + leaked(states) + text.count(servers.SECRET[half:])
    return Result(pieces == 0, f"{pieces} copies or halves of the secret shown", len(text))
