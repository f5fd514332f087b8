"""The pure part of the arguments form: a tool's ``inputSchema`` as field specs, and the rules
that turn what a person entered into the arguments sent to the server.

``field_spec_from_schema`` reads the schema once; ``initial_entry`` is the untouched form;
``value_from_entry`` applies the omission rules and reports problems as lines;
``entry_from_value`` refills a form from arguments (remembered ones, or the JSON mode's text);
``validate_arguments`` checks a whole value against the schema's own dialect. None of this
imports ipywidgets, so the rules are tested on plain data (``tests/widgets/test_spec_*.py``).
"""

from __future__ import annotations

from anvia_nb.widgets._spec_schema import field_spec_from_schema
from anvia_nb.widgets._spec_types import (
    NO_DEFAULT,
    OMITTED,
    Choice,
    Constraints,
    Entry,
    FieldKind,
    FieldSpec,
)
from anvia_nb.widgets._spec_validate import constraint_problems, validate_arguments
from anvia_nb.widgets._spec_values import (
    entry_from_value,
    initial_entry,
    json_equal,
    text_from_default,
    unreadable_entries,
    value_from_entry,
)

__all__ = [
    "NO_DEFAULT",
    "OMITTED",
    "Choice",
    "Constraints",
    "Entry",
    "FieldKind",
    "FieldSpec",
    "constraint_problems",
    "entry_from_value",
    "field_spec_from_schema",
    "initial_entry",
    "json_equal",
    "text_from_default",
    "unreadable_entries",
    "validate_arguments",
    "value_from_entry",
]
