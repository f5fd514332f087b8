"""The MCP server bundled with anvia_nb, for notebooks, tests, workshops and the README.

Run it with ``python -m anvia_nb.demo_server`` (stdio) or ``python -m anvia_nb.demo_server --http
--port 0`` (streamable HTTP on 127.0.0.1). It sends every result exactly as built, including the
wrong ones (a ``structuredContent`` that breaks its ``outputSchema``, hostile text and images),
because clients must be tested against what real servers send, not only against what they should.

This package's ``__init__`` imports nothing: ``hostile`` and ``media`` are plain data usable without
the MCP SDK (the display tests render the hostile corpus directly).
"""
