"""Our stdio transport: a server started as a child process, its stdout read as bounded lines
(``pipe_lines``), the process group stopped with everything it started (``process``), and the
launch that opens a session over it (``transport``: :class:`~anvia_nb.core.transport.stdio.transport.StdioLaunch`)."""

__all__: list[str] = []
