"""Secrets in what leaves the kernel: well-known token formats under any name, OAuth tokens
(refreshed ones too) echoed by a real server, searched for in the trace (``TraceFrame.message`` /
``.json``), the log, a recording and a generated test file; a recording stores a marker and
still replays."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx2
import pytest

from anvia_nb import mcp
from anvia_nb.core.api.secrets import TOKEN_FORMATS, environ_parts
from anvia_nb.core.exchange.trace import ProtocolTrace
from anvia_nb.core.transport.oauth.tokens import token_path
from anvia_nb.magic.output.exchange import TraceFrame, log_frame, trace_frame
from anvia_nb.policy import MASK
from anvia_nb.runtime import Runtime
from anvia_nb.runtime.to_pytest import pytest_module
from tests.helpers.oauth_server import OAuthTestServer
from tests.helpers.support import DEMO_ARGS
from tests.helpers.waiting import wait_until

FORMATS = {
    "GITHUB_CLASSIC": "ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2,
    "GITHUB_OAUTH": "gho_" + "Z9y8X7w6V5u4T3s2R1q0" * 2,
    "GITHUB_PAT": "github_pat_11ABCDEFG0_" + "abcdefghij" * 4,
    "OPENAI": "sk-" + "Q1w2E3r4T5y6U7i8O9p0" * 2,
    "OPENAI_PROJECT": "sk-proj-" + "Aa1Bb2Cc3Dd4Ee5Ff6Gg",
    "ANTHROPIC": "sk-ant-api03-" + "Hh7Ii8Jj9Kk0Ll1Mm2Nn",
    "SLACK_BOT": "xoxb-1234567890-0987654321-AbCdEfGhIjKl",
    "SLACK_USER": "xoxp-1234567890-0987654321-AbCdEfGhIjKl",
    "AWS_ID": "AKIAIOSFODNN7EXAMPLE",
    "AWS_TEMPORARY": "ASIAIOSFODNN7EXAMPLE",
    "GOOGLE": "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "GITLAB": "glpat-" + "Xx1Yy2Zz3Ww4Vv5Uu6Tt",
    "JWT": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_a_well_known_token_under_a_plain_name_is_a_secret_everywhere(name: str) -> None:
    token = FORMATS[name]
    stdio = mcp.stdio(name="s", command="srv", args=["--id", token], env={name: token})
    http = mcp.http(name="h", url="http://127.0.0.1:9/mcp", headers={"X-Team": token})
    for connection in (stdio, http):
        assert token in connection.secrets()
        assert token not in repr(connection) and token not in connection.target() and MASK in repr(connection)


def test_text_that_only_looks_alike_is_not_a_token() -> None:
    for text in ("task-abcdefghijklmnopqrstuv", "sk-short", "AKIA123", "my_ghp_", "risk-" + "a" * 20):
        assert TOKEN_FORMATS.search(text) is None, text


def test_a_value_is_cut_into_literal_text_and_variable_names() -> None:
    names = {"abcdef123": "TOKEN", "abcdef": "SHORTER"}
    assert environ_parts("Bearer abcdef123!", names) == (("Bearer ", False), ("TOKEN", True), ("!", False))
    assert environ_parts("plain", names) == (("plain", False),)


def test_a_secret_found_later_is_masked_in_what_the_trace_already_keeps() -> None:
    trace = ProtocolTrace("s")
    token = "at-late-7f6e5d4c3b2a"
    trace.record("received", {"jsonrpc": "2.0", "id": 1, "result": {"echo": f"I saw {token}"}})
    trace.record("sent", {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": token}})
    trace.add_secrets([token])
    for entry in trace.entries():
        assert token not in entry.json and token not in (entry.target or "") and token not in entry.summary
    frame = trace_frame(trace.entries(), trace)
    assert isinstance(frame, TraceFrame)
    assert all(token not in frame.json(n) and MASK in frame.json(n) for n in frame.index)


class Person:
    """Follows the authorization link and gives back the URL the browser was redirected to."""

    def __call__(self, authorization_url: str) -> str:
        answer = httpx2.get(authorization_url, follow_redirects=False)
        return str(httpx2.URL(answer.headers["location"]))


def _cached(server: OAuthTestServer, directory: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(token_path(server.url, None, directory).read_text())
    return data


def _token(server: OAuthTestServer, directory: Path) -> str:
    tokens = _cached(server, directory)["tokens"]
    assert isinstance(tokens, dict)
    return str(tokens["access_token"])


def test_oauth_tokens_and_a_token_refreshed_mid_session_never_reach_the_trace_log_recording_or_test_file(
    runtime: Runtime, oauth_server: OAuthTestServer, token_dir: Path, tmp_path: Path
) -> None:
    oauth_server.expires_in = 2  # the first token is refreshed one second after it is issued
    recording = tmp_path / "oauth.jsonl"
    connection = mcp.http(name="s", url=oauth_server.url, auth=mcp.oauth(on_authorize=Person()), record=recording)
    runtime.connect(connection)
    first = _token(oauth_server, token_dir)
    expires_at = float(_cached(oauth_server, token_dir)["expires_at"])  # type: ignore[arg-type]
    oauth_server.expires_in = 3600
    wait_until(lambda: time.time() > expires_at - 1 + 0.05, what="the first token to be due for a refresh")
    runtime.call("s", "echo", {"message": f"old {first}"})  # this request carries the refreshed token
    second = _token(oauth_server, token_dir)
    assert second != first and oauth_server.refreshes >= 1
    runtime.call("s", "echo", {"message": f"new {second}"})
    tokens = (first, second)

    server = runtime.server("s")
    assert set(tokens) <= set(server.secrets)
    trace = server.client.trace
    frame = trace_frame(trace.entries(), trace)
    assert isinstance(frame, TraceFrame)
    shown = [frame.to_string()]
    shown += [frame.json(n) for n in frame.index]
    shown += [json.dumps(frame.message(n), ensure_ascii=False) for n in frame.index]
    shown.append(log_frame(server.client.log, 1000).to_string())
    shown.append(repr(connection))
    source = pytest_module(runtime.calls(), {"s": connection}, secrets={"s": server.secrets})
    shown.append(source)
    assert "auth=mcp.oauth(" in source and "no token is written here" in source
    assert "assert masked(runtime, outcome.output) == 'new ••••••'" in source
    runtime.close("s")
    shown.append(recording.read_text(encoding="utf-8"))
    assert [index for index, text in enumerate(shown) if any(token in text for token in tokens)] == []
    assert any(MASK in entry.json for entry in trace.entries())  # the echoes were there, masked


def test_a_recording_stores_a_marker_for_secrets_and_still_replays(
    runtime: Runtime, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    secret = "recorded-secret-3e4f5a6b7c8d"
    monkeypatch.setenv("ANVIA_T_RECORDED", secret)
    recording = tmp_path / "demo.jsonl"
    live = mcp.stdio(
        name="live",
        command=sys.executable,
        args=["-X", f"note={secret}", *DEMO_ARGS],
        env={"NOTE": secret},
        from_environ={"ANVIA_T_RECORDED": secret},
        record=recording,
    )
    runtime.connect(live)
    said = runtime.call("live", "echo", {"message": f"with {secret} inside"}).output
    assert isinstance(said, str)
    runtime.call("live", "env_value", {"name": "NOTE"})
    runtime.close("live")
    text = recording.read_text(encoding="utf-8")
    assert secret not in text and MASK in text
    runtime.connect(mcp.replay(name="again", path=recording))
    assert runtime.call("again", "echo", {"message": f"with {secret} inside"}).output == said.replace(secret, MASK)
    assert runtime.call("again", "env_value", {"name": "NOTE"}).output == MASK
