"""SEP-1034: an accepted form-mode elicitation answer is completed with the request's defaults.

One rule, applied by the transport (``core/transport/sdk/connect.py``) to every answer, whoever gave it: a
person's prompt, a callback given to ``enable_elicitation``, or a handler set on the client. A field
the answer leaves out gets its schema's ``default``; a field it gives is sent as given.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

__all__ = ["with_defaults"]


def with_defaults(request: Mapping[str, Any], answer: Mapping[str, Any]) -> dict[str, Any]:
    """``answer`` with the request's ``default`` of every field it leaves out, when it accepts a
    form-mode request; any other answer (decline, cancel, URL mode) as it is."""
    completed = dict(answer)
    schema = request.get("requestedSchema")
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    accepted_form = completed.get("action") == "accept" and request.get("mode", "form") == "form"
    if not accepted_form or not isinstance(properties, Mapping):
        return completed
    given = completed.get("content")
    content = dict(given) if isinstance(given, Mapping) else {}
    for name, field in properties.items():
        if name not in content and isinstance(field, Mapping) and "default" in field:
            content[name] = copy.deepcopy(field["default"])
    if content or given is not None:
        completed["content"] = content
    return completed
