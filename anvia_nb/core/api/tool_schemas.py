"""A tool's two schemas as checks: its arguments against the ``inputSchema`` before they are sent, and
the ``structuredContent`` of its results against the ``outputSchema``. Each schema is compiled once
(:func:`~anvia_nb.core.protocol.schema.schema_check`) and kept with the tool, since finding a
compiled check again means serializing the schema, on every call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from anvia_nb.core.protocol.mapping import arguments_from_input
from anvia_nb.core.protocol.schema import SchemaCheck, argument_problems, output_problems, schema_check
from anvia_nb.core.protocol.types import JsonObject, ToolInfo
from anvia_nb.errors import ArgumentValidationError

__all__ = ["ToolSchemas"]


class ToolSchemas:
    """The checks of one listed tool's ``inputSchema`` and ``outputSchema``, each compiled on first use.

    Parameters
    ----------
    info : ToolInfo
        The tool as listed.
    """

    def __init__(self, info: ToolInfo) -> None:
        self._info = info
        self._checks: dict[str, SchemaCheck] = {}

    def argument_problems(self, arguments: Mapping[str, Any] | None) -> list[str]:
        """Problems of ``arguments`` against the inputSchema, one line each; ``[]`` when valid."""
        return argument_problems(self._check("input", self._info.input_schema), dict(arguments or {}))

    def checked(self, arguments: object, server: str) -> JsonObject | None:
        """``arguments`` as sent; raises :class:`ArgumentValidationError` when they do not match the
        inputSchema (``server`` names the connection in its message)."""
        sent = arguments_from_input(arguments)
        problems = self.argument_problems(sent)
        if problems:
            raise ArgumentValidationError(
                f"Arguments for {server}.{self._info.name} do not match its inputSchema: " + "; ".join(problems),
                problems,
            )
        return sent

    def output_problems(self, raw: JsonObject) -> list[str] | None:
        """Problems of a result's ``structuredContent`` against the outputSchema, one line each: ``[]``
        when it matches, ``None`` without an outputSchema or for a tool error (``isError``)."""
        schema = self._info.output_schema
        if schema is None:
            return None
        if raw.get("isError"):
            return None
        if "structuredContent" not in raw:
            return ["the tool declares an outputSchema but sent no structuredContent"]
        return output_problems(self._check("output", schema), raw["structuredContent"])

    def _check(self, which: Literal["input", "output"], schema: JsonObject) -> SchemaCheck:
        """The schema's compiled check from the one cache (:func:`schema_check`), kept here."""
        check = self._checks.get(which)
        if check is None:
            check = self._checks[which] = schema_check(schema)
        return check
