"""Recordings: a connection's exchange written to JSON Lines, and replayed with no server.
Built on ``core.transport`` and below.
"""

__all__: list[str] = []
