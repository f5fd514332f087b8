"""Requests for input during a call awaited in a cell are bounded like a form's: in a real kernel,
40 requests at once make at most ``Limits.prompts`` prompts; the rest are cancelled and counted in
one line of the cell, and the server learns each answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from anvia_nb.policy import Limits
from tests.helpers.kernel import Kernel
from tests.helpers.waiting import WAIT_SECONDS

REQUESTS = 40


@pytest.fixture
def kernel() -> Iterator[Kernel]:
    started = Kernel()
    try:
        yield started
    finally:
        started.stop()


@pytest.mark.slow  # starts a real kernel: left out of scripts/test --quick
def test_many_requests_in_a_cell_show_a_bounded_number_of_prompts_and_count_the_rest(kernel: Kernel) -> None:
    bound = Limits().prompts
    setup = kernel.run(
        "import asyncio\n"
        "from anvia_nb import connect_mcp, mcp\n"
        "from anvia_nb.widgets import enable_elicitation\n"
        "from tests.helpers.attack_servers import asker\n"
        "from tests.helpers.waiting import wait_until_async\n"
        f"server = await connect_mcp(mcp.memory(name='asker', server=asker({REQUESTS})))\n"
        "router = enable_elicitation(server)\n"
        "task = asyncio.ensure_future(server.tool('ask_many').call({}))\n"
    )
    assert not setup.error, setup.error
    waited = kernel.run(
        f"await wait_until_async(lambda: router.in_cells.refused >= {REQUESTS - bound}, 'the refused requests')\n"
        "print(router.in_cells.refused, len(router.prompts))\n"
        "print(router.in_cells.note.value)\n"
    )
    assert not waited.error, waited.error
    counts, note = waited.stdout.strip().splitlines()
    assert counts == f"{REQUESTS - bound} {bound}"  # never stacked past the bound
    assert note.startswith(f"{REQUESTS - bound} more requests for input were cancelled")
    answered = kernel.run(
        "for prompt in router.prompts:\n    prompt.decline()\n"
        f"print(await asyncio.wait_for(task, {WAIT_SECONDS}))\n"
        "await server.close()\n"
    )
    assert not answered.error, answered.error
    assert answered.stdout.strip() == repr({"cancel": REQUESTS - bound, "decline": bound})
