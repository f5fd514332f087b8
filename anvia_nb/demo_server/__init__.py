"""The MCP server bundled with anvia_nb, for notebooks, tests, workshops and the README.

Run it with ``python -m anvia_nb.demo_server`` (stdio) or ``python -m anvia_nb.demo_server --http
--port 0`` (streamable HTTP on 127.0.0.1). It sends every result exactly as built, including the
wrong ones (a ``structuredContent`` that breaks its ``outputSchema``, hostile text and images),
because clients must be tested against what real servers send, not only against what they should.

Its own package, beside the adapter: as a server it imports the MCP SDK's server side. This
``__init__`` imports nothing (``main`` loads the server when called): ``hostile`` and ``media``
are plain data usable without the SDK (the display tests render the hostile corpus directly).
"""

from __future__ import annotations

__all__ = ["main"]


def main() -> None:
    """The ``anvia-demo-server`` command: the same as ``python -m anvia_nb.demo_server``."""
    from anvia_nb.demo_server.cli import arguments

    args = arguments(None)  # a wrong option exits here, before the SDK is imported
    from anvia_nb.demo_server.server import run

    run(args)
