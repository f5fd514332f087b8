"""Few false alarms on servers nobody here wrote (issue 38): the third-party servers the suite
installs (scripts/setup-test: mcp-server-time and mcp-server-git from PyPI; server-everything,
server-filesystem, server-memory and six MCP Apps examples from npm), every one of them, connected
over stdio, listed and audited together as a person connecting them all at once would: nothing at
medium or above (the one low: two Apps examples both name a tool ``get-time``); and with the clean
corpus of tests/helpers/clean_servers.py beside them, nothing but the flow their tools make."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.api.audit import server_definitions
from anvia_nb.core.audit.checks import audit_definitions
from anvia_nb.core.audit.definitions import Definition
from tests.helpers.clean_servers import clean_definitions
from tests.helpers.support import cache_dir, npm_servers, require_setup, servers_venv

pytestmark = [pytest.mark.thirdparty]


def _commands(folder: Path, pdf: Path) -> dict[str, list[str]]:
    venv, npm, apps = servers_venv(), npm_servers(), cache_dir() / "npm-apps"
    require_setup(venv / "anvia-ready", "mcp-server-time and mcp-server-git")
    require_setup(npm / "anvia-ready", "the MCP servers from npm")
    require_setup(apps / "anvia-ready", "the MCP Apps examples from npm")
    bin_, apps_bin = npm / "node_modules" / ".bin", apps / "node_modules" / ".bin"
    return {
        "time": [str(venv / "bin" / "mcp-server-time"), "--local-timezone", "UTC"],
        "git": [str(venv / "bin" / "mcp-server-git"), "--repository", str(folder)],
        "everything": [str(bin_ / "mcp-server-everything")],
        "fs": [str(bin_ / "mcp-server-filesystem"), str(folder)],
        "vanilla": [str(bin_ / "mcp-server-basic-vanillajs"), "--stdio"],
        "monitor": [str(bin_ / "mcp-system-monitor-server"), "--stdio"],
        "budget": [str(bin_ / "mcp-budget-allocator-server"), "--stdio"],
        "memory": [str(bin_ / "mcp-server-memory")],
        "vue": [str(apps_bin / "mcp-server-basic-vue"), "--stdio"],
        "three": [str(apps_bin / "mcp-threejs-server"), "--stdio"],
        "pdf": [str(apps_bin / "mcp-pdf-server"), "--stdio", str(pdf)],
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
    pdf = folder / "empty.pdf"  # mcp-pdf-server lists the files it is given; it need not read one to list
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    return asyncio.run(_definitions(_commands(folder, pdf)))


def test_every_server_was_listed(definitions: list[Definition]) -> None:
    servers = {d.server for d in definitions}
    assert servers == {
        "time",
        "git",
        "everything",
        "fs",
        "vanilla",
        "monitor",
        "budget",
        "memory",
        "vue",
        "three",
        "pdf",
    }
    assert sum(d.kind == "tool" for d in definitions) > 50


def test_third_party_servers_get_nothing_at_medium_or_above(definitions: list[Definition]) -> None:
    findings = audit_definitions(definitions)
    serious = [
        (f.server, f.item, f.check, f.severity, f.evidence) for f in findings if f.severity in ("high", "medium")
    ]
    assert serious == []
    assert [(f.server, f.item, f.check) for f in findings] == [
        ("vanilla", "get-time", "confusable-name"),
        ("vue", "get-time", "confusable-name"),
    ]


def test_third_party_servers_beside_the_clean_corpus_get_only_their_flow(definitions: list[Definition]) -> None:
    names = {d.server for d in definitions}
    corpus = [d for d in clean_definitions() if d.server not in names]  # the real time, git, fs ... instead
    findings = audit_definitions([*definitions, *corpus])
    assert [(f.check, f.severity) for f in findings if f.severity in ("high", "medium")] == []
    assert {f.check for f in findings if f.severity not in ("high", "medium")} == {"confusable-name", "capability-flow"}
