"""The tool-poisoning workshop's exercises check themselves: ``check(n, answer)`` says right or wrong, and why.

Notebook 09 (``notebooks/09-tool-poisoning.ipynb``) audits the poisoned demo server
(``python -m anvia_nb.demo_server --poisoned``) and asks five questions a person answers by
reading the audit: each answer cell starts as ``answer = ...`` and ends with ``check(n, answer)``.
The right answers are stored only as SHA-256 hashes (:func:`anvia_nb.workshop.digest`), so "Run
All" and a static view show "no answer yet" and give nothing away; a wrong answer gets a hint.
"""

from __future__ import annotations

import re
from typing import Any

from anvia_nb.workshop import Exercise, checker

__all__ = ["EXERCISES", "check"]


def _word(value: Any) -> Any:
    """A name or check id as typed: quotes and spaces around it dropped, lower-cased."""
    return value.strip().strip("\"'`").lower() if isinstance(value, str) else value


def _words(value: Any) -> Any:
    """A sentence as its words: lower-cased, punctuation dropped, one space between."""
    return " ".join(re.findall(r"[a-z]+", value.lower())) if isinstance(value, str) else value


def _hashed(digest: str) -> Any:
    return lambda: digest


EXERCISES: dict[int, Exercise] = {
    1: Exercise(
        asks="the id of the check that flags translate's hidden instruction (a string, as the check column says)",
        expected=_hashed("9b2fe3861cc8ef7f01c15cac1943b014e50c48287194d7964deb35a5a53fc125"),
        normalize=_word,
        why="translate's description ends in Unicode tag characters: no front end shows them, a model reads "
        "each as the ASCII letter it shadows. The evidence decodes them.",
        hints={
            '"addressed-to-model"': "that check reads the decoded words; which check found the characters themselves?",
            "": "filter the audit: df[df['item'] == 'translate'], and read the check column.",
        },
        hashed=True,
    ),
    2: Exercise(
        asks="what the tag characters in translate's description say (the words, as the evidence decodes them)",
        expected=_hashed("77ebe08ecd0bf51ece099d4ca592887aff9f4683ba59ef2d3655a5c2ca4300b5"),
        normalize=_words,
        why="an instruction no person sees in %mcp tools or a client's UI, and every model reads.",
        hints={"": "print the evidence of translate's hidden-tags row: the words follow 'reading'."},
        hashed=True,
    ),
    3: Exercise(
        asks="the parameter calculate asks the model to carry the SSH key in (a string)",
        expected=_hashed("0fca0318060931d3d9abadae4c03fb1085eaaa68c7b7c285634f6273d589b8b8"),
        normalize=_word,
        why="a parameter the tool has no use for, filled with a secret file's content: the key leaves with the "
        "call's arguments, and the description asks the model not to tell.",
        hints={
            '"a"': "a and b are the numbers to add; which parameter has nothing to do with adding?",
            "": "read calculate's addressed-to-model evidence, or its inputSchema's properties.",
        },
        hashed=True,
    ),
    4: Exercise(
        asks="the tool whose annotations say it only reads, while its description deletes (a tool name)",
        expected=_hashed("c22daddbd66861c75978b59aec6d6742f540465edc2f5142593669f5fdbb7c4f"),
        normalize=_word,
        why="readOnlyHint is the server's claim: a client that skips confirmation for read-only tools would "
        "delete without asking. The audit compares the claim with the tool's own words.",
        hints={"": "look for the annotation-contradiction check in the audit."},
        hashed=True,
    ),
    5: Exercise(
        asks="the tool anvia_nb refuses to call after the rug pull (a tool name)",
        expected=_hashed("003d03489439eae99383e6664ffd1e30cfe83ac14bb4f1e921d18a43252b272c"),
        normalize=_word,
        why="its definition changed after it was pinned: calls are refused until a person reads the difference "
        "and pins it again.",
        hints={
            '"change_multiply"': "that tool pulled the rug; which tool's definition did it change?",
            "": "%mcp diff notes --lock lists what changed since the pins.",
        },
        hashed=True,
    ),
}
"""The tool-poisoning workshop's questions, by number."""


check = checker(EXERCISES, "tool-poisoning", 'check(1, "hidden-bidi")')
