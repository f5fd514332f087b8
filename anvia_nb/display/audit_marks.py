"""The line under the panel's tool list that says how many tools the audit flagged, the reasons in
its tooltip (a ``title``): pure, our words and check ids in, escaped markup out."""

from __future__ import annotations

from anvia_nb.display._html import element
from anvia_nb.policy import NOT_MATH_CLASSES

__all__ = ["flagged_line_html"]


def flagged_line_html(summary: str, reasons: str) -> str:
    """A warning line reading ``summary``, with ``reasons`` as its tooltip (both escaped, never typeset).

    Parameters
    ----------
    summary : str
        What is shown (``⚠ 14 of 24 tools flagged by the audit ...``).
    reasons : str
        The tooltip: each flagged tool and its checks, one a line.

    Returns
    -------
    str
        HTML for an ``ipywidgets.HTML``; empty when ``summary`` is.
    """
    if not summary:
        return ""
    return element("div", summary, cls=f"anvia-notice {NOT_MATH_CLASSES}", style="header-warn", title=reasons).markup
