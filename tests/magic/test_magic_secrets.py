"""Secrets given to %mcp connect never appear in a line, a DataFrame, a log or a rendered result."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.runtime import get_runtime
from tests.helpers.magic import DEMO_STDIO, run

TOKEN = "tok-3f9a1c77e2b4"
HEADER_TOKEN = "hdr-8d2e4f61a9c0"
MARKED = "marked-value-5521"


def _everything_shown(ip: InteractiveShell) -> str:
    return "\n".join(
        [
            run(ip, "servers").to_string(),
            run(ip, "tools").to_string(),
            run(ip, "history").to_string(),
            str(run(ip, "history")["arguments"].tolist()),
        ]
    )


def test_env_secrets_are_masked_even_when_the_server_echoes_them(
    ip: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    run(
        ip,
        f"connect sec --env API_TOKEN={TOKEN} --env LOG_LEVEL=debug --secret-env PLAIN_NAME={MARKED} {DEMO_STDIO}",
    )
    connect_out = capsys.readouterr().out
    assert connect_out.startswith("sec: stdio")
    echoed = run(ip, "call sec.env_value name=API_TOKEN")
    assert echoed.output == TOKEN  # Python keeps the exact value
    marked = run(ip, "call sec.env_value name=PLAIN_NAME")
    assert marked.output == MARKED
    plain = run(ip, "call sec.env_value name=LOG_LEVEL")
    run(ip, f"call sec.echo message={TOKEN}")
    shown = _everything_shown(ip) + connect_out + str(echoed._repr_mimebundle_()) + str(marked._repr_mimebundle_())
    shown += run(ip, "log sec").to_string() + capsys.readouterr().out
    assert TOKEN not in shown and MARKED not in shown
    assert "••••••" in str(echoed._repr_mimebundle_())
    assert "debug" in str(plain._repr_mimebundle_())  # a log level is not a secret


def test_header_secrets_are_masked_in_lines_frames_results_and_errors(
    ip: InteractiveShell, http_demo_factory: object, capsys: pytest.CaptureFixture[str]
) -> None:
    server = http_demo_factory("--require-header", f"Authorization: Bearer {HEADER_TOKEN}")  # type: ignore[operator]
    with pytest.raises(UsageError) as info:
        run(ip, f'connect web --header "Authorization: Bearer wrong-{HEADER_TOKEN}" --http {server.url}')
    assert HEADER_TOKEN not in str(info.value)
    run(ip, f'connect web --header "Authorization: Bearer {HEADER_TOKEN}" --http {server.url}')
    view = run(ip, f'call web.echo {{"message": "token is {HEADER_TOKEN}"}}')
    assert view.output == f"token is {HEADER_TOKEN}"
    shown = _everything_shown(ip) + str(view._repr_mimebundle_()) + capsys.readouterr().out + repr(view)
    assert HEADER_TOKEN not in shown
    assert "token is ••••••" in run(ip, "history")["arguments"].iloc[-1]


KERNEL_VALUE = "kernel-held-9c41e07d"


@pytest.mark.parametrize("option", ["--secret-env ANVIA_TEST_PLAIN_NAME", "--env ANVIA_TEST_PLAIN_NAME"])
def test_a_named_kernel_variable_reaches_the_server_and_is_masked(
    ip: InteractiveShell, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    monkeypatch.setenv("ANVIA_TEST_PLAIN_NAME", KERNEL_VALUE)  # a name that does not look secret
    run(ip, f"connect kv {option} {DEMO_STDIO}")
    echoed = run(ip, "call kv.env_value name=ANVIA_TEST_PLAIN_NAME")
    assert echoed.output == KERNEL_VALUE  # the server got the kernel's own value
    run(ip, f"call kv.echo message={KERNEL_VALUE}")
    logged = run(ip, "log kv").to_string()
    shown = _everything_shown(ip) + str(echoed._repr_mimebundle_()) + capsys.readouterr().out + repr(echoed) + logged
    assert KERNEL_VALUE not in shown
    assert "••••••" in str(echoed._repr_mimebundle_())


def test_a_named_kernel_variable_that_is_missing_is_one_clear_line(
    ip: InteractiveShell, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANVIA_TEST_ABSENT", raising=False)
    with pytest.raises(UsageError) as info:
        run(ip, f"connect kv --secret-env ANVIA_TEST_ABSENT {DEMO_STDIO}")
    message = str(info.value)
    assert "no environment variable ANVIA_TEST_ABSENT" in message and "\n" not in message
    assert "kv" not in get_runtime().names()
