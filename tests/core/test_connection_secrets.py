"""Which values of a connection are secrets: the ones that hid from masking, and the ones that are not.

No server is needed: discovery reads the connection's own settings, and what a person sees of
them is its target, its repr and the policy's mask.
"""

from __future__ import annotations

from anvia_nb.core.api.factories import mcp
from anvia_nb.core.api.secrets import unmasked_note
from anvia_nb.policy import MASK, ShowPolicy

GITHUB_TOKEN = "ghp_Abc123Def456Ghi789"


def shown(connection: object, text: str) -> str:
    return ShowPolicy().with_secrets(connection.secrets()).mask(text)  # type: ignore[attr-defined]


def test_a_token_as_a_url_user_name_is_masked() -> None:
    connection = mcp.http(name="gh", url=f"https://{GITHUB_TOKEN}@mcp.example.com/mcp")
    assert GITHUB_TOKEN not in connection.target()
    assert connection.target() == f"https://{MASK}@mcp.example.com/mcp"


def test_query_values_are_secrets_whatever_their_names() -> None:
    connection = mcp.http(name="s", url="https://h.example/mcp?sig=9f86d081884c&code=Zm9vYmFyYmF6&page=2")
    assert connection.target() == f"https://h.example/mcp?sig={MASK}&code={MASK}&page=2"


def test_urls_in_env_values_give_up_their_passwords_and_dsn_keys() -> None:
    connection = mcp.stdio(
        name="db",
        command="python",
        env={
            "DATABASE_URL": "postgres://app:s3cr3t-pw@db.internal:5432/app",
            "SENTRY_DSN": "https://e3b0c44298fc1c14@o12345.ingest.sentry.io/678",
        },
    )
    text = shown(connection, repr(connection))
    assert "s3cr3t-pw" not in text
    assert "e3b0c44298fc1c14" not in text
    assert "db.internal:5432" in text  # the host is no secret


def test_an_api_key_on_the_command_line_is_masked_in_the_target() -> None:
    connection = mcp.stdio(
        name="cli",
        command="npx",
        args=["server", "--api-key", "sk-live-123456", "--token=tok-abcdef", "API_KEY=key-qwerty", "--port", "8080"],
    )
    assert connection.target() == f"npx server --api-key {MASK} --token={MASK} API_KEY={MASK} --port 8080"


def test_repr_of_a_connection_masks_its_headers_and_env() -> None:
    http = mcp.http(name="h", url="https://h.example/mcp", headers={"Authorization": "Bearer tok-123456789"})
    stdio = mcp.stdio(name="s", command="python", env={"API_TOKEN": "tok-987654321"})
    assert "tok-123456789" not in repr(http)
    assert "tok-987654321" not in repr(stdio)
    assert "Authorization" in repr(http)
    assert repr(http).startswith("HttpConnection(name='h', url='https://h.example/mcp'")


def test_only_credential_headers_are_secrets() -> None:
    connection = mcp.http(
        name="h",
        url="https://h.example/mcp",
        headers={
            "X-Api-Version": "2024-10-01",
            "Accept-Language": "en-GB",
            "X-Api-Key": "key-1234567",
            "Cookie": "session=abcdef123456",
        },
    )
    assert "2024-10-01" not in connection.secrets()
    assert "en-GB" not in connection.secrets()
    assert {"key-1234567", "session=abcdef123456"} <= set(connection.secrets())
    assert shown(connection, "API version 2024-10-01") == "API version 2024-10-01"


def test_values_too_short_to_be_secrets_are_not_masked_and_the_connect_note_says_so() -> None:
    connection = mcp.stdio(name="calc", command="python", env={"AUTH_ENABLED": "1", "API_TOKEN": "tok-4567890"})
    assert shown(connection, "add 20 + 1 = 21 on 2021-01-01") == "add 20 + 1 = 21 on 2021-01-01"
    assert shown(connection, "token tok-4567890") == f"token {MASK}"
    note = unmasked_note(connection)
    assert note is not None
    assert "env AUTH_ENABLED" in note
    assert "API_TOKEN" not in note
    assert "not masked" in note


def test_a_connection_with_only_long_secrets_has_no_note() -> None:
    connection = mcp.http(name="h", url="https://h.example/mcp?page=2", headers={"Authorization": "Bearer tok-1234567"})
    assert unmasked_note(connection) is None
