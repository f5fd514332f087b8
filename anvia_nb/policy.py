"""What may be shown of a server's data: the one policy every surface goes through.

A :class:`ShowPolicy` is built once per connection and settings (the connection's secrets, the
named limits, whether server error text is hidden from viewers) and every surface that shows
server data -- results, DataFrames, forms, the panel, logs, errors, connection targets -- asks it,
instead of carrying its own mask, literal limit or ``hide_server_errors`` test.

With ``hide_server_errors`` on, the page is for *viewers* (a notebook served with Voilà, a
dashboard): every message about a server is said in plain words by :meth:`ShowPolicy.viewer_line`
(what happened; nothing to type, no server text, no class names), while the author's details stay
on the exception objects and in ``%mcp log``. That one switch and that one method are the rule.

Stdlib only (and :mod:`anvia_nb.errors`): core, display, widgets and magic may all import it.
Which errors are about a server is read from their structure by :mod:`anvia_nb._server_errors`.
Core only *discovers* which values are secrets (``connection.secrets``); masking lives here (the
forms a secret takes in output are listed by :mod:`anvia_nb._secret_forms`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, overload

from anvia_nb._secret_forms import secret_forms
from anvia_nb._server_errors import about_a_server, quotes_a_server
from anvia_nb._visible import SPECIAL, Measure, Prepared, cut, joined_slice, merged_spans
from anvia_nb.errors import ConnectError, ConnectionClosedError, UnknownConnectionError

__all__ = [
    "HIDDEN_SERVER_ERROR",
    "MASK",
    "MIN_SECRET_CHARS",
    "NOT_MATH_CLASSES",
    "Limits",
    "Prepared",
    "ShowPolicy",
    "about_a_server",
    "maskable",
    "quotes_a_server",
    "secret_variants",
]

MASK = "••••••"
MIN_SECRET_CHARS = 6
"""Shorter values are not masked: a value such as ``1`` or ``v2`` is no secret, masking it would
shred every number, date and version it occurs in, and the dots would spell out where it was."""
NOT_MATH_CLASSES = "tex2jax_ignore mathjax_ignore"
"""Classes that keep a front end's MathJax from typesetting an element's text (JupyterLab
honours ``mathjax_ignore``, classic Notebook ``tex2jax_ignore``): set on every output holding
server text, so ``$\\href{...}{OK}$`` stays characters."""
HIDDEN_SERVER_ERROR = "The server reported an error."
"""What a viewer reads instead of a server's error text (the error object keeps the details)."""


@dataclass(frozen=True)
class Limits:
    """Named limits, in characters unless the name says otherwise."""

    output_chars: int = 20_000
    """Server text rendered for one result: characters the server sent, not layout."""
    preview_chars: int = 2_000
    """Preview of one embedded resource, and of the arguments a form will send."""
    image_bytes: int = 5 * 1024 * 1024
    """Inline images, each and all of one result together."""
    name_chars: int = 200
    """A server, tool, field, option or resource name; a label; a fixed argument's value in a form."""
    line_chars: int = 500
    """A one-line text: a title, a problem, an error line, a table cell."""
    text_chars: int = 4_000
    """A longer text the server wrote outside a result: a description, a message, a URL, a log line."""
    option_chars: int = 80
    """One entry of a list or dropdown: a tool's label, a history row's arguments."""
    log_chars: int = 20_000
    """How much of a connection's log is read."""
    blocks: int = 200
    """Content items rendered for one result; the rest are counted, visibly."""
    markers: int = 1_000
    """Special characters marked in one result (each is styled markup); the text is cut after them."""
    json_depth: int = 64
    """Nesting shown of a JSON value."""
    prompts: int = 5
    """A server's requests for input shown at once in one form; more are cancelled, and counted."""
    choices: int = 500
    """Options one dropdown or list carries to the browser; a longer enum is typed, and checked."""
    form_fields: int = 400
    """Fields one form holds (each is a widget in the browser); past it an object is one JSON field."""
    form_depth: int = 12
    """Nesting one form builds (a ref graph can double each level); deeper is one JSON field."""
    page_fields: int = 20
    """Fields of a large object built at once; the others are built when their page is opened."""
    example_depth: int = 4
    """Nesting of the example a JSON box suggests (sketched from its schema)."""
    example_keys: int = 6
    """Keys of one object in that example."""
    example_chars: int = 300
    """Characters of that example (one line)."""
    panel_lines: int = 100
    """Log lines and trace messages the panel's tabs show (``%mcp log`` and ``%mcp trace`` show all)."""
    log_lines: int = 50
    """Lines of stderr, and of log messages, ``%mcp log`` shows when not told ``--lines N``."""
    error_lines: int = 40
    """Lines of a failed connect's text shown (the server's stderr tail is already bounded)."""
    noted_requests: int = 10
    """Message numbers one ``%mcp trace`` note names (the calls a tool's interactive view asked for)."""
    variable_names: int = 200
    """Kernel variables Tab offers after ``key=$``."""
    evidence_chars: int = 400
    """Characters of one audit finding's evidence (the offending text made visible); the rest is counted."""
    evidence_context_chars: int = 60
    """Characters of a definition's text an audit finding quotes either side of what it found."""
    evidence_places: int = 3
    """Places in one item an audit finding quotes before "and N more"; a capability flow's tools per role."""


