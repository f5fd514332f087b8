"""The runners of ``%mcp`` subcommands, by group: each takes the magic as a
:class:`~anvia_nb.magic.host.MagicHost` and a parsed command value (:mod:`anvia_nb.magic.parse`).

- ``connections`` (connect, servers, close; what a connect line describes) with
  ``config_files`` (``mcpServers`` files) and ``oauth`` (an OAuth connect, logout).
- ``calls`` (call, map, form, panel) with ``apps`` (``%mcp app``, a tool's interactive view).
- ``library`` (tools, resources, templates, prompts, read, prompt, subscribe).
- ``exchange`` (log, trace, history).
- ``warm``: the first call's one-time work, done while a connect waits for its server.

Names are imported from these modules: importing the room loads none of them (``oauth`` loads
the SDK's OAuth client, only for an OAuth connect).
"""

__all__: list[str] = []
