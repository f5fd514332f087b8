"""What ``%mcp`` shows: DataFrames, lines and notes, every server string through the
:class:`~anvia_nb.policy.ShowPolicy`.

- ``tables`` (servers, tools, history), ``library_tables`` (resources, templates, prompts) and
  ``exchange`` (log, trace): the DataFrames, values rather than printouts.
- ``connect_text``: the lines ``%mcp connect`` prints; ``changes``: the note of a changed tool list;
  ``logs``: a server's log as text; ``help``: the words of ``%mcp help``.
- ``cell``: warnings and notices written into the running cell.

Names are imported from these modules: the DataFrame ones load pandas, the others do not.
"""

__all__: list[str] = []
