"""Tab completion of %mcp lines as a notebook asks for it: a real kernel's ``complete_request``.

IPython splits its token at ``=``, so a completer that only returns words was filtered against
``fr`` and lost to Python's names (``frozenset``). These tests read the kernel's reply: the
matches and the ``cursor_start`` a front-end replaces from.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.kernel import Kernel
from tests.helpers.support import SERVERS

pytestmark = pytest.mark.slow  # a real kernel: left out of scripts/test --quick


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kernel]:
    # Jedi's parser (parso) caches parsed files under $XDG_CACHE_HOME, writing each pickle in place.
    # On a fresh machine another process (an xdist worker's shell, a lab kernel) parsing the same
    # file at the same moment leaves this kernel a half-written pickle: Jedi fails ("Ran out of
    # input") and IPython answers no matches at all. A cache of this kernel's own rules that out.
    started = Kernel(environment={"XDG_CACHE_HOME": str(tmp_path_factory.mktemp("kernel-cache"))})
    try:
        cell = started.run("%load_ext anvia_nb\n%mcp connect demo --stdio python -m anvia_nb.demo_server")
        assert not cell.error, cell.error
        yield started
    finally:
        started.stop()


def _replaced(code: str, reply: dict[str, object]) -> str:
    start, end = reply["cursor_start"], reply["cursor_end"]
    assert isinstance(start, int) and isinstance(end, int)
    return code[start:end]


@pytest.mark.parametrize(
    ("code", "expected", "replaced"),
    [
        ("%mcp prompt demo.greet name=x language=fr", ["language=french"], "language=fr"),
        ("%mcp prompt demo.greet name=x language=", ["language=english", "language=french"], "language="),
        ("%mcp read demo note id=", ["id=1", "id=2", "id=3"], "id="),
        ("r = %mcp read demo note id=2", ["id=2"], "id=2"),
        ("%mcp call demo.echo me", ["message="], "me"),
        ("%mcp call demo.ec", ["demo.echo", "demo.echo_arguments"], "demo.ec"),
        ("%mcp prom", ["prompt", "prompts"], "prom"),
        ("%mcp call demo.image kind=jp", ["kind=jpeg"], "kind=jp"),  # the inputSchema's enum
        ("%mcp call demo.echo message=fr", ["message=fr"], "message=fr"),  # nothing to offer: no Python names
    ],
)
def test_a_kernels_complete_request_offers_the_completers_words_from_the_words_start(
    kernel: Kernel, code: str, expected: list[str], replaced: str
) -> None:
    reply = kernel.complete(code)
    assert reply["status"] == "ok"
    matches = reply["matches"]
    assert isinstance(matches, list)
    assert set(expected) <= set(matches), matches
    assert all(isinstance(m, str) and m.startswith(replaced) for m in matches), matches  # no Python names
    assert _replaced(code, reply) == replaced


def test_every_key_value_completion_replaces_the_whole_word(kernel: Kernel) -> None:
    code = "%mcp prompt demo.greet name=x language=fr"
    reply = kernel.complete(code)
    assert reply["matches"] == ["language=french"]
    start, end = reply["cursor_start"], reply["cursor_end"]
    assert isinstance(start, int) and isinstance(end, int)
    completed = code[:start] + "language=french" + code[end:]
    assert completed == "%mcp prompt demo.greet name=x language=french"


def test_python_code_still_completes_as_python(kernel: Kernel) -> None:
    reply = kernel.complete("frozen")
    assert "frozenset" in reply["matches"]


def test_a_value_with_a_space_is_offered_quoted_and_the_completed_line_sends_it(kernel: Kernel) -> None:
    cell = kernel.run(f"%mcp connect units --stdio python {SERVERS / 'units_server.py'}")
    assert not cell.error, cell.error
    for code, replaced in (
        ("%mcp call units.convert value=1 from_unit=squ", "from_unit=squ"),
        ("%mcp call units.convert value=1 from_unit='squ", "from_unit='squ"),  # a quote the person opened
    ):
        reply = kernel.complete(code)
        assert reply["matches"] == ["from_unit='square metre'"] and _replaced(code, reply) == replaced
    sent = kernel.run("_anvia_r = %mcp call units.convert value=1 from_unit='square metre' to_unit='square metre'")
    assert not sent.error, sent.error
    assert kernel.value("_anvia_r.output") == "1.0 square metre"  # the completed words read back as the unit
