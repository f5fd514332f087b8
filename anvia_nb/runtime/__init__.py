"""The runtime: one background event loop that owns every session opened by sync callers."""

from anvia_nb.runtime.loop import BackgroundLoop, for_a_blocked_caller
from anvia_nb.runtime.sessions import Connected, Runtime, Scope, SessionEntry, get_runtime

__all__ = ["BackgroundLoop", "Connected", "Runtime", "Scope", "SessionEntry", "for_a_blocked_caller", "get_runtime"]
