"""A fresh runtime per test, shut down (every session closed, its loop stopped) afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from anvia_nb.runtime import Runtime


@pytest.fixture
def runtime() -> Iterator[Runtime]:
    rt = Runtime()
    try:
        yield rt
    finally:
        rt.shutdown()
