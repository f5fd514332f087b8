"""``%mcp connect NAME --oauth-client-credentials ...`` in a real IPython shell against the local
authorization server (tests/helpers/oauth_server.py): no person, no link; the secret (or the PEM
key) named, never typed, and masked in what is shown; tokens cached per grant at 0600 and
forgotten by ``%mcp logout``; the same from a config file."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.core.transport.oauth.tokens import token_path
from tests.helpers.magic import run
from tests.helpers.oauth_server import OAuthTestServer

SECRET = "machine-secret-61a9c03e"
VARIABLE = "ANVIA_TEST_MACHINE_SECRET"


@pytest.fixture
def service(oauth_server: OAuthTestServer, monkeypatch: pytest.MonkeyPatch) -> OAuthTestServer:
    oauth_server.secrets["svc"] = SECRET
    monkeypatch.setenv(VARIABLE, SECRET)
    return oauth_server


def test_a_service_account_connects_with_its_secret_from_the_environment_and_it_is_masked(
    ip: InteractiveShell, service: OAuthTestServer, token_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = f"connect svc --oauth-client-credentials --client-id svc --secret-env {VARIABLE} --http {service.url}"
    assert run(ip, line) is None
    assert "svc: http" in capsys.readouterr().out
    assert service.issued and service.issued[0][0] == "svc" and service.authorizations == 0
    view = run(ip, f"call svc.echo message='{SECRET}'")
    assert view.output == SECRET  # the value itself stays in Python...
    shown = json.dumps(view._repr_mimebundle_(), ensure_ascii=False)
    assert SECRET not in shown and "••••" in shown  # ...and is masked wherever it is shown
    token = service.issued[-1][1]
    assert token not in repr(ip.user_ns.get("_")) and token not in shown
    path = token_path(service.url, "svc", token_dir, "client_credentials")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and not token_path(service.url, "svc", token_dir).exists()
    run(ip, "logout svc")
    assert "Forgot the OAuth tokens of svc" in capsys.readouterr().out and not path.exists()
    run(ip, "close svc")


def test_client_secret_post_and_a_private_key_from_a_file(
    ip: InteractiveShell, service: OAuthTestServer, token_dir: Path, tmp_path: Path
) -> None:
    run(
        ip,
        f"connect post --oauth-client-credentials --client-id svc --secret-env {VARIABLE} "
        f"--auth-method client_secret_post --http {service.url}",
    )
    assert run(ip, "call post.add a=2 b=3").output == "5"
    key = ec.generate_private_key(ec.SECP256R1())
    pem = tmp_path / "svc.pem"
    pem.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    service.keys["svc-key"] = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    run(
        ip,
        f"connect signed --oauth-client-credentials --client-id svc-key --key-file {pem} --key-alg ES256 "
        f"--http {service.url}",
    )
    assert run(ip, "call signed.add a=2 b=3").output == "5"
    assert [client for client, _ in service.issued] == ["svc", "svc-key"] and not service.refusals
    run(ip, "close post")
    run(ip, "close signed")


def test_a_secret_typed_in_the_cell_is_refused_and_a_missing_one_is_named(
    ip: InteractiveShell, service: OAuthTestServer, token_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = service.url
    for line in (
        f"connect x --oauth-client-credentials --client-id svc --client-secret {SECRET} --http {url}",
        f"connect x --oauth-client-credentials --client-id svc --secret-env {VARIABLE}={SECRET} --http {url}",
    ):
        with pytest.raises(UsageError, match="would stay in the notebook: export it .* --secret-env NAME") as refused:
            run(ip, line)
        assert SECRET not in str(refused.value) and "\n" not in str(refused.value)
    with pytest.raises(UsageError, match="Say where the client secret is: --secret-env NAME"):
        run(ip, f"connect x --oauth-client-credentials --client-id svc --http {url}")
    monkeypatch.delenv(VARIABLE)
    with pytest.raises(UsageError, match=f"from the environment variable {VARIABLE}, which is not set"):
        run(ip, f"connect x --oauth-client-credentials --client-id svc --secret-env {VARIABLE} --http {url}")
    with pytest.raises(UsageError, match="is for one --http connection"):
        run(ip, f"connect x --oauth-client-credentials --client-id svc --secret-env {VARIABLE} --stdio python")


def test_a_config_file_names_the_grant_and_where_its_secret_is(
    ip: InteractiveShell, service: OAuthTestServer, token_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    oauth = {"grant": "client_credentials", "client_id": "svc", "client_secret_env": VARIABLE}
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"cfg": {"url": service.url, "oauth": oauth}}}))
    run(ip, f"connect --config {config}")
    assert "cfg: http" in capsys.readouterr().out
    assert run(ip, "call cfg.add a=2 b=3").output == "5"
    run(ip, "close cfg")
    typed = {**oauth, "client_secret": SECRET}
    config.write_text(json.dumps({"mcpServers": {"bad": {"url": service.url, "oauth": typed}}}))
    with pytest.raises(UsageError, match="A secret typed in the notebook") as refused:
        run(ip, f"connect --config {config}")
    assert SECRET not in str(refused.value)


def test_enterprise_managed_authorization_from_the_magic(
    ip: InteractiveShell, service: OAuthTestServer, token_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.id_tokens.add("id-token-of-grace-8c21d0")
    monkeypatch.setenv("ANVIA_TEST_ID_TOKEN", "id-token-of-grace-8c21d0")
    common = f"--oauth-identity-assertion --client-id svc --secret-env {VARIABLE} --id-token-env ANVIA_TEST_ID_TOKEN"
    with pytest.raises(UsageError, match="--oauth-identity-assertion takes no --key-env"):
        run(ip, f"connect ema {common} --key-env K --http {service.url}")
    with pytest.raises(UsageError, match="needs --issuer URL"):
        run(ip, f"connect ema {common} --http {service.url}")
    with pytest.raises(UsageError, match="give --idp-token-endpoint"):
        run(ip, f"connect ema {common} --issuer {service.base} --http {service.url}")
    run(
        ip,
        f"connect ema {common} --issuer {service.base} --idp-token-endpoint {service.base}/idp/token "
        f"--idp-client-id notebook --http {service.url}",
    )
    view = run(ip, "call ema.echo message='id-token-of-grace-8c21d0'")
    assert "id-token-of-grace-8c21d0" not in json.dumps(view._repr_mimebundle_(), ensure_ascii=False)
    assert service.exchanges == 1
    run(ip, "close ema")


def test_a_workload_identity_from_the_magic_and_from_a_config_file(
    ip: InteractiveShell,
    oauth_server: OAuthTestServer,
    token_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    workload = "k8s-projected-token-51c7e0a2"
    oauth_server.workloads[workload] = "nightly"
    token_file = tmp_path / "token"
    token_file.write_text(workload)
    flags = "--oauth-workload-identity --client-id nightly"
    with pytest.raises(UsageError, match="would stay in the notebook"):
        run(ip, f"connect wl {flags} --token {workload} --http {oauth_server.url}")
    with pytest.raises(UsageError, match="--oauth-workload-identity takes no --secret-env"):
        run(ip, f"connect wl {flags} --secret-env S --token-file {token_file} --http {oauth_server.url}")
    run(ip, f"connect wl {flags} --token-file {token_file} --http {oauth_server.url}")
    assert "wl: http" in capsys.readouterr().out
    view = run(ip, f"call wl.echo message='{workload}'")
    assert workload not in json.dumps(view._repr_mimebundle_(), ensure_ascii=False)
    run(ip, "close wl")
    cached = token_path(oauth_server.url, "nightly", token_dir, "workload-identity")
    assert cached.exists()
    run(ip, "logout wl")
    assert "Forgot the OAuth tokens of wl" in capsys.readouterr().out and not cached.exists()

    oauth = {"grant": "workload_identity", "client_id": "nightly", "token_file": str(token_file)}
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"cfg": {"url": oauth_server.url, "oauth": oauth}}}))
    run(ip, f"connect --config {config}")
    assert run(ip, "call cfg.add a=2 b=3").output == "5"
    # logged out: the config's connection asks for a token of its own
    assert oauth_server.workload_grants == [workload, workload] and oauth_server.authorizations == 0
    run(ip, "close cfg")
