"""The OAuth token cache folder and files against another user on the machine: a folder others may
write in (made 0777 beforehand) is refused in one line and nothing is written or read there; a link
planted at a token file's name, or at the temporary name the old code used, receives nothing."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from pathlib import Path

import pytest

from anvia_nb import connect_mcp, mcp
from anvia_nb.core.transport.oauth.tokens import TokenFile, folder_problem, token_path
from anvia_nb.errors import AuthorizationError
from tests.helpers.oauth_server import OAuthTestServer

SECRET = "folder-test-secret-5d2e"
VARIABLE = "ANVIA_TEST_FOLDER_SECRET"


@pytest.fixture
def service(oauth_server: OAuthTestServer, monkeypatch: pytest.MonkeyPatch) -> OAuthTestServer:
    oauth_server.secrets["svc"] = SECRET
    monkeypatch.setenv(VARIABLE, SECRET)
    return oauth_server


def _connect(service: OAuthTestServer, folder: Path) -> None:
    async def connect() -> None:
        auth = mcp.client_credentials(client_id="svc", client_secret_env=VARIABLE, token_dir=str(folder))
        server = await connect_mcp(mcp.http(name="svc", url=service.url, auth=auth))
        await server.close()

    asyncio.run(connect())


def test_a_folder_others_may_write_in_is_refused_in_one_line_and_holds_no_token(
    service: OAuthTestServer, tmp_path: Path
) -> None:
    folder = tmp_path / "loose"
    folder.mkdir()
    folder.chmod(0o777)
    with pytest.raises(AuthorizationError) as raised:
        _connect(service, folder)
    said = str(raised.value)
    assert "\n" not in said and "is open to other users (mode 0777)" in said and f"chmod 700 {folder}" in said
    assert list(folder.iterdir()) == [] and stat.S_IMODE(folder.stat().st_mode) == 0o777  # refused, not changed
    folder.chmod(0o700)  # what the line says to do
    _connect(service, folder)
    (written,) = folder.iterdir()
    assert stat.S_IMODE(written.stat().st_mode) == 0o600 and service.issued


def test_tokens_planted_in_a_loose_folder_are_not_read(service: OAuthTestServer, tmp_path: Path) -> None:
    folder = tmp_path / "loose"
    folder.mkdir(mode=0o700)
    _connect(service, folder)
    path = token_path(service.url, "svc", folder, "client_credentials")
    assert TokenFile(path).secrets()
    folder.chmod(0o733)  # anyone may now put a file of their tokens here
    assert TokenFile(path).secrets() == () and "mode 0733" in folder_problem(folder)


def test_a_link_planted_at_a_token_files_name_receives_nothing(service: OAuthTestServer, tmp_path: Path) -> None:
    folder, elsewhere = tmp_path / "tokens", tmp_path / "attacker"
    folder.mkdir(mode=0o700)
    elsewhere.mkdir()
    path = token_path(service.url, "svc", folder, "client_credentials")
    bait = elsewhere / "bait.json"
    bait.write_text("{}")
    path.symlink_to(bait)  # at the name itself: read through it never, replaced by the write
    old_temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # where the old code wrote first
    old_temporary.symlink_to(elsewhere / "received.json")
    assert TokenFile(path).secrets() == ()
    _connect(service, folder)
    assert bait.read_text() == "{}" and not (elsewhere / "received.json").exists()
    assert not path.is_symlink() and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text())["tokens"]["access_token"] == service.issued[-1][1]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_a_folder_or_file_of_another_user_is_neither_used_nor_read(service: OAuthTestServer, tmp_path: Path) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir(mode=0o700)
    _connect(service, folder)
    path = token_path(service.url, "svc", folder, "client_credentials")
    os.chown(path, 65534, 65534)  # a file of theirs at the name: not read
    assert TokenFile(path).secrets() == ()
    os.chown(folder, 65534, 65534)
    with pytest.raises(AuthorizationError, match="belongs to another user: set ANVIA_NB_OAUTH_DIR"):
        _connect(service, folder)
