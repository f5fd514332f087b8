"""A form with a bad value: the problem is said once (beside its field; Call's line says only where
it is, the "will send" line only what is filled so far), and the last result, which is not the
answer to these values, is marked as the previous call's until the values are those it was sent."""

from __future__ import annotations

from anvia_nb.runtime import Runtime
from anvia_nb.widgets import ToolForm
from tests.helpers.waiting import WAIT_SECONDS
from tests.helpers.widgets import form


def _lines(add: ToolForm) -> list[str]:
    """Every line the form shows about its arguments' problems, as a person reads them."""
    fields = [field.problem_text for _path, field in add.arguments.root.walk() if field.problem_text]
    return [*fields, add.arguments.will_send_text, add.reason.value]


def test_a_bad_value_is_said_once_beside_its_field(demo_runtime: Runtime) -> None:
    add = form("demo.add", runtime=demo_runtime)
    add.arguments.field("a").input.value = "2"
    add.arguments.field("b").input.value = "x"
    lines = _lines(add)
    assert [line for line in lines if "'x' is not a number" in line] == ["'x' is not a number"]
    assert add.arguments.will_send_text == 'so far: {"a": 2}'
    assert add.reason.value == "Cannot call yet: b: see above"
    assert add.call_button.disabled and not add.call()


def test_the_last_result_is_marked_as_the_previous_calls_once_the_values_change(demo_runtime: Runtime) -> None:
    add = form("demo.add", runtime=demo_runtime)
    add.arguments.field("a").input.value = "2"
    add.arguments.field("b").input.value = "3"
    assert add.previous.text == ""  # nothing called yet: nothing to mark
    assert add.call()
    outcome = add.wait(WAIT_SECONDS)
    assert outcome is not None and outcome.output == "5" and add.previous.text == ""
    assert add.previous.note.layout.display == "none"

    add.arguments.field("b").input.value = "x"  # refused: the 5 below is not its answer
    assert not add.call()
    assert (
        add.previous.text
        == 'Below: the previous call\'s result, for {"a": 2, "b": 3} (Call is refused for these values).'
    )
    assert add.previous.note.layout.display is None and len(add.output.outputs) == 1  # kept, marked

    add.arguments.field("b").input.value = "4"
    assert add.previous.text.endswith("(these values are not sent yet).")
    add.arguments.field("b").input.value = "3"  # the values of the result shown: no mark
    assert add.previous.text == ""
    add.arguments.field("b").input.value = "4"
    assert add.call()
    assert add.wait(WAIT_SECONDS) is not None and add.last_outcome is not None
    assert add.last_outcome.output == "6" and add.previous.text == ""
