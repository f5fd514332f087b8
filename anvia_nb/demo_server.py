"""``python -m anvia_nb.demo_server``: the MCP server bundled with anvia_nb.

A shim: the server lives in :mod:`anvia_nb.core.demo`, because only ``anvia_nb.core`` may import
the MCP SDK. ``--help`` lists the options (stdio by default, ``--http --port 0`` for HTTP).
"""

from anvia_nb.core.demo.server import main

__all__ = ["main"]

if __name__ == "__main__":
    main()
