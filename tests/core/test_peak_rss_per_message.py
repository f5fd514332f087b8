"""What one large message costs the process, as the system counts it: each case runs in a fresh
process (``benchmarks/peak_rss.py CASE SIZE``, run by path) that measures its own peak resident size
(``VmHWM``, reset before the message) while it takes one message, and the peak's growth is at most
three times the message's text: a result and a log message over stdio, streamable HTTP and SSE, a
result through ``%mcp call`` (rendered), a view's request for an answer too large to send it (twice).
A recording line of a million progress steps (more than anvia_nb records) is refused within three
times its bytes, where parsing it alone (measured beside it) costs more. Sizes are a tenth of the benchmark's (20 MB of
text): the ratios hold."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.helpers.support import REPO

SCRIPT = str(REPO / "benchmarks" / "peak_rss.py")
CHARS = 10_000_000
"""Characters of a result or log message: 20 MB of text (it has CJK in it: two bytes each)."""
STEPS = 1_000_000
"""Progress steps of the recording's call line: 22 MB of JSON."""

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the peak is reset through /proc")


def peak_of(case: str, size: int) -> dict[str, int]:
    done = subprocess.run([sys.executable, SCRIPT, case, str(size)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.parametrize(
    "case", ["stdio-result", "stdio-log", "http-result", "http-log", "sse-result", "magic-call", "view"]
)
def test_one_large_message_peaks_below_three_times_its_text(case: str) -> None:
    found = peak_of(case, CHARS)
    assert found["text"] >= 2 * CHARS
    ratio = found["peak"] / found["text"]
    assert ratio <= 3, f"{case}: the peak grew by {ratio:.2f} × the message"


def test_our_parse_is_below_three_times_the_text_where_the_sdks_is_above() -> None:
    ours, sdk = peak_of("json-parse", CHARS), peak_of("sdk-parse", CHARS)
    assert ours["peak"] / ours["text"] <= 3 < sdk["peak"] / sdk["text"]


def test_a_recording_line_of_a_million_progress_steps_is_refused_within_three_times_its_bytes() -> None:
    floor, read = peak_of("recording-parse", STEPS), peak_of("recording", STEPS)
    assert read["wire"] == floor["wire"] > 20_000_000
    ratio = read["peak"] / read["wire"]
    assert ratio <= 3 < floor["peak"] / floor["wire"], f"refused at {ratio:.2f} × its bytes, parsed at {floor}"
