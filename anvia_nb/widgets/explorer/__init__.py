"""The explorer: :class:`Panel`, connections, tools, the form, results and history in one widget.

- :mod:`~anvia_nb.widgets.explorer.panel`: :class:`Panel` itself;
- :mod:`~anvia_nb.widgets.explorer.scope`: what a panel may show (one connection, chosen tools,
  resources and prompts) and the check, in the kernel, of what a browser asks for;
- :mod:`~anvia_nb.widgets.explorer.layout`: rows, lists and tabs that fit a narrow notebook;
- :mod:`~anvia_nb.widgets.explorer.listing`: a server's long listings, bounded;
- the tabs: :mod:`~anvia_nb.widgets.explorer.resources_tab` (with its
  :mod:`~anvia_nb.widgets.explorer.subscribe_toggle`), :mod:`~anvia_nb.widgets.explorer.prompts_tab`,
  :mod:`~anvia_nb.widgets.explorer.exchange_tabs` (Server, Log, Trace) and
  :mod:`~anvia_nb.widgets.explorer.history_export` ("Save as pytest").

The package is named ``explorer``, not ``panel``, so that importing it never replaces the function
:func:`anvia_nb.widgets.panel`; :class:`Panel` is imported from
:mod:`~anvia_nb.widgets.explorer.panel` (or :mod:`anvia_nb.widgets`, loaded on first use).
"""

from __future__ import annotations

__all__: list[str] = []
