"""The pure part of the arguments form: a tool's ``inputSchema`` as field specs, and the rules
that turn what a person entered into the arguments sent to the server.

``field_spec_from_schema`` reads the schema once; ``initial_entry`` is the untouched form;
``value_from_entry`` (and ``read_entry``, with paths kept) applies the omission rules and
reports what cannot be read; ``entry_from_value`` refills a form from arguments (remembered
ones, or the JSON mode's text); ``example_json`` is what a JSON box suggests to type. The
schema itself is checked by the one validator, :func:`anvia_nb.core.protocol.schema.schema_check`.
None of this imports ipywidgets, so the rules are tested on plain data
(``tests/widgets/test_spec_*.py``).
"""

from __future__ import annotations

from anvia_nb.core.protocol.schema import SchemaCheck
from anvia_nb.widgets.spec import values
from anvia_nb.widgets.spec.examples import example_json
from anvia_nb.widgets.spec.schema import field_spec_from_schema
from anvia_nb.widgets.spec.trees import (
    NO_DEFAULT,
    OMITTED,
    Choice,
    Constraints,
    Entry,
    FieldKind,
    FieldSpec,
)
from anvia_nb.widgets.spec.values import *  # noqa: F403 - its names are named once, in its __all__
from anvia_nb.widgets.spec.values import Found

__all__ = [
    "NO_DEFAULT",
    "OMITTED",
    "Choice",
    "Constraints",
    "Entry",
    "FieldKind",
    "FieldSpec",
    "check_value",
    "example_json",
    "field_spec_from_schema",
]
__all__ += values.__all__  # what a form entry becomes, as values.py lists it


def check_value(check: SchemaCheck, value: object, unread: Found) -> tuple[Found, Found]:
    """The one validation of a value read from the fields (or the JSON mode).

    Returns ``(problems, notes)``: ``unread`` (what could not be read) then the schema's
    problems in plain words, leaving out those under a path already reported as unread; notes
    are checks that could not finish (never blocking).
    """
    problems: Found = list(unread)
    notes: Found = []
    if not unread and not isinstance(value, dict):
        return [((), "the arguments must be a JSON object")], []
    if isinstance(value, dict):
        paths = [path for path, _ in unread]
        for problem in check.problems(value):
            if any(problem.path[: len(path)] == path for path in paths):
                continue  # already reported as what could not be read there
            (problems if problem.blocking else notes).append((problem.path, problem.plain))
    return problems, notes
