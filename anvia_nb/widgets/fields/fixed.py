"""Arguments a form's viewer may not change (``form(..., readonly_arguments={...})``).

A dashboard's author fixes some arguments of a tool (the repository a viewer may read, the
table a query runs on): the form shows them, disabled, and every call sends them as fixed,
whatever the viewer types or writes in JSON mode. They are checked when the form is made, against
the tool's inputSchema: a name the tool does not take, or a value its schema refuses, is a
one-line error for the author then, never a surprise for a viewer later.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from anvia_nb.core.protocol.schema import schema_check
from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.errors import InvalidTypeError, InvalidValueError
from anvia_nb.policy import ShowPolicy
from anvia_nb.widgets._chrome import FIELD_LABEL_WIDTH, text_label

__all__ = ["checked_fixed", "editable_schema", "fixed_box"]


def checked_fixed(info: ToolInfo, fixed: object, policy: ShowPolicy) -> dict[str, Any]:
    """``fixed`` as a copy, once every name is one of the tool's arguments and every value fits
    its inputSchema; else :class:`InvalidValueError` (:class:`InvalidTypeError` for a non-mapping)."""
    target = f"{policy.name(info.server)}.{policy.name(info.name)}"
    if fixed is None:
        return {}
    if not isinstance(fixed, Mapping) or not all(isinstance(key, str) for key in fixed):
        raise InvalidTypeError(
            f"readonly_arguments takes a dict of argument names to values, not {type(fixed).__name__}."
        )
    schema = info.input_schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    names = list(properties) if isinstance(properties, dict) else []
    unknown = [key for key in fixed if key not in names]
    if unknown:
        takes = ", ".join(policy.name(name) for name in names) or "no arguments"
        raise InvalidValueError(
            f"readonly_arguments for {target}: it takes no argument {policy.name(unknown[0])!r}. It takes: {takes}."
        )
    try:
        value: dict[str, Any] = json.loads(json.dumps(dict(fixed), allow_nan=False))
    except (TypeError, ValueError) as error:
        raise InvalidValueError(f"readonly_arguments for {target} must be JSON values: {error}.") from None
    problems = [p for p in schema_check(schema).problems(value) if p.path and p.path[0] in value]
    if problems:
        raise InvalidValueError(
            f"readonly_arguments for {target} do not fit its inputSchema: {policy.line(problems[0].line(plain=True))}. "
            "Give a value the tool accepts."
        )
    return copy.deepcopy(value)


def editable_schema(schema: dict[str, Any], fixed: Mapping[str, Any]) -> dict[str, Any]:
    """The inputSchema of the fields a viewer fills: the fixed properties left out (and not required)."""
    if not fixed or not isinstance(schema.get("properties"), dict):
        return schema
    editable = dict(schema)
    editable["properties"] = {k: v for k, v in schema["properties"].items() if k not in fixed}
    if isinstance(schema.get("required"), list):
        editable["required"] = [name for name in schema["required"] if name not in fixed]
    return editable


def fixed_box(fixed: Mapping[str, Any], policy: ShowPolicy) -> Any:  # any: ipywidgets is untyped
    """The fixed arguments as disabled fields under one line saying they are fixed; hidden when none."""
    rows = [
        widgets.HBox(
            [
                text_label(value=policy.name(name), layout=widgets.Layout(min_width=FIELD_LABEL_WIDTH)),
                widgets.Text(
                    value=policy.name(json.dumps(value, ensure_ascii=False)),
                    disabled=True,
                    tooltip="fixed by this notebook",
                ),
            ]
        )
        for name, value in fixed.items()
    ]
    note = text_label(value="Fixed by this notebook (always sent as shown):")
    return widgets.VBox([note, *rows], layout=widgets.Layout(display=None if rows else "none"))
