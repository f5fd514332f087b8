"""The pure parser of ``%mcp`` lines: words to frozen command values, apart from running them (as
JupySQL does). No IPython, no connections, no I/O, so the grammar is tested without a kernel and
the runners (:mod:`anvia_nb.magic.commands`) only ever see well-formed commands. Which grammar
reads which subcommand is decided by the one table, :mod:`anvia_nb.magic.subcommands`.

- ``words``: splitting a line, options, near misses, seconds, the one connection name.
- ``commands``: the command values most subcommands share.
- ``arguments`` and ``variables``: tool arguments typed in a line (JSON, ``key=value``,
  ``key=$var``), and the one rule for ``$name``.
- ``call`` (call, app, map, form), ``connect`` (connect, close), ``library`` (tools, resources,
  templates, prompts, panel, read, prompt, subscribe), ``exchange`` (log, trace, history).
- ``oauth`` with ``oauth_machine`` and ``oauth_words``: the OAuth options of connect, and logout.

Names are imported from these modules: importing the room loads none of them (``oauth`` loads
the OAuth settings, which ``%load_ext`` and ``%mcp help`` must not pay for).
"""

__all__: list[str] = []