def maskable(value: object) -> bool:
    """Whether a value is long enough to be masked as a secret (see :data:`MIN_SECRET_CHARS`)."""
    return isinstance(value, str) and len(value.strip()) >= MIN_SECRET_CHARS


def secret_variants(secrets: Iterable[str]) -> tuple[str, ...]:
    """Each secret as it may appear in output: as is, as Python's repr writes it (quotes and
    backslashes escaped), each of those HTML-escaped, and JSON-escaped, URL-encoded.

    Longest first, so a secret that contains another is masked whole.
    """
    variants: set[str] = set()
    for secret in secrets:
        if maskable(secret):
            variants |= secret_forms(secret)
    return tuple(sorted(variants, key=lambda v: (-len(v), v)))


@dataclass(frozen=True)
class ShowPolicy:
    """Secrets to mask, limits to respect, and whether server error text is hidden."""

    secrets: frozenset[str] = frozenset()
    hide_server_errors: bool = False
    limits: Limits = field(default_factory=Limits)

    def with_secrets(self, secrets: Iterable[str]) -> ShowPolicy:
        """This policy, also masking ``secrets`` (e.g. one connection's); values too short to be
        secrets (under :data:`MIN_SECRET_CHARS`) are not masked."""
        added = frozenset(s for s in secrets if maskable(s)) - self.secrets
        return replace(self, secrets=self.secrets | added) if added else self

    @cached_property
    def _variants(self) -> tuple[str, ...]:
        return secret_variants(self.secrets)

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        variants = self._variants
        return re.compile("|".join(map(re.escape, variants))) if variants else None

    # -- masking ---------------------------------------------------------------------------

    def mask(self, text: str) -> str:
        """``text`` with every secret (and its escaped forms) replaced by :data:`MASK`."""
        pattern = self._pattern
        return text if pattern is None else pattern.sub(MASK, text)

    @overload
    def mask_json(self, value: dict[str, Any]) -> dict[str, Any]: ...

    @overload
    def mask_json(self, value: object) -> object: ...

    def mask_json(self, value: object) -> object:
        """A copy of a JSON value with secrets masked in every string, keys included (an object
        stays an object, a tuple becomes a list); a value of no JSON type is given back as it is."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.mask(value)
        if isinstance(value, dict):
            return {(self.mask(k) if isinstance(k, str) else k): self.mask_json(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.mask_json(v) for v in value]
        return value

    # -- cutting ---------------------------------------------------------------------------

    def prepare(
        self,
        text: str,
        limit: int,
        *,
        measure: Measure = "source",
        max_markers: int | None = None,
        also_masked: Sequence[tuple[int, int]] = (),
    ) -> Prepared:
        """``text`` cut to ``limit``, secrets masked (a secret across the cut too), specials marked.

        ``measure="source"`` counts the characters the server sent (a result); ``"shown"`` the
        characters shown (a label's width). ``hidden_chars`` is exact either way. ``also_masked``
        are spans to mask as well: the parts of a secret split across texts shown one after
        another (see :meth:`split_secrets`).
        """
        limit = max(0, limit)
        pattern = self._pattern  # below: nothing to cut, mark or mask (a usual result), given as cut gives it
        whole = len(text) <= limit and not also_masked and SPECIAL.search(text) is None
        if whole and (pattern is None or pattern.search(text) is None):
            return Prepared(((False, text),) if text else (), 0, len(text))
        # Read only as far as the limit can reach; secrets are looked for one secret further.
        reach = min(len(text), (limit if measure == "source" else 4 * limit) + 8)
        spans: list[tuple[int, int]] = []
        if pattern is not None:
            spans = [m.span() for m in pattern.finditer(text, 0, reach + len(self._variants[0]))]
            spans = merged_spans([*spans, *also_masked])
            spans = [s for s in spans if s[0] < reach]
            reach = max([reach, *(end for _, end in spans)])
        prepared = cut(text[:reach], limit, spans, MASK, measure=measure, max_markers=max_markers)
        if reach == len(text):  # all of it was read: nothing more is hidden (the usual small result)
            return prepared
        return replace(prepared, hidden_chars=prepared.hidden_chars + len(text) - reach)

    def split_secrets(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        """For texts shown one after another, the spans of each that hold part of a secret split
        across them ("sk-live-" in one text item, "a1b2c3d4" in the next); per text, in its own
        offsets. Only the seams are read: cost follows the number of texts, not their length.
        """
        found: list[set[tuple[int, int]]] = [set() for _ in texts]
        pattern = self._pattern
        if pattern is None or len(texts) < 2:
            return [[] for _ in texts]
        reach = len(self._variants[0]) - 1
        starts = [0]
        for text in texts:
            starts.append(starts[-1] + len(text))
        for seam in starts[1:-1]:
            low, high = max(0, seam - reach), min(starts[-1], seam + reach)
            window = joined_slice(texts, starts, low, high)
            for match in pattern.finditer(window):
                start, end = low + match.start(), low + match.end()
                if start < seam < end:
                    for index, text_start in enumerate(starts[:-1]):
                        left, right = max(start, text_start), min(end, starts[index + 1])
                        if left < right:
                            found[index].add((left - text_start, right - text_start))
        return [sorted(spans) for spans in found]

    @staticmethod
    def not_math(text: str) -> str:
        """Text whose ``$``, ``$$``, ``\\(`` and ``\\[`` a front end's MathJax shows as characters.

        For the places where :data:`NOT_MATH_CLASSES` cannot be set (an ipywidgets description is
        typeset on its own): backslashes and dollars are escaped as TeX's processEscapes reads
        them, so the typeset text reads exactly as the server sent it and no math is made.
        """
        return text.replace("\\", "\\\\").replace("$", "\\$")

    def head(self, text: str, limit: int) -> tuple[str, int]:
        """The first ``limit`` characters the server sent, masked, specials kept (for JSON values).

        A secret across the cut is left out whole. Returns the head and how many characters were
        left out (exact).
        """
        limit = max(0, limit)
        pattern = self._pattern
        if pattern is None:
            return text[:limit], max(0, len(text) - limit)
        parts: list[str] = []
        kept = 0
        straddles = False
        for match in pattern.finditer(text, 0, min(len(text), limit + len(self._variants[0]))):
            start, end = match.span()
            if start >= limit:
                break
            parts.append(text[kept:start])
            kept = start
            if end > limit:
                straddles = True
                break
            parts.append(MASK)
            kept = end
        if not straddles:
            parts.append(text[kept:limit])
            kept = max(kept, min(limit, len(text)))
        return "".join(parts), len(text) - kept

    def visible(self, text: object, limit: int | None = None) -> str:
        """Plain text fit to show, no ``…``: masked, specials visible, at most ``limit`` shown characters."""
        value = text if isinstance(text, str) else str(text)
        if limit is None:
            limit = len(value) * 16 + 16  # every character may become a marker
        return self.prepare(value, limit, measure="shown").plain

    def line(self, text: object, limit: int | None = None) -> str:
        """One text fit to show: masked, specials visible, cut to ``limit`` (default line_chars) with ``…``."""
        value = text if isinstance(text, str) else str(text)
        limit = self.limits.line_chars if limit is None else limit
        if (
            len(value) <= limit
            and SPECIAL.search(value) is None
            and (self._pattern is None or self._pattern.search(value) is None)
        ):
            return value  # nothing to mark, mask or cut (most names and descriptions): shown as is
        prepared = self.prepare(value, limit, measure="shown")
        if not prepared.hidden_chars:
            return prepared.plain
        return self.prepare(value, max(0, limit - 1), measure="shown").plain + "…"

    def name(self, text: object) -> str:
        """A name (server, tool, field, uri) as it may be shown: :meth:`line` at ``name_chars``."""
        if text.__class__ is str and len(text) <= self.limits.name_chars:
            names = self._names  # the same few on every result (issue 41): each made once
            shown = names.get(text)
            if shown is None:
                shown = self.line(text, self.limits.name_chars)
                if len(names) < 256:
                    names[text] = shown
            return shown
        return self.line(text, self.limits.name_chars)

    @cached_property
    def _names(self) -> dict[str, str]:
        """Names as :meth:`name` showed them. A policy is never changed, only made anew for other
        secrets or settings, so none is shown as an older policy masked it."""
        return {}

    def title(self, text: object) -> str:
        """A title or one-line text: :meth:`line` at ``line_chars``."""
        return self.line(text, self.limits.line_chars)

    def text(self, text: object) -> str:
        """A longer text (description, message, log line): :meth:`line` at ``text_chars``."""
        return self.line(text, self.limits.text_chars)

    # -- server errors ---------------------------------------------------------------------

    def hides(self, error: BaseException | None = None) -> bool:
        """Whether server error text is hidden from viewers: any (no ``error``), or that of ``error``.

        The one place ``hide_server_errors`` is decided: with it on, a log (``error=None``) and
        any error about a server (see :func:`about_a_server`) are said by :meth:`viewer_line`.
        """
        return self.hide_server_errors and (error is None or about_a_server(error))

    @property
    def for_viewers(self) -> bool:
        """Whether the page is for viewers (``hide_server_errors``): messages in their words."""
        return self.hide_server_errors

    def viewer_line(self, error: BaseException | None = None, server: str = "") -> str:
        """What a viewer reads about a server: what happened, in plain words, nothing to type.

        ``error=None``: the server is not connected (it never opened, or it was closed). A
        connect that failed, a server that stopped, a call that timed out and a server's own error
        each have their sentence; no server text, path, class name or command is ever in it.
        """
        name = server or str(getattr(error, "server", "") or "")
        who = f"The server “{self.name(name)}”" if name else "The server"
        if isinstance(error, ConnectError):
            return f"{who} could not be started, so the parts of this page that use it are not available."
        if isinstance(error, ConnectionClosedError):
            return f"{who} stopped, so this is not available now."
        if error is None or isinstance(error, UnknownConnectionError):
            return f"{who} is not available right now."
        if isinstance(error, TimeoutError):
            return f"{who} did not answer in time."
        return HIDDEN_SERVER_ERROR

    def server_error(self, text: str) -> str:
        """Error text that came from a server, as a viewer may see it."""
        return HIDDEN_SERVER_ERROR if self.hide_server_errors else self.line(text)

    def error_line(self, error: BaseException, limit: int | None = None, *, kind: bool = False) -> str:
        """An error as one line a person may see; its class name first when ``kind``.

        When it is about a server and server errors are hidden, the line is the viewer's
        (:meth:`viewer_line`).
        """
        name = type(error).__name__
        if self.hides(error):
            return self.viewer_line(error)
        message = " ".join(str(error).split())
        if kind or not message:
            message = f"{name}: {message}" if message else name
        return self.line(message, limit)
