"""What a connection exchanged and what its server said of itself: the protocol trace
(every JSON-RPC message, bounded) and the server's log (stderr and log messages). Built on
``core.protocol`` only.
"""

__all__: list[str] = []
