"""A units server shaped like the third-party ones issue 40 was found on, built with the SDK's
``MCPServer`` so its schemas are what pydantic writes: ``convert`` takes units whose names have
spaces (an enum), ``list_supported_units`` an optional enum (``anyOf: [{enum}, {type: null}]``),
and ``scale`` an optional ``Enum`` class (``anyOf: [{$ref}, {type: null}]``). Started as
``python units_server.py``."""

from __future__ import annotations

from enum import Enum
from typing import Literal

from mcp.server.mcpserver import MCPServer

UNITS = {"length": ["metre", "square metre", "light year"], "temperature": ["degrees Celsius", "kelvin"]}
Unit = Literal["metre", "square metre", "light year", "degrees Celsius", "kelvin"]


class Scale(Enum):
    SMALL = "very small"
    LARGE = "large"


app = MCPServer("units")


@app.tool()
def convert(value: float, from_unit: Unit, to_unit: Unit) -> str:
    """Convert a value (only to the same unit, in this small server)."""
    return f"{value} {to_unit}" if from_unit == to_unit else f"cannot convert {from_unit} to {to_unit}"


@app.tool()
def list_supported_units(unit_type: Literal["length", "temperature"] | None = None, scale: Scale | None = None) -> str:
    """The units of one type, or of every type."""
    kinds = [unit_type] if unit_type else list(UNITS)
    return ", ".join(unit for kind in kinds for unit in UNITS[kind])


if __name__ == "__main__":
    app.run()
