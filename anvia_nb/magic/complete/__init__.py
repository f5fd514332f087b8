"""Tab completion of ``%mcp`` lines, generated from the one table of subcommands.

- ``words``: each subcommand's next words, from the open connections and their tools' schemas.
- ``library``: ``read``, ``prompt`` and ``subscribe``: listed URIs, templates and prompts.

The table (:mod:`anvia_nb.magic.subcommands`) names these completers; the IPython matcher that
reads the table and offers their words is :mod:`anvia_nb.magic.matcher`, above it. Names are
imported from these modules.
"""

__all__: list[str] = []
