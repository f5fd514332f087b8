"""A server's skills (the Skills extension, SEP-2640) from Python, against the demo server: the
extension is asked only of a server that declares it, listing reads no file, a loaded skill and
its files are checked against the listing, and what fails the check is refused in one line (the
conformance suite's own tampering servers: tests/conformance/test_conformance_core.py)."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import AsyncIterator

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core import McpServer
from anvia_nb.core.protocol.skills import file_problem, frontmatter, frontmatter_problem, offers_skills
from anvia_nb.demo_server.skills import SKILLS
from anvia_nb.errors import NotOfferedError, ProtocolError, UnknownResourceError
from tests.helpers.support import DEMO_ARGS, SERVERS

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def demo() -> AsyncIterator[McpServer]:
    async with await connect_mcp(mcp.stdio(name="demo", command=sys.executable, args=DEMO_ARGS)) as server:
        yield server


def _sent(server: McpServer, method: str) -> int:
    return sum(1 for e in server.client.trace.entries() if e.direction == "sent" and e.method == method)


async def test_the_demo_declares_the_extension_and_lists_its_skills_without_reading_a_file(demo: McpServer) -> None:
    assert offers_skills(demo.client.capabilities)
    reads = _sent(demo, "resources/read")
    entries = await demo.skills()
    assert [e["uri"] for e in entries] == ["skill://summarize-notes/SKILL.md", "skill://review-args/SKILL.md"]
    assert entries[0]["frontmatter"]["name"] == "summarize-notes" and len(entries[0]["resources"]) == 2
    assert _sent(demo, "skills/list") >= 1 and _sent(demo, "resources/read") == reads  # listing reads no file
    assert demo.listings["skills"] == entries


async def test_a_loaded_skill_and_its_file_are_what_the_listing_says(demo: McpServer) -> None:
    loaded = await demo.skill("summarize-notes")
    assert loaded.uri == "skill://summarize-notes/SKILL.md" and loaded.text == SKILLS["summarize-notes"]["SKILL.md"]
    style = await demo.skill_file("summarize-notes", "references/STYLE.md")
    assert style.text == SKILLS["summarize-notes"]["references/STYLE.md"]
    assert (await demo.skill("skill://review-args/SKILL.md")).text == SKILLS["review-args"]["SKILL.md"]


async def test_skills_get_gives_the_entry_of_a_skill_by_its_uri(demo: McpServer) -> None:
    listed = {entry["uri"]: entry for entry in await demo.skills()}
    assert await demo.get_skill("skill://review-args/SKILL.md") == listed["skill://review-args/SKILL.md"]
    with pytest.raises(ProtocolError) as unknown:
        await demo.get_skill("skill://nowhere/SKILL.md")
    assert unknown.value.code == -32602  # Invalid params, as the extension says


async def test_a_skill_addressed_by_an_unlisted_uri_is_asked_with_skills_get(demo: McpServer) -> None:
    demo.listings["skills"] = []  # as if the server listed none: the URI still names a skill
    asked = _sent(demo, "skills/get")
    loaded = await demo.skill("skill://review-args/SKILL.md")
    assert loaded.text == SKILLS["review-args"]["SKILL.md"] and _sent(demo, "skills/get") == asked + 1
    del demo.listings["skills"]


async def test_an_unknown_skill_or_file_is_refused_before_anything_is_read(demo: McpServer) -> None:
    reads = _sent(demo, "resources/read")
    with pytest.raises(UnknownResourceError, match="lists no skill 'summarize-note'. Did you mean summarize-notes"):
        await demo.skill("summarize-note")
    with pytest.raises(UnknownResourceError, match="lists no file 'STYLE.md'"):
        await demo.skill_file("summarize-notes", "STYLE.md")
    assert _sent(demo, "resources/read") == reads


async def test_a_server_without_the_extension_is_not_asked() -> None:
    units = mcp.stdio(name="units", command=sys.executable, args=[str(SERVERS / "units_server.py")])
    async with await connect_mcp(units) as server:
        assert await server.skills() == []
        with pytest.raises(NotOfferedError, match="does not declare the Skills extension"):
            await server.get_skill("skill://pdf/SKILL.md")
        assert _sent(server, "skills/list") == _sent(server, "skills/get") == 0


SKILL_MD = "---\nname: pdf\ndescription: 'Fill: forms'\nmetadata:\n  owner: ada\n---\n\nBody.\n"
ENTRY = {
    "uri": "skill://pdf/SKILL.md",
    "frontmatter": {"name": "pdf", "description": "Fill: forms", "metadata": {"owner": "ada"}},
}


def test_a_file_is_checked_by_its_size_then_its_digest() -> None:
    digest = "sha256:" + hashlib.sha256(SKILL_MD.encode()).hexdigest()
    record = {"uri": ENTRY["uri"], "digest": digest, "size": len(SKILL_MD.encode())}
    assert file_problem(record, SKILL_MD) is None
    assert file_problem(record, SKILL_MD + "x") == f"{len(SKILL_MD) + 1} bytes where the listing says {len(SKILL_MD)}"
    assert file_problem({**record, "size": None}, SKILL_MD.replace("Body", "Evil")) == (
        "its sha256 digest is not the one the listing gives"
    )
    assert "no sha256 digest" in str(file_problem({"uri": "x"}, SKILL_MD))


def test_the_frontmatter_is_compared_field_by_field() -> None:
    assert frontmatter(SKILL_MD) == ENTRY["frontmatter"]
    assert frontmatter_problem(ENTRY, SKILL_MD) is None
    changed = SKILL_MD.replace("'Fill: forms'", "Exfiltrate credentials")
    assert frontmatter_problem(ENTRY, changed) == "its frontmatter differs from the listing's in description"
    assert frontmatter_problem(ENTRY, "# no frontmatter\n") == "it has no frontmatter between --- lines"
