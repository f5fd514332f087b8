"""What a person answers while a call or a connect waits: a server's requests for input
(elicitation) and the OAuth sign-in. (An MCP *prompt*, a server's message template, is the
explorer's Prompts tab: :mod:`anvia_nb.widgets.explorer.prompts_tab`.)

- :mod:`~anvia_nb.widgets.prompts.elicitation`: who answers a request (a form, a cell, a
  callback) and :func:`enable_elicitation`;
- :mod:`~anvia_nb.widgets.prompts.elicitation_prompt`: one request as a person sees it;
- :mod:`~anvia_nb.widgets.prompts.in_form` and :mod:`~anvia_nb.widgets.prompts.in_cell`: the
  requests a form shows while its call runs, and those shown in a cell's output;
- :mod:`~anvia_nb.widgets.prompts.oauth`: the OAuth link of a connect and a box for the redirected URL.

The modules are imported by name; :mod:`anvia_nb.widgets` re-exports what users import.
"""

from __future__ import annotations

__all__: list[str] = []
