"""The mapping workshop's exercises check themselves: ``check(n, answer)`` says right or wrong, and why.

Notebook 02 (``notebooks/02-result-mapping.ipynb``) asks ten questions; each answer cell starts
as ``answer = ...`` and ends with ``check(n, answer)``. The right answer is never stored in the
notebook, so "Run All" (and a static view on GitHub) shows only "no answer yet": it is either
computed here from the real mapping (:func:`anvia_nb.core.protocol.mapping.output_from_result`) when
``check`` runs, or compared by its SHA-256 hash. The explanation is shown once the answer is
right; a wrong one gets a hint that does not give it away.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from anvia_nb.core.protocol.mapping import arguments_from_input, output_from_result
from anvia_nb.errors import AnviaError, InvalidValueError

__all__ = ["EXERCISES", "Exercise", "Verdict", "check", "check_in", "checker", "digest"]


@dataclass(frozen=True)
class Verdict:
    """What ``check`` says: right or not, and the sentence explaining it (its ``repr``).

    Attributes
    ----------
    exercise : int
        The exercise's number.
    right : bool or None
        Whether the answer is right; ``None`` while no answer was given. A verdict is true when right.
    text : str
        The sentence shown: why it is right, or a hint that does not give the answer away.
    """

    exercise: int
    right: bool | None
    """``None`` while no answer was given."""
    text: str

    def __repr__(self) -> str:
        return self.text

    def __bool__(self) -> bool:
        return bool(self.right)


@dataclass(frozen=True)
class Exercise:
    """One question: what kind of answer it takes, how to find the right one, and what to say.

    Attributes
    ----------
    asks : str
        What the answer is (shown while there is none yet).
    expected : callable
        Returns the right answer, normalized (computed from the mapping, or a SHA-256 hex digest).
    normalize : callable
        Makes a given answer comparable (a word lower-cased, ``yes`` a bool...).
    why : str
        The explanation shown once the answer is right.
    hints : dict of str to str
        Hints for wrong answers, by the wrong answer's normalized JSON; ``""`` (required): any
        other wrong answer, a hint about the rule the exercise is on.
    hashed : bool
        Whether ``expected`` is the SHA-256 of the right answer's JSON.
    """

    asks: str
    expected: Callable[[], Any]
    normalize: Callable[[Any], Any]
    why: str
    hints: dict[str, str]
    hashed: bool = False


def _mapped(result: dict[str, Any]) -> Any:
    try:
        return output_from_result(result)
    except AnviaError as exc:
        return exc


def _same(value: Any) -> Any:
    return value


def _word(value: Any) -> Any:
    if isinstance(value, type):
        value = value.__name__
    return value.strip().strip("\"'`").lower() if isinstance(value, str) else value


def _truth(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower() in ("yes", "no", "true", "false"):
        return value.strip().lower() in ("yes", "true")
    return value


def _reaching(value: Any) -> Any:
    """Candidates given as a list, tuple or set (``None`` and unhashable ones alike), as sorted JSON."""
    if isinstance(value, list | tuple | set | frozenset):
        return sorted(json.dumps(v, sort_keys=True) for v in value)
    return value


def _equal(given: Any, expected: Any) -> bool:
    """Equal and of the same type (``True`` is not ``1``, ``"42"`` is not ``42``)."""
    if isinstance(given, bool) or isinstance(expected, bool):
        return given is expected
    return type(given) is type(expected) and bool(given == expected)


def digest(value: object) -> str:
    """The SHA-256 of ``value``'s JSON (keys sorted): how a hashed exercise stores its right answer.

    Parameters
    ----------
    value : object
        A normalized answer (JSON-serializable).

    Returns
    -------
    str
        The hex digest.
    """
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def _reaches(candidate: Any) -> bool:
    try:
        arguments_from_input(candidate)
    except TypeError:
        return False
    return True


_CANDIDATES: tuple[Any, ...] = ({}, None, [], "{}")

EXERCISES: dict[int, Exercise] = {
    2: Exercise(
        "the value output_from_result returns for the texts '2' and '+2'",
        lambda: _mapped({"content": [{"type": "text", "text": "2"}, {"type": "text", "text": "+2"}]}),
        _same,
        "the texts are concatenated in server order with no separator, and nothing is computed: '2+2'.",
        {
            json.dumps(4): "the mapping does no arithmetic: it joins texts.",
            json.dumps("4"): "the mapping does no arithmetic: it joins texts.",
            json.dumps("2 +2"): "no separator is added between the texts.",
            json.dumps(["2", "+2"]): "only a file part makes the output a list; texts alone make one str.",
            "": "rule 2: text items are joined in the order the server sent them; nothing is added or computed.",
        },
    ),
    3: Exercise(
        "how many parts the output has for text, image, text",
        lambda: len(
            _mapped(
                {
                    "content": [
                        {"type": "text", "text": "before"},
                        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                        {"type": "text", "text": "after"},
                    ]
                }
            )
        ),
        _same,
        "with a file part the output is a list in server order, and each text is its own part: 3 parts, "
        "nothing merged.",
        {
            json.dumps(2): "texts are not merged around a file part: each text item is its own part.",
            json.dumps(1): "an image makes the output a list of parts, not one string.",
            "": "rule 3: with a file part, the output is a list with one part per content item, in server order.",
        },
    ),
    4: Exercise(
        "the type of r.output for an embedded resource (str or dict)",
        lambda: type(_mapped({"content": [{"type": "resource", "resource": {"uri": "x:y", "text": "t"}}]})).__name__,
        _word,
        "an embedded resource becomes a JSON string (str); json.loads(r.output)['uri'] gives the uri back.",
        {
            json.dumps("dict"): "look at rule 4's title: the resource is serialized.",
            "": "rule 4: answer with a Python type name, str or dict; the title of rule 4 says which.",
        },
    ),
    5: Exercise(
        "whether the text arrives when audio follows it (True or False)",
        lambda: (
            not isinstance(
                _mapped(
                    {
                        "content": [
                            {"type": "text", "text": "here is the recording"},
                            {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                        ]
                    }
                ),
                AnviaError,
            )
        ),
        _truth,
        "one unsupported item fails the whole mapping: it raises UnsupportedContentError, so you do not get "
        "the text (r.raw still has it).",
        {
            json.dumps(True): "rule 5 applies to the result as a whole, not item by item.",
            "": "rule 5: answer True or False; does one unsupported item spoil the whole result?",
        },
    ),
    6: Exercise(
        "which one is the output, 'content' or 'structuredContent'",
        lambda: (
            "content"
            if _mapped({"content": [{"type": "text", "text": "21.5 C"}], "structuredContent": {"t": 21.5}}) == "21.5 C"
            else "structuredcontent"
        ),
        _word,
        "non-empty content wins; structuredContent becomes the output only when content is empty (rule 6), "
        "and stays in r.structured.",
        {
            json.dumps("structuredcontent"): "rule 6's title says when the structured value becomes the output.",
            "": "rule 6: answer 'content' or 'structuredContent'; which one wins when both are there?",
        },
    ),
    7: Exercise(
        "what {'toolResult': 42} gives",
        lambda: _mapped({"toolResult": 42}),
        _same,
        "a toolResult that is not a string is JSON-serialized: the string '42', not the number.",
        {
            json.dumps(42): "the output is always a string or a list of parts, never a number.",
            json.dumps("toolResult"): "the question asks for the output, the value r.output holds.",
            "": "rule 7: a legacy toolResult is kept as it is when it is a string; otherwise it is serialized.",
        },
    ),
    8: Exercise(
        "the error message of an error result with the texts 'quota ' and 'exceeded'",
        lambda: str(
            _mapped(
                {"isError": True, "content": [{"type": "text", "text": "quota "}, {"type": "text", "text": "exceeded"}]}
            )
        ),
        _same,
        "the message is the text content, concatenated as in rule 2: 'quota exceeded'.",
        {
            json.dumps("MCP tool returned an error"): "that default is only for an error with no text at all.",
            json.dumps("quota "): "the message takes every text item, not only the first.",
            json.dumps("quota"): "the message takes every text item, not only the first.",
            json.dumps("exceeded"): "the message takes every text item, not only the last.",
            json.dumps("quotaexceeded"): "nothing is removed either: the first text ends with a space.",
            json.dumps("quota  exceeded"): "no separator is added; that space belongs to the first text.",
            json.dumps(["quota ", "exceeded"]): "a message is one string: the texts are joined, as in rule 2.",
            json.dumps("ToolCallError"): "the question asks for the message, str(error), not the kind of error.",
            json.dumps("ToolResultError"): "the question asks for the message, str(error), not the kind of error.",
            "": "rule 8: an error result's message is made of its text items exactly as rule 2 makes an output.",
        },
    ),
    9: Exercise(
        "which of {}, None, [] and '{}' reach the server (a list of them)",
        lambda: sorted(json.dumps(c, sort_keys=True) for c in _CANDIDATES if _reaches(c)),
        _reaching,
        "a mapping is sent and None omits the arguments field: [{}, None] reach the server; a list or a "
        "string (even '{}') is refused before the call with ArgumentError, a TypeError.",
        {
            json.dumps(sorted(['"{}"', "[]", "null", "{}"])): "not all of them: some are refused before any "
            "call is made.",
            json.dumps(["{}"]): "None reaches the server too: the call is sent without an arguments field.",
            json.dumps(["null"]): "an empty mapping is a mapping: {} is sent as it is.",
            json.dumps(sorted(['"{}"', "null", "{}"])): "a string is never parsed as JSON: '{}' is a str, "
            "refused like any other string.",
            json.dumps(sorted(["[]", "null", "{}"])): "an empty list is not an empty mapping: arguments must be "
            "a JSON object.",
            json.dumps([]): "two of the four do reach it: which kinds of value can be a tool's arguments?",
            "": "rule 9: a mapping is sent as it is, None leaves the field out, anything else is refused "
            "with ArgumentError before the call; answer with a list of the ones that reach the server.",
        },
    ),
    10: Exercise(
        "the JSON Schema type the add tool's outputSchema requires for sum",
        lambda: "fd1a55ee2217c1ac278ab485236d6c199517334ee91e965cf2f6b8575701cd1c",
        _word,
        "its outputSchema says {'sum': {'type': 'number'}}: any JSON number.",
        {
            json.dumps("integer"): "look again at the schema itself: server.tool('add').output_schema.",
            json.dumps("int"): "use JSON Schema's word for the type, as written in the schema.",
            "": "rule 10: read the type in the tool's outputSchema, server.tool('add').output_schema.",
        },
        hashed=True,
    ),
    11: Exercise(
        "the resultType of the final result",
        lambda: "575951db5c63b1e721c1f8f9aefb547ca834245433e7561dc8204a3a18427aae",
        _word,
        "'complete': the input_required round trip stays inside the client's dispatch loop; only the final "
        "result comes back.",
        {
            json.dumps("input_required"): "input_required never reaches the output: it is answered (or cancelled) "
            "first.",
            "": "rule 11: the client answers the server's questions inside the call; what is the final "
            "result's resultType?",
        },
        hashed=True,
    ),
}


def check_in(exercises: Mapping[int, Exercise], exercise: int, answer: object) -> Verdict:
    """:func:`check` for any workshop's exercises: each workshop's ``check`` is this on its own.

    Parameters
    ----------
    exercises : mapping of int to Exercise
        A workshop's exercises (``EXERCISES`` here, ``workshop_poisoning.EXERCISES``).
    exercise, answer
        As ``check`` takes them.

    Returns
    -------
    Verdict
        As ``check`` returns it.

    Raises
    ------
    InvalidValueError
        ``exercise`` is not a key of ``exercises``.
    """
    found = exercises.get(exercise) if isinstance(exercise, int) else None
    if found is None:
        numbers = ", ".join(map(str, exercises))
        raise InvalidValueError(f"There is no exercise {exercise!r}; the exercises are {numbers}.")
    if answer is Ellipsis:
        text = f"Exercise {exercise}: no answer yet. Replace ... with {found.asks}, then run the cell again."
        return Verdict(exercise, None, text)
    given = found.normalize(answer)
    expected = found.expected()
    right = digest(given) == expected if found.hashed else _equal(given, expected)
    if right:
        return Verdict(exercise, True, f"Exercise {exercise}: right. Why: {found.why}")
    try:
        key = json.dumps(given)
    except TypeError:
        key = ""
    hint = found.hints.get(key) or found.hints[""]
    return Verdict(exercise, False, f"Exercise {exercise}: not right ({answer!r}). Hint: {hint}")


_CHECK_DOC = """Whether ``answer`` is right for exercise ``exercise`` of the {workshop} workshop, and why.

Parameters
----------
exercise : int
    The exercise's number (a key of ``EXERCISES``: {first} to {last}).
answer : object
    The answer; ``...`` (the placeholder) is no answer yet.

Returns
-------
Verdict
    Right, wrong (with a hint) or no answer yet; shown as its sentence.

Raises
------
InvalidValueError
    ``exercise`` is not the number of an exercise.

Examples
--------
>>> {example}
"""


def checker(exercises: Mapping[int, Exercise], workshop: str, example: str) -> Callable[[int, object], Verdict]:
    """A workshop's ``check``: :func:`check_in` on its exercises, with the docstring ``check?`` shows.

    Parameters
    ----------
    exercises : mapping of int to Exercise
        The workshop's exercises, by number.
    workshop, example : str
        Its name and a call, as the docstring says them: ``"mapping"``, ``'check(2, "hello")'``.

    Returns
    -------
    callable
        ``check(exercise, answer)``, returning a ``Verdict``.
    """

    def check(exercise: int, answer: object) -> Verdict:
        return check_in(exercises, exercise, answer)

    check.__doc__ = _CHECK_DOC.format(workshop=workshop, first=min(exercises), last=max(exercises), example=example)
    return check


check = checker(EXERCISES, "mapping", 'check(2, "hello")')
