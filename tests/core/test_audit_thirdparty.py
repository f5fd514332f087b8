"""Few false alarms on servers nobody here wrote (issue 38): the third-party servers the suite
installs (scripts/setup-test: mcp-server-time and mcp-server-git from PyPI; server-everything,
server-filesystem and three MCP Apps examples from npm), connected over stdio, listed and audited
together as a person connecting them all at once would: nothing at medium or above."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.audit import server_definitions
from anvia_nb.core.audit.checks import audit_definitions
from anvia_nb.core.audit.definitions import Definition
from tests.helpers.support import npm_servers, require_setup, servers_venv

pytestmark = [pytest.mark.thirdparty]


def _commands(folder: Path) -> dict[str, list[str]]:
    venv, npm = servers_venv(), npm_servers()
    require_setup(venv / "anvia-ready", "mcp-server-time and mcp-server-git")
    require_setup(npm / "anvia-ready", "the MCP servers from npm")
    bin_ = npm / "node_modules" / ".bin"
    return {
        "time": [str(venv / "bin" / "mcp-server-time"), "--local-timezone", "UTC"],
        "git": [str(venv / "bin" / "mcp-server-git"), "--repository", str(folder)],
        "everything": [str(bin_ / "mcp-server-everything")],
        "fs": [str(bin_ / "mcp-server-filesystem"), str(folder)],
        "vanilla": [str(bin_ / "mcp-server-basic-vanillajs"), "--stdio"],
        "monitor": [str(bin_ / "mcp-system-monitor-server"), "--stdio"],
        "budget": [str(bin_ / "mcp-budget-allocator-server"), "--stdio"],
    }


async def _definitions(commands: dict[str, list[str]]) -> list[Definition]:
    found: list[Definition] = []
    for name, (command, *args) in commands.items():
        server = await connect_mcp(mcp.stdio(name=name, command=command, args=args))
        try:
            found += await server_definitions(server)
        finally:
            await server.close()
    return found


@pytest.fixture(scope="module")
def definitions(tmp_path_factory: pytest.TempPathFactory) -> list[Definition]:
    folder = tmp_path_factory.mktemp("repository")
    subprocess.run(["git", "init", "-q", str(folder)], check=True)  # mcp-server-git wants a repository
    return asyncio.run(_definitions(_commands(folder)))


def test_every_server_was_listed(definitions: list[Definition]) -> None:
    servers = {d.server for d in definitions}
    assert servers == {"time", "git", "everything", "fs", "vanilla", "monitor", "budget"}
    assert sum(d.kind == "tool" for d in definitions) > 40


def test_third_party_servers_get_nothing_at_medium_or_above(definitions: list[Definition]) -> None:
    findings = audit_definitions(definitions)
    serious = [
        (f.server, f.item, f.check, f.severity, f.evidence) for f in findings if f.severity in ("high", "medium")
    ]
    assert serious == []
