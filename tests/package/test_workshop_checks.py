"""The mapping workshop's ``check(n, answer)``: right answers are recognised and explained, wrong
ones get a hint that does not give the answer away, and no answer yet is said as such."""

from __future__ import annotations

from typing import Any

import pytest

from anvia_nb.errors import InvalidValueError
from anvia_nb.workshop import EXERCISES, check

RIGHT: dict[int, list[Any]] = {
    2: ["2+2"],
    3: [3],
    4: [str, "str"],
    5: [False, "no"],
    6: ["content", "Content"],
    7: ["42"],
    8: ["quota exceeded"],
    9: [[{}, None], (None, {})],
    10: ["number", " Number "],
    11: ["complete"],
}
WRONG: dict[int, list[Any]] = {
    2: [4, "4", "2 +2", ["2", "+2"]],
    3: [2, 1, "3"],
    4: [dict, "dict"],
    5: [True, "yes"],
    6: ["structuredContent"],
    7: [42],
    8: [
        "MCP tool returned an error",
        "quota",
        "exceeded",
        "quotaexceeded",
        "quota  exceeded",
        "ToolCallError",
        "over quota",
    ],
    9: [[{}], [None], [{}, None, []], [{}, None, "{}"], [{}, None, [], "{}"], [], [None, "{}"]],
    10: ["integer", "int"],
    11: ["input_required"],
}


def test_every_exercise_is_covered() -> None:
    assert set(RIGHT) == set(WRONG) == set(EXERCISES)


@pytest.mark.parametrize(("number", "answer"), [(n, a) for n, answers in RIGHT.items() for a in answers])
def test_a_right_answer_is_right_and_explained(number: int, answer: Any) -> None:
    verdict = check(number, answer)
    assert verdict.right is True and bool(verdict)
    assert repr(verdict).startswith(f"Exercise {number}: right. Why: ")


@pytest.mark.parametrize(("number", "answer"), [(n, a) for n, answers in WRONG.items() for a in answers])
def test_a_wrong_answer_is_wrong_with_a_hint_that_keeps_the_answer(number: int, answer: Any) -> None:
    verdict = check(number, answer)
    assert verdict.right is False and not verdict
    assert repr(verdict).startswith(f"Exercise {number}: not right") and "Hint: " in repr(verdict)
    for right in RIGHT[number]:
        if isinstance(right, str) and len(right) > 3:
            assert right not in repr(verdict).split("Hint: ", 1)[1]


@pytest.mark.parametrize(("number", "answer"), [(n, a) for n, answers in WRONG.items() for a in answers])
def test_every_wrong_answer_gets_a_hint_about_its_own_rule_or_its_own_mistake(number: int, answer: Any) -> None:
    hint = repr(check(number, answer)).split("Hint: ", 1)[1]
    assert hint == EXERCISES[number].hints[""] or hint in EXERCISES[number].hints.values()
    assert "look at the rule's title and its example above" not in hint


def test_an_answer_nobody_foresaw_is_pointed_at_the_exercise_rule() -> None:
    for number, exercise in EXERCISES.items():
        assert f"rule {number}:" in exercise.hints[""]
        hint = repr(check(number, "an answer nobody foresaw")).split("Hint: ", 1)[1]
        assert hint == exercise.hints[""]


def test_the_placeholder_is_no_answer_yet_and_gives_nothing_away() -> None:
    for number in EXERCISES:
        verdict = check(number, ...)
        assert verdict.right is None
        assert repr(verdict).startswith(f"Exercise {number}: no answer yet. Replace ... with ")
        assert "Why" not in repr(verdict)


def test_an_unknown_exercise_is_a_clear_error() -> None:
    with pytest.raises(InvalidValueError, match="There is no exercise 1; the exercises are 2, 3"):
        check(1, "x")
