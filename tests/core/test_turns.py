"""The turns of a session's calls: never more than the limit at once, first come first served, and
a wait that is cancelled (before or just after its turn came) never keeps a turn from the others."""

from __future__ import annotations

import asyncio

from anvia_nb.core.transport.turns import Turns


async def settle() -> None:
    """Let every task that can run, run (a few turns of the loop; no clock involved)."""
    for _ in range(10):
        await asyncio.sleep(0)


async def holder(turns: Turns, name: str, order: list[str], release: asyncio.Event) -> None:
    await turns.wait()
    order.append(name)
    try:
        await release.wait()
    finally:
        turns.give()


def test_at_most_the_limit_at_once_and_the_others_in_the_order_they_came() -> None:
    async def main() -> tuple[list[str], int, list[str]]:
        turns, order, release = Turns(2), list[str](), asyncio.Event()
        tasks = [asyncio.create_task(holder(turns, str(i), order, release)) for i in range(5)]
        await asyncio.sleep(0)
        first = list(order)
        taken = turns.taken
        release.set()
        await asyncio.gather(*tasks)
        return first, taken, order

    first, taken, order = asyncio.run(main())
    assert first == ["0", "1"] and taken == 2
    assert order == ["0", "1", "2", "3", "4"]


def test_a_free_turn_is_taken_at_once_unless_someone_waits() -> None:
    async def main() -> tuple[bool, bool, bool]:
        turns = Turns(1)
        assert turns.take()
        waiting = asyncio.create_task(turns.wait())
        await asyncio.sleep(0)
        turns.give()  # handed to the waiter, not freed
        taken_while_handed = turns.take()
        await waiting
        turns.give()
        return taken_while_handed, turns.take(), turns.taken == 1

    assert asyncio.run(main()) == (False, True, True)


def test_a_wait_cancelled_before_its_turn_keeps_none() -> None:
    async def main() -> tuple[list[str], int]:
        turns, order, release = Turns(1), list[str](), asyncio.Event()
        first = asyncio.create_task(holder(turns, "first", order, release))
        await asyncio.sleep(0)
        cancelled = asyncio.create_task(holder(turns, "cancelled", order, release))
        last = asyncio.create_task(holder(turns, "last", order, release))
        await asyncio.sleep(0)
        cancelled.cancel()
        await settle()
        release.set()
        await settle()
        for task in (first, cancelled, last):
            task.cancel()
        await asyncio.gather(first, cancelled, last, return_exceptions=True)
        return order, turns.taken

    assert asyncio.run(main()) == (["first", "last"], 0)


def test_a_wait_cancelled_as_its_turn_came_hands_the_turn_on() -> None:
    async def main() -> tuple[list[str], int]:
        turns, order, release = Turns(1), list[str](), asyncio.Event()
        assert turns.take()
        handed = asyncio.create_task(holder(turns, "handed", order, release))
        last = asyncio.create_task(holder(turns, "last", order, release))
        await asyncio.sleep(0)
        turns.give()  # the turn goes to "handed", which is cancelled before it runs again
        handed.cancel()
        await settle()
        found = list(order)
        release.set()
        await settle()
        for task in (handed, last):
            task.cancel()  # a wrong hand-over would leave "last" waiting: never wait for ever here
        await asyncio.gather(handed, last, return_exceptions=True)
        return found, turns.taken

    assert asyncio.run(main()) == (["last"], 0)
