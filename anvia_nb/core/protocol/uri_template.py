"""URI templates (RFC 6570) as resource templates use them: their variables, expansion, matching.

Expansion handles the operators of levels 1-3 (``{x}``, ``{+x}``, ``{#x}``, ``{.x}``, ``{/x}``,
``{;x}``, ``{?x,y}``, ``{&x}``) with string values; the prefix and explode modifiers are read and
ignored. Matching is loose on purpose: it only says whether a URI could come from a template, so
``%mcp read`` can refuse a URI that no listing knows before anything is sent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote

from anvia_nb.errors import ArgumentValidationError

__all__ = ["expand", "matches", "query_variables", "variables"]

_EXPRESSION = re.compile(r"\{([+#./;?&]?)([^{}]*)\}")
_RESERVED = ":/?#[]@!$&'()*+,;="
_QUERY_OPERATORS = ("?", "&")


@dataclass(frozen=True)
class _Operator:
    first: str
    separator: str
    named: bool
    allow_reserved: bool


_OPERATORS = {
    "": _Operator("", ",", False, False),
    "+": _Operator("", ",", False, True),
    "#": _Operator("#", ",", False, True),
    ".": _Operator(".", ".", False, False),
    "/": _Operator("/", "/", False, False),
    ";": _Operator(";", ";", True, False),
    "?": _Operator("?", "&", True, False),
    "&": _Operator("&", "&", True, False),
}


def _names(spec: str) -> list[str]:
    return [re.sub(r"(:\d+|\*)$", "", part.strip()) for part in spec.split(",") if part.strip()]


def variables(template: str) -> list[str]:
    """Every variable name of the template, in order, once."""
    found: list[str] = []
    for _operator, spec in _EXPRESSION.findall(template):
        found += [name for name in _names(spec) if name not in found]
    return found


def query_variables(template: str) -> list[str]:
    """The variables in ``{?...}`` and ``{&...}`` expressions: optional when expanding."""
    return [
        name
        for operator, spec in _EXPRESSION.findall(template)
        if operator in _QUERY_OPERATORS
        for name in _names(spec)
    ]


def expand(template: str, values: Mapping[str, str]) -> str:
    """The URI for ``values``; a missing path variable or an unknown name is a one-line error."""
    known = variables(template)
    unknown = [name for name in values if name not in known]
    if unknown:
        takes = ", ".join(known) or "no variables"
        raise ArgumentValidationError(
            f"The template {template} has no variable {', '.join(unknown)}. It takes: {takes}.", unknown
        )
    optional = query_variables(template)
    missing = [name for name in known if name not in values and name not in optional]
    if missing:
        raise ArgumentValidationError(
            f"The template {template} needs {', '.join(missing)}; give {' '.join(f'{m}=VALUE' for m in missing)}.",
            missing,
        )

    def one(match: re.Match[str]) -> str:
        operator = _OPERATORS[match.group(1)]
        parts = []
        for name in _names(match.group(2)):
            if name not in values:
                continue
            text = quote(str(values[name]), safe=_RESERVED if operator.allow_reserved else "")
            parts.append(f"{name}={text}" if operator.named and text else name if operator.named else text)
        return operator.first + operator.separator.join(parts) if parts else ""

    return _EXPRESSION.sub(one, template)


def _pattern(operator: str) -> str:
    if operator in ("+", "#"):
        return ".*"
    if operator == "/":
        return "(?:/[^?#]*)?"
    if operator in _QUERY_OPERATORS:
        return "(?:[?&].*)?"
    return "[^/?#]*"


def matches(template: str, uri: str) -> bool:
    """Whether ``uri`` could be an expansion of ``template`` (loosely)."""
    pattern, last = "", 0
    for match in _EXPRESSION.finditer(template):
        pattern += re.escape(template[last : match.start()]) + _pattern(match.group(1))
        last = match.end()
    pattern += re.escape(template[last:])
    return re.fullmatch(pattern, uri) is not None
