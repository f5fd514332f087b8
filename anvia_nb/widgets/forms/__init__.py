"""One tool as a form: what ``form()`` and ``%mcp form`` give.

- :mod:`~anvia_nb.widgets.forms.tool_form`: :class:`ToolForm`, the arguments form with Call,
  progress, Cancel and the result;
- :mod:`~anvia_nb.widgets.forms.argument_memory`: the arguments last sent, per (server, tool);
- :mod:`~anvia_nb.widgets.forms.link_reads`: buttons that read a result's resource links on request;
- :mod:`~anvia_nb.widgets.forms.unavailable`: what ``form()`` gives for a name, and the form of a
  tool whose connection never opened.

The modules are imported by name (``from anvia_nb.widgets.forms.tool_form import ToolForm``);
:mod:`anvia_nb.widgets` re-exports what users import, loaded on first use.
"""

from __future__ import annotations

__all__: list[str] = []
