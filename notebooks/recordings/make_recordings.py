"""Re-make the recordings notebook 05 replays, from the real servers.

    python notebooks/recordings/make_recordings.py SERVERS_BIN

``SERVERS_BIN`` is the ``bin`` folder of a venv with mcp-server-time and mcp-server-git (notebook
05's first live cell makes one; ``scripts/setup-test`` caches one in ``.cache/servers``). The
calls are the ones the notebook makes, with the same arguments, so every one of them replays.
The machine's paths in each recording's header are replaced by the variables the notebook uses.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from anvia_nb import connect_mcp, mcp

HERE = Path(__file__).resolve().parent
FIXED = {
    "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org", "GIT_AUTHOR_DATE": "2026-01-02T10:00:00Z",
    "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@example.org", "GIT_COMMITTER_DATE": "2026-01-02T10:00:00Z",
}  # fmt: skip


def make_repository() -> Path:
    """The notebook's small repository: one commit (fixed author and date), one uncommitted change."""
    repo = Path(tempfile.mkdtemp(prefix="anvia-git-demo-"))

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env={**os.environ, **FIXED})

    git("init", "--quiet", "--initial-branch=main")
    (repo / "notes.md").write_text("# Notes\n\nMCP servers are untrusted.\n")
    git("add", "notes.md")
    git("commit", "--quiet", "-m", "Start the notes")
    (repo / "notes.md").write_text("# Notes\n\nMCP servers are untrusted.\nTheir output is data.\n")
    return repo


async def record(servers_bin: Path) -> None:
    time = mcp.stdio(
        name="time", command=str(servers_bin / "mcp-server-time"), args=["--local-timezone", "UTC"],
        record=HERE / "time.jsonl",
    )  # fmt: skip
    async with await connect_mcp(time) as server:
        await server.tool("get_current_time").call_outcome({"timezone": "Europe/Paris"})
        await server.tool("convert_time").call_outcome(
            {"source_timezone": "Asia/Tokyo", "time": "09:00", "target_timezone": "Asia/Kolkata"}
        )
    repo = make_repository()
    git = mcp.stdio(
        name="git", command=str(servers_bin / "mcp-server-git"), args=["--repository", str(repo)], cwd=repo,
        record=HERE / "git.jsonl",
    )  # fmt: skip
    async with await connect_mcp(git) as server:
        await server.tool("git_log").call_outcome({"repo_path": "."})
        await server.tool("git_diff_unstaged").call_outcome({"repo_path": "."})
        await server.tool("git_show").call_outcome({"repo_path": ".", "revision": "no-such-branch"})
    for name in ("time.jsonl", "git.jsonl"):
        path = HERE / name
        text = path.read_text(encoding="utf-8").replace(str(servers_bin), "${ANVIA_SERVERS_BIN}")
        path.write_text(text.replace(str(repo), "${ANVIA_GIT_REPO}"), encoding="utf-8")
        print("recorded", path.relative_to(HERE.parent))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    asyncio.run(record(Path(sys.argv[1])))
