"""anvia_nb beside the MCP SDK and its peers: ``python -m benchmarks`` (see run.py)."""
