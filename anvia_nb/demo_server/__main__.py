"""``python -m anvia_nb.demo_server``: run the bundled demo MCP server (``--help`` for the options)."""

from anvia_nb.demo_server import main

if __name__ == "__main__":
    main()
