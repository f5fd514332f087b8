"""``r.frame()``: a result's structured content as a DataFrame.

Structured content that is a list of objects, or an object holding exactly one list of objects,
becomes one row per object. When the tool declares an outputSchema, the columns come in its order
and with its types (nullable ``Int64``, ``Float64``, ``boolean``, ``string``), fields it does not
declare after them; otherwise in the order first seen. Anything else is a one-line
:class:`~anvia_nb.errors.NotTabularError`. The values are data, exactly as sent (as ``r.structured``).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from anvia_nb.core.protocol.types import CallOutcome
from anvia_nb.errors import NotTabularError
from anvia_nb.frames._columns import declared_fields, typed_column
from anvia_nb.frames.server_frame import ServerFrame

__all__ = ["result_frame"]


def _records(structured: Any, schema: Any) -> tuple[list[dict[str, Any]], Any] | None:
    """The objects to tabulate and the schema of one of them, or ``None``."""
    if isinstance(structured, list) and all(isinstance(item, dict) for item in structured):
        items = schema.get("items") if isinstance(schema, dict) else None
        return structured, items
    if isinstance(structured, dict):
        lists = [k for k, v in structured.items() if isinstance(v, list) and all(isinstance(i, dict) for i in v)]
        if len(lists) == 1:
            prop = declared_fields(schema).get(lists[0])
            return structured[lists[0]], prop.get("items") if isinstance(prop, dict) else None
    return None


def result_frame(outcome: CallOutcome) -> pd.DataFrame:
    """The structured content of ``outcome`` as a DataFrame (see the module's rule)."""
    target = f"{outcome.server}.{outcome.tool}"
    structured = outcome.structured
    if structured is None:
        why = "failed" if outcome.error is not None and outcome.raw is None else "sent no structuredContent"
        raise NotTabularError(f"{target} {why}, so there is no table in it; read r.output instead.")
    found = _records(structured, outcome.output_schema)
    if found is None:
        kind = type(structured).__name__
        raise NotTabularError(
            f"{target}'s structuredContent is a {kind} holding no single list of objects, so it is not a table; "
            "read r.structured instead."
        )
    records, item_schema = found
    declared = declared_fields(item_schema)
    names = list(declared)
    for record in records:
        names.extend(key for key in record if key not in names)
    index = pd.RangeIndex(len(records))
    columns = {name: typed_column((r.get(name) for r in records), index, declared.get(name)) for name in names}
    frame: pd.DataFrame = ServerFrame(columns, index=index, columns=names)
    return frame
