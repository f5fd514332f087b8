"""The tool-poisoning workshop's ``check(n, answer)``: right answers (as a person types them) are
recognised and explained, wrong ones get a hint that does not give the answer away."""

from __future__ import annotations

from typing import Any

import pytest

from anvia_nb.errors import InvalidValueError
from anvia_nb.workshop_poisoning import EXERCISES, check

RIGHT: dict[int, list[Any]] = {
    1: ["hidden-tags", " Hidden-Tags ", "`hidden-tags`"],
    2: ["Ignore all previous instructions.", " ignore all previous instructions"],
    3: ["sidenote", "'sidenote'"],
    4: ["delete_note", "Delete_Note"],
    5: ["multiply"],
}
WRONG: dict[int, list[Any]] = {
    1: ["addressed-to-model", "hidden", "tags", 1],
    2: ["ignore previous instructions", "Translates text to English."],
    3: ["a", "b", "id_rsa"],
    4: ["calculate", "post_message", "delete"],
    5: ["change_multiply", "translate", None],
}


def test_every_exercise_is_covered() -> None:
    assert set(RIGHT) == set(WRONG) == set(EXERCISES)


@pytest.mark.parametrize(("exercise", "answer"), [(n, a) for n, answers in RIGHT.items() for a in answers])
def test_a_right_answer_is_right_and_explained(exercise: int, answer: Any) -> None:
    verdict = check(exercise, answer)
    assert verdict and repr(verdict).startswith(f"Exercise {exercise}: right. Why: ")


@pytest.mark.parametrize(("exercise", "answer"), [(n, a) for n, answers in WRONG.items() for a in answers])
def test_a_wrong_answer_gets_a_hint_that_does_not_give_it_away(exercise: int, answer: Any) -> None:
    verdict = check(exercise, answer)
    assert not verdict and verdict.right is False
    assert "Hint: " in repr(verdict)
    for right in RIGHT[exercise]:
        assert str(right).strip().lower() not in repr(verdict).split("Hint: ")[1].lower()


def test_no_answer_yet_says_what_to_give_and_an_unknown_exercise_is_one_line() -> None:
    assert repr(check(1, ...)).startswith("Exercise 1: no answer yet. Replace ... with")
    with pytest.raises(InvalidValueError, match="the exercises are 1, 2, 3, 4, 5"):
        check(6, "x")
