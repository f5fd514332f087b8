"""The arguments form and its fields: one ipywidgets control per field spec.

- :mod:`~anvia_nb.widgets.fields.leaf`: the fields that hold one value (text, number, date,
  boolean) and :class:`FieldWidget`, the base of every field;
- :mod:`~anvia_nb.widgets.fields.choices`: the fields that choose from an enum (one value or many);
- :mod:`~anvia_nb.widgets.fields.groups`: the fields that hold others (object, list, union) and
  :data:`BUILDERS`, the dispatch table from a spec's kind to its field;
- :mod:`~anvia_nb.widgets.fields.paged`: a root of many fields, built a page at a time;
- :mod:`~anvia_nb.widgets.fields.fixed`: arguments a viewer may not change, shown disabled;
- :mod:`~anvia_nb.widgets.fields.completing`: text fields with the server's suggestions (prompt
  arguments, template variables);
- :mod:`~anvia_nb.widgets.fields.arguments_form`: :class:`ArgumentsForm`, the fields of one
  tool's ``inputSchema`` with a JSON mode and the problems found.

The rules behind them (schema to specs, typed text to arguments) are the pure
:mod:`anvia_nb.widgets.spec`.
"""

from __future__ import annotations

from anvia_nb.widgets.fields.choices import ChoiceField, MultiChoiceField
from anvia_nb.widgets.fields.groups import BUILDERS, ListField, ObjectField, UnionField, build_field
from anvia_nb.widgets.fields.leaf import HELP_CHARS, LABEL_CHARS, PROBLEM_CHARS, BooleanField, DateField, FieldWidget

__all__ = [
    "BUILDERS",
    "HELP_CHARS",
    "LABEL_CHARS",
    "PROBLEM_CHARS",
    "BooleanField",
    "ChoiceField",
    "DateField",
    "FieldWidget",
    "ListField",
    "MultiChoiceField",
    "ObjectField",
    "UnionField",
    "build_field",
]
