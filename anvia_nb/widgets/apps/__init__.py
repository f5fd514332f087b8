"""A tool's interactive view (MCP Apps) in a notebook.

- :mod:`~anvia_nb.widgets.apps.view`: :class:`AppView`, the view with the call's input and result;
- :mod:`~anvia_nb.widgets.apps.frame`: :class:`AppFrame`, the sandboxed view (an anywidget whose
  JavaScript, ``frame.js`` and the sandbox proxy's ``proxy.js``, sits beside it and ships as package
  data) and the kernel end of its channel.

The modules are imported by name (``anywidget`` is loaded only when a view is shown);
:mod:`anvia_nb.widgets` re-exports :class:`AppView` and ``app``.
"""

from __future__ import annotations

__all__: list[str] = []
