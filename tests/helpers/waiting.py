"""The one way a test waits for something that should happen (``tests.helpers.waiting``).

``wait_until(predicate, what)`` polls ``predicate()`` until it returns something truthy and
returns that value; ``await wait_until_async(predicate, what)`` does the same in async code (the
loop keeps running meanwhile) and also takes an async predicate. Both poll every
``POLL_SECONDS`` and give up after ``seconds`` (``WAIT_SECONDS`` unless a test waits on something
slower, such as a kernel or a server that logs on its own schedule), raising ``AssertionError``
that says what was awaited (``what``: a phrase, or a function that describes what is still
missing when the wait fails). The bound only proves that nothing hangs: it is far beyond what a busy
machine needs, and no test asserts how long anything took.

tests/package/test_test_layout.py holds that no other test module defines a wait or poll helper.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, overload

__all__ = ["POLL_SECONDS", "WAIT_SECONDS", "Awaited", "wait_until", "wait_until_async"]

T = TypeVar("T")

WAIT_SECONDS = 30.0
"""How long a test waits for something that should happen (a call, a progress step, a prompt)."""
POLL_SECONDS = 0.02
"""How often a wait asks again: quick for a test, cheap for the machine."""


Awaited = str | Callable[[], str]
"""What a wait is for: a phrase, or a function that describes the state once the wait has failed."""


def _timed_out(what: Awaited, seconds: float) -> AssertionError:
    described = what if isinstance(what, str) else what()
    return AssertionError(f"timed out after {seconds:g} s waiting for {described}")


def wait_until(predicate: Callable[[], T], what: Awaited, *, seconds: float = WAIT_SECONDS) -> T:
    """Poll ``predicate()`` until it is truthy and return its value.

    Raises ``AssertionError`` naming ``what`` when ``seconds`` pass first (the bound only proves
    nothing hangs). For a thread that must stop early, fold its stop event into the predicate.
    """
    deadline = time.monotonic() + seconds
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise _timed_out(what, seconds)
        time.sleep(POLL_SECONDS)
    return value


@overload
async def wait_until_async(
    predicate: Callable[[], Awaitable[T]], what: Awaited, *, seconds: float = WAIT_SECONDS
) -> T: ...


@overload
async def wait_until_async(predicate: Callable[[], T], what: Awaited, *, seconds: float = WAIT_SECONDS) -> T: ...


async def wait_until_async(predicate: Callable[[], object], what: Awaited, *, seconds: float = WAIT_SECONDS) -> object:
    """``wait_until`` for async code: the event loop runs between polls; ``predicate`` may be async.

    Returns the first truthy value; raises ``AssertionError`` naming ``what`` after ``seconds``.
    """

    async def poll() -> object:
        while True:
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            await asyncio.sleep(POLL_SECONDS)

    try:
        return await asyncio.wait_for(poll(), seconds)
    except asyncio.TimeoutError:
        raise _timed_out(what, seconds) from None
