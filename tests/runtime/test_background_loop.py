"""The background loop's blocking door: values, errors and cancellation reach the caller as
they happened on the loop, and work given as ``meanwhile`` runs in the caller's thread while the
coroutine runs (``%mcp connect`` builds the first call's display that way)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from anvia_nb.errors import LoopMisuseError
from anvia_nb.runtime.loop import BackgroundLoop, for_a_blocked_caller

BOUND_SECONDS = 30


@pytest.fixture
def loop() -> Iterator[BackgroundLoop]:
    background = BackgroundLoop(name="anvia_nb-test-loop")
    yield background
    background.stop()


async def _value(value: int) -> int:
    await asyncio.sleep(0)
    return value


async def _fails() -> None:
    await asyncio.sleep(0)
    raise ValueError("the server said no")


async def _cancelled() -> None:
    task = asyncio.current_task()
    assert task is not None
    task.cancel()
    await asyncio.sleep(0)


def test_values_and_errors_reach_the_caller_and_the_loop_keeps_serving(loop: BackgroundLoop) -> None:
    assert loop.run(_value(7)) == 7
    with pytest.raises(ValueError, match="the server said no"):
        loop.run(_fails())
    with pytest.raises(concurrent.futures.CancelledError):
        loop.run(_cancelled())
    assert [loop.run(_value(n)) for n in range(3)] == [0, 1, 2]
    assert not loop.caller_blocked


def test_meanwhile_runs_in_the_callers_thread_while_the_coroutine_runs(loop: BackgroundLoop) -> None:
    told = threading.Event()
    seen: list[threading.Thread] = []

    async def waits_for_the_caller() -> str:
        # Ends only once the caller's meanwhile has run: it ran while this coroutine was running.
        await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(None, told.wait), BOUND_SECONDS)
        return "done"

    def meanwhile() -> None:
        seen.append(threading.current_thread())
        told.set()

    assert loop.run(waits_for_the_caller(), meanwhile=meanwhile) == "done"
    assert seen == [threading.current_thread()]


def test_a_failing_meanwhile_raises_only_once_the_coroutine_has_ended(loop: BackgroundLoop) -> None:
    """The coroutine is the loop's once handed over: a failure of ``meanwhile`` in the caller's
    thread must not leave it running with nobody waiting (a connect would finish unseen)."""
    told = threading.Event()
    ended: list[str] = []

    async def waits_for_the_caller() -> str:
        await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(None, told.wait), BOUND_SECONDS)
        await asyncio.sleep(0)
        ended.append("done")
        return "done"

    def meanwhile() -> None:
        told.set()
        raise ValueError("meanwhile failed")

    with pytest.raises(ValueError, match="meanwhile failed"):
        loop.run(waits_for_the_caller(), meanwhile=meanwhile)
    assert ended == ["done"]
    assert loop.run(_value(3)) == 3  # and the loop serves the next caller


def test_run_from_the_loops_own_thread_is_refused(loop: BackgroundLoop) -> None:
    async def nested() -> None:
        inner = _value(1)
        with pytest.raises(LoopMisuseError):
            loop.run(inner)

    loop.run(nested())


def test_a_call_cancelled_before_it_began_is_told_so_and_never_runs(loop: BackgroundLoop) -> None:
    ran = threading.Event()

    async def never() -> None:
        ran.set()

    armed: list[bool] = []

    def cancelled_at_birth(running: asyncio.AbstractEventLoop, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.Task(coro, loop=running)
        if armed:
            armed.clear()
            task.cancel()  # before its first step, as stopping the loop cancels a task just made
        return task

    async def install() -> None:
        asyncio.get_running_loop().set_task_factory(cancelled_at_birth)

    loop.run(install())
    armed.append(True)  # the next task made on the loop is the next call's
    with pytest.raises(concurrent.futures.CancelledError):
        loop.run(never())
    assert not ran.is_set()
    assert loop.run(_value(3)) == 3


def test_a_submitted_coroutine_cancelled_while_it_runs_is_done_only_after_its_cleanup(loop: BackgroundLoop) -> None:
    started, release = threading.Event(), threading.Event()
    cleaned: list[str] = []

    async def holds_on() -> None:
        started.set()
        try:
            await asyncio.sleep(3600)
        finally:  # cleanup that takes turns of the loop, as telling a server takes
            await asyncio.to_thread(release.wait, BOUND_SECONDS)
            cleaned.append("finally ran")

    work = holds_on()
    future = loop.submit(work)
    assert started.wait(BOUND_SECONDS)
    wound_down = loop.cancel(work)
    # Still winding down: a caller that waits after cancel() must not return before the cleanup.
    done, _pending = concurrent.futures.wait([future, wound_down], timeout=0.2)
    assert not done and cleaned == []
    release.set()
    concurrent.futures.wait([future, wound_down], timeout=BOUND_SECONDS)
    assert future.cancelled() and wound_down.done() and cleaned == ["finally ran"]
    with pytest.raises(concurrent.futures.CancelledError):
        future.result(0)
    loop.cancel(work).result(BOUND_SECONDS)  # ended: nothing more to cancel


def test_a_submitted_coroutine_cancelled_before_it_starts_never_runs(loop: BackgroundLoop) -> None:
    ran = threading.Event()

    async def never() -> None:
        ran.set()

    running = loop.loop()
    hold = threading.Event()
    running.call_soon_threadsafe(hold.wait, BOUND_SECONDS)  # the loop is busy: neither reaches it yet
    work = never()
    future = loop.submit(work)
    wound_down = loop.cancel(work)  # reaches the loop after the start, before the first step
    hold.set()
    concurrent.futures.wait([future, wound_down], timeout=BOUND_SECONDS)
    assert future.cancelled() and not ran.is_set()
    never_handed = never()
    loop.cancel(never_handed).result(BOUND_SECONDS)  # never submitted: closed, so it never runs
    assert inspect.getcoroutinestate(never_handed) == inspect.CORO_CLOSED
    assert loop.submit(_value(4)).result(BOUND_SECONDS) == 4


def test_a_submitted_coroutine_that_answers_its_cancel_with_a_value_reports_that_value(
    loop: BackgroundLoop,
) -> None:
    started = threading.Event()

    async def stubborn() -> str:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            return "finished anyway"
        return "never"

    work = stubborn()
    future = loop.submit(work)
    assert started.wait(BOUND_SECONDS)
    loop.cancel(work)
    assert future.result(BOUND_SECONDS) == "finished anyway" and not future.cancelled()


def test_cancelling_an_await_of_run_async_from_another_loop_waits_for_the_cleanup(loop: BackgroundLoop) -> None:
    started = threading.Event()
    cleaned: list[str] = []

    async def holds_on() -> None:
        started.set()
        try:
            await asyncio.sleep(3600)
        finally:
            await asyncio.sleep(0.05)
            cleaned.append("finally ran")

    async def cell() -> None:
        waiting = asyncio.ensure_future(loop.run_async(holds_on()))
        await asyncio.to_thread(started.wait, BOUND_SECONDS)
        waiting.cancel()  # what interrupting an awaiting cell does
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert cleaned == ["finally ran"]  # the cancelled await returned after the coroutine ended

    asyncio.run(cell())


def test_an_interrupt_that_lands_as_the_loop_takes_the_call_still_cancels_it(
    loop: BackgroundLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran, ended = threading.Event(), threading.Event()

    async def work() -> None:
        ran.set()
        try:
            await asyncio.sleep(3600)
        finally:
            ended.set()

    running = loop.loop()
    hand_over = running.call_soon_threadsafe
    interrupts = [KeyboardInterrupt()]

    def then_interrupted(callback: Any, *args: Any, **kwargs: Any) -> Any:
        handle = hand_over(callback, *args, **kwargs)
        if interrupts:  # Ctrl-C arriving the moment the loop has the coroutine, once
            raise interrupts.pop()
        return handle

    monkeypatch.setattr(running, "call_soon_threadsafe", then_interrupted)
    with pytest.raises(KeyboardInterrupt):
        loop.run(work())
    monkeypatch.undo()
    assert loop.run(_value(5)) == 5  # a later turn of the loop: the interrupted call had its chance
    # Cancelled (before its first step, or where it waited), not left running where nobody waits.
    assert ended.is_set() or not ran.is_set()
    assert not loop.caller_blocked


def test_an_interrupt_before_the_loop_has_the_call_closes_the_coroutine_and_runs_nothing(
    loop: BackgroundLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = threading.Event()

    async def work() -> None:
        ran.set()

    class InterruptedLock:
        """Ctrl-C landing while run() counts its caller, before the loop was asked to start the call."""

        def __enter__(self) -> None:
            raise KeyboardInterrupt

        def __exit__(self, *exc: object) -> None:
            return None

    coro = work()
    monkeypatch.setattr(loop, "_count_lock", InterruptedLock())
    with pytest.raises(KeyboardInterrupt):
        loop.run(coro)
    monkeypatch.undo()
    assert inspect.getcoroutinestate(coro) == inspect.CORO_CLOSED  # closed: no "never awaited" warning
    assert loop.run(_value(5)) == 5 and not ran.is_set()
    assert not loop.caller_blocked


def test_work_knows_whether_a_blocked_caller_waits_for_it(loop: BackgroundLoop) -> None:
    left_behind: list[asyncio.Task[bool]] = []
    go_on = asyncio.Event()

    async def asks_later() -> bool:
        await go_on.wait()
        return for_a_blocked_caller()

    async def blocking() -> bool:
        left_behind.append(asyncio.ensure_future(asks_later()))  # keeps this call's context
        return for_a_blocked_caller()

    async def release_and_ask() -> bool:
        go_on.set()
        return await left_behind[0]

    assert loop.run(blocking()) is True  # run(): its caller's thread waits for it
    # And the loop says so from the coroutine's first step: an older server's request for input
    # can come before the call's first await ends (it was counted only after the hand-off, so a
    # busy machine let %mcp call's request be shown as a prompt nobody could click).
    assert loop.run(_caller_blocked(loop)) is True
    assert loop.submit(_asks()).result(BOUND_SECONDS) is False  # submit(): nobody is held
    # A task that inherited a blocking call's context does not count once that call has ended.
    assert loop.submit(release_and_ask()).result(BOUND_SECONDS) is False
    assert for_a_blocked_caller() is False  # outside the loop


async def _asks() -> bool:
    return for_a_blocked_caller()


async def _caller_blocked(loop: BackgroundLoop) -> bool:
    return loop.caller_blocked
