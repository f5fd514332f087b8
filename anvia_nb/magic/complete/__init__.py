"""Tab completion of ``%mcp`` lines, generated from the one table of subcommands.

- ``matcher``: the IPython matcher (API v2) that ``%load_ext anvia_nb`` registers.
- ``words``: each subcommand's next words, from the open connections and their tools' schemas.
- ``library``: ``read``, ``prompt`` and ``subscribe``: listed URIs, templates and prompts.

Names are imported from these modules (``matcher`` reads the table, which reads ``words``).
"""

__all__: list[str] = []
