"""A connection's log is bounded: as many entries as it keeps, each of bounded size."""

from __future__ import annotations

import json

from anvia_nb.core import ServerLog


def test_log_messages_are_kept_bounded_in_number_and_size() -> None:
    log = ServerLog("big")
    for index in range(600):
        log.add("info", "db", {"text": "x" * 1_000_000, "rows": list(range(10_000)), "index": index})
    assert len(log.entries) == 500
    kept = log.entries[-1].data
    assert isinstance(kept, dict) and kept["index"] == 599
    assert len(json.dumps(kept)) < 10_000
    assert kept["text"].startswith("xxx")
