"""The forms of a server nobody here wrote: @modelcontextprotocol/server-memory from npm, cached by
scripts/setup-test (the test installs nothing; without it the test is skipped with the reason,
except in CI, where it fails). Its required arrays (``open_nodes``' names, ``create_entities``'
entities and their observations) left untouched hold Call back with the reason (issue 40: they
were sent as ``[]``); filled, the call goes through and the server answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from anvia_nb import mcp
from anvia_nb.runtime import Runtime
from anvia_nb.widgets.fields import ListField, ObjectField
from tests.helpers.support import npm_servers, require_setup
from tests.helpers.waiting import WAIT_SECONDS
from tests.helpers.widgets import form

pytestmark = pytest.mark.thirdparty

NEEDS_A_VALUE = "a value is required: add an item (+ then − sends an empty list)"


@pytest.fixture
def memory(runtime: Runtime, tmp_path: Path) -> Runtime:
    folder = npm_servers()
    require_setup(folder / "anvia-ready", "@modelcontextprotocol/server-memory")
    executable = folder / "node_modules" / ".bin" / "mcp-server-memory"
    assert executable.exists(), f"{executable} is missing: run scripts/setup-test again"
    env = {"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")}  # its graph, kept out of the cache
    runtime.connect(mcp.stdio(name="memory", command=str(executable), env=env))
    return runtime


def test_open_nodes_with_its_names_untouched_is_held_back_and_filled_is_sent(memory: Runtime) -> None:
    nodes = form("memory.open_nodes", runtime=memory)
    assert nodes.call_button.disabled and not nodes.call()
    assert nodes.reason.value == f"Cannot call yet: names: {NEEDS_A_VALUE}"
    names = nodes.arguments.field("names")
    assert isinstance(names, ListField)
    names.add_button.click()
    names.rows[0].input.value = "ada"
    assert not nodes.call_button.disabled and nodes.call()
    outcome = nodes.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.arguments == {"names": ["ada"]} and not outcome.is_error


def test_an_entity_whose_observations_are_untouched_is_held_back(memory: Runtime) -> None:
    create = form("memory.create_entities", runtime=memory)
    assert create.reason.value == f"Cannot call yet: entities: {NEEDS_A_VALUE}"
    entities = create.arguments.field("entities")
    assert isinstance(entities, ListField)
    entities.add_button.click()
    entity = entities.rows[0]
    assert isinstance(entity, ObjectField)
    entity.field("name").input.value = "ada"
    entity.field("entityType").input.value = "person"
    assert create.call_button.disabled and "entities[0].observations" in create.reason.value
    observations = entity.field("observations")
    assert isinstance(observations, ListField)
    observations.add_button.click()
    observations.rows[0].input.value = "wrote the first program"
    assert create.call()
    outcome = create.wait(WAIT_SECONDS)
    assert outcome is not None and not outcome.is_error
    assert outcome.arguments == {
        "entities": [{"name": "ada", "entityType": "person", "observations": ["wrote the first program"]}]
    }
