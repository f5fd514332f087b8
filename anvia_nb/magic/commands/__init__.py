"""The runners of ``%mcp`` subcommands, by group: each takes the magic as a
:class:`~anvia_nb.magic.commands.host.MagicHost` (``host``: what a runner needs of the magic, a
Protocol) and a parsed command value (:mod:`anvia_nb.magic.parse`). The table
(:mod:`anvia_nb.magic.subcommands`) and ``McpMagics`` sit above them; none imports either.

- ``connections`` (connect, servers, close; what a connect line describes) with
  ``config_files`` (``mcpServers`` files) and ``oauth`` (an OAuth connect, logout).
- ``calls`` (call, map, form, panel) with ``apps`` (``%mcp app``, a tool's interactive view).
- ``library`` (tools, resources, templates, prompts, read, prompt, subscribe).
- ``exchange`` (log, trace, history).

Names are imported from these modules: importing the room loads none of them (``oauth`` loads
the SDK's OAuth client, only for an OAuth connect).
"""

__all__: list[str] = []
