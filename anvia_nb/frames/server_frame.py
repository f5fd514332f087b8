"""``ServerFrame``: a DataFrame holding server text, whose HTML a front end's MathJax leaves alone.

Every frame of server data is one: a map's results, ``r.frame()`` and the magic's tables
(``%mcp servers``, ``%mcp tools``, ``%mcp history``...), so a tool named ``$\\text{OK ✔ safe}$``
reads as typed.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["ServerFrame"]


class ServerFrame(pd.DataFrame):
    """A DataFrame holding server text: its HTML carries pandas' not-math classes.

    For these frames only (and what is filtered from them), instead of changing the person's
    global ``display.html.use_mathjax``.
    """

    @property
    def _constructor(self) -> type[ServerFrame]:
        return ServerFrame

    def _repr_html_(self) -> str | None:
        with pd.option_context("display.html.use_mathjax", False):
            html: str | None = pd.DataFrame._repr_html_(self)  # type: ignore[attr-defined]  # pandas-stubs omit _repr_html_
        return html
