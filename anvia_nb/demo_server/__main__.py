"""``python -m anvia_nb.demo_server``: run the bundled demo MCP server (``--help`` for the options)."""

from anvia_nb.demo_server import main

__all__: list[str] = []

if __name__ == "__main__":
    main()
