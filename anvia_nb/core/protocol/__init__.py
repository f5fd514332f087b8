"""The protocol's rules as plain data: protocol versions, bounds, the types that cross layers,
content kinds, Anvia's result mapping, JSON values, schema checks, URI templates, roots and
sampling replies. Imports nothing of the SDK at module level and nothing of the rooms above it
(``exchange``, ``transport``, ``recording``, ``api``).
"""

__all__: list[str] = []
