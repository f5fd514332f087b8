"""The panel's Audit tab and the marks on flagged tools: what ``%mcp audit`` finds, where people look.

The checks run over the listings of every open connection at once (shadowing, look-alike names
and flows look across servers: ``anvia_nb.core.audit.checks.audit_definitions``), on what is
already listed (the server's instructions and serverInfo, its tools: nothing is asked of the
server), once per listing: a filter keystroke or a repaint reads the findings kept, a
``list_changed``, a new connection or a changed lock file computes them again. Prompts, resources
and templates, and the pins' differences, are ``%mcp audit``'s (it lists them); a tool the pins
refused since it changed (``server.refused``) is marked here too.

Each flagged tool (a finding at ``medium`` or above, not accepted in the lock file that
``%config McpMagics.lock_file`` names) gets a mark before its name in the Tools list: its worst
severity. A line under the list counts them,
each one's reasons (check ids and severities, our words) in its tooltip, and a line above the
chosen tool's form says why it is flagged. The tab
lists the chosen connection's findings as ``%mcp audit`` does (severity, check, kind, item,
evidence, advice, accepted) in the server-text box the Server and Log tabs use: every server
string through the policy (masked, hidden characters made visible), escaped, never typeset.

For viewers (viewer mode, ``widgets/viewer_page.py``) the marks stay, since a person using a tool
should know it was flagged, but nothing the author did not name is shown: only findings on the
tools the panel offers, as check, severity and item, without the evidence (the server's own
words) or the advice (commands to type).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from anvia_nb.core import McpServer, Tool
from anvia_nb.core.audit.checks import audit_definitions
from anvia_nb.core.audit.definitions import Definition, Finding, definitions_of
from anvia_nb.core.audit.flags import WARNED
from anvia_nb.core.audit.found import RANK, worst
from anvia_nb.core.audit.pins import LOCK_FILE_NAME, Lock, read_lock
from anvia_nb.core.audit.report import review
from anvia_nb.display.audit_marks import flagged_line_html
from anvia_nb.display.chrome import OPTION_CHARS, notice_html, server_text_html
from anvia_nb.errors import AnviaError
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime
from anvia_nb.widgets._chrome import plain
from anvia_nb.widgets.explorer.scope import PanelScope
from anvia_nb.widgets.viewer_page import kernel_lock_file

__all__ = ["MARK", "AuditTab", "tool_label"]

MARK = "⚠"
"""What precedes a flagged tool's name in the list, with its worst severity."""

_CHANGED = "changed-since-pinned (high): refused until pinned again"


def tool_label(tool: Tool, secrets: tuple[str, ...], mark: str = "") -> str:
    """A tool's line in the list: its mark (if flagged), name and title, as plain text."""
    title = tool.info.shown_title
    label = mark + plain(tool.name, secrets, OPTION_CHARS)
    if isinstance(title, str) and title and title != tool.name:
        label += f" — {plain(title, secrets, OPTION_CHARS)}"
    return label


def _definitions(server: McpServer) -> list[Definition]:
    client = server.client
    try:
        instructions, info = client.instructions, client.server_info
    except AnviaError:  # closed: its tools are what is left to read
        instructions, info = None, None
    return definitions_of(
        server.name, instructions=instructions, server_info=info, tools=[t.info for t in server.tools]
    )


class AuditTab:
    """The Audit tab (``.widget``), the marks of the Tools list and the line above a flagged
    tool's form (``.note``), for the panel's chosen connection."""

    def __init__(self, runtime: Runtime, scope: PanelScope, policy: ShowPolicy) -> None:
        self.runtime = runtime
        self.scope = scope
        self.policy = policy
        self.computed = 0
        """How many times the findings were computed (once per listing change, not per repaint)."""
        self.findings: list[Finding] = []
        """The chosen connection's findings (for viewers: on the tools offered), most severe first."""
        self._key: tuple[Any, ...] = ()  # any: each open connection's name and listing (compared by identity)
        self._every: list[Finding] = []
        self._lock: Lock | None = None
        self._server: McpServer | None = None
        self._flagged: dict[str, list[tuple[str, str]]] = {}
        self.table = widgets.HTML(value="")
        self.note = widgets.HTML(value="")
        self.marks = widgets.HTML(value="")
        self.lines = widgets.VBox([self.marks, self.note])
        """The flagged-tools line (reasons in its tooltip) and the chosen tool's note, under the Tools list."""
        self.widget = widgets.VBox([self.table])

    # -- what the panel asks ------------------------------------------------------------------------

    def show(self, server: McpServer | None) -> None:
        """Audit the open connections if a listing changed since, and show ``server``'s findings."""
        servers = [self.runtime.server(name) for name in self.runtime.names()]
        lock_file = kernel_lock_file(LOCK_FILE_NAME)
        try:
            stamp = os.stat(lock_file).st_mtime_ns
        except OSError:
            stamp = None
        key = ((lock_file, stamp), *((s.name, s.tools) for s in servers))
        if not self._same(key):
            self._key = key
            self.computed += 1
            every: list[Definition] = []
            for each in servers:
                every += _definitions(each)
            self._every = audit_definitions(every)
            try:
                self._lock = read_lock(lock_file) if stamp is not None else None
            except AnviaError:
                self._lock = None  # %mcp audit says what is wrong with it
        self._server = server
        self.findings = [] if server is None else self._of(server)
        self._flagged = self._flag(server)
        self._render()

    def mark(self, tool: str) -> str:
        """The mark before ``tool``'s name: ``⚠ high · ``, or ``""`` when it is not flagged."""
        reasons = self._reasons(tool)
        return f"{MARK} {reasons[0][0]} · " if reasons else ""

    def show_marks(self, shown: Sequence[str]) -> None:
        """The line under the Tools list: how many of ``shown`` are flagged, each one's reasons in its tooltip."""
        flagged = [name for name in shown if self._reasons(name)]
        reasons = "\n".join(f"{plain(name)}: {self._why(name)}" for name in flagged)
        summary = f"{MARK} {len(flagged)} of {len(shown)} tools flagged by the audit: hover here for the reasons"
        self.marks.value = flagged_line_html(summary if flagged else "", reasons)

    def show_note(self, tool: str | None) -> None:
        """The line above the chosen tool's form: why it is flagged (nothing when it is not)."""
        if tool is None or not self._reasons(tool):
            self.note.value = ""
            return
        why = self._why(tool)
        text = f"{MARK} {plain(tool)} is flagged by the audit: {why}. See the Audit tab."
        self.note.value = notice_html(text, warn=True)

    # -- internals ----------------------------------------------------------------------------------

    def _same(self, key: tuple[Any, ...]) -> bool:  # any: see _key
        if len(key) != len(self._key) or key[0] != self._key[0]:
            return False
        return all(a[0] == b[0] and a[1] is b[1] for a, b in zip(key[1:], self._key[1:], strict=True))

    def _of(self, server: McpServer) -> list[Finding]:
        found = [f for f in self._every if f.server == server.name]
        if self.policy.for_viewers:  # nothing the author did not name
            found = [f for f in found if f.kind == "tool" and self.scope.allows(f.item)]
        return found

    def _reasons(self, tool: str) -> list[tuple[str, str]]:
        """``tool``'s (severity, reason) at ``medium`` or above, worst first."""
        return self._flagged.get(tool, [])

    def _flag(self, server: McpServer | None) -> dict[str, list[tuple[str, str]]]:
        """Each flagged tool's (severity, reason) at ``medium`` or above, worst first: read once per show."""
        flagged: dict[str, list[tuple[str, str]]] = {}
        for f in self.findings:
            accepted = self._lock is not None and self._lock.accepted_reason(f) is not None
            if f.kind == "tool" and RANK[f.severity] <= RANK[WARNED] and not accepted:
                flagged.setdefault(f.item, []).append((f.severity, f"{f.check} ({f.severity})"))
        for tool in server.refused if server is not None else ():
            if self.scope.allows(tool):
                flagged.setdefault(tool, []).insert(0, ("high", _CHANGED))
        return {tool: sorted(reasons, key=lambda r: RANK[r[0]]) for tool, reasons in flagged.items()}

    def _why(self, tool: str) -> str:
        return ", ".join(dict.fromkeys(reason for _severity, reason in self._reasons(tool)))

    def _render(self) -> None:
        server = self._server
        if server is None:
            self.table.value = notice_html("No connection chosen.")
            return
        name = plain(server.name)
        if not self.findings:
            self.table.value = notice_html(f"The audit found nothing in what {name} listed.")
            return
        shown = self.policy.with_secrets(server.secrets)
        accepted = review(self.findings, self._lock)
        lines = []
        for r in accepted:
            f = r.finding
            lines.append(f"{f.severity:<6}  {f.check}  {f.kind} {f.item}")
            if not shown.for_viewers:  # the server's words and commands to type are the author's
                lines += [f"    evidence: {f.evidence}", f"    advice: {f.advice}"]
                lines += [f"    accepted: {r.accepted}"] if r.accepted is not None else []
        worst_of = worst([f.severity for f in self.findings])
        head = f"{len(self.findings)} findings in what {name} listed (worst: {worst_of})"
        if not shown.for_viewers:
            head += f"; prompts, resources and pins: %mcp audit {name}"
        box = server_text_html(
            "findings, most severe first", "\n".join(lines), tuple(shown.secrets), shown.limits.log_chars
        )
        self.table.value = notice_html(head, warn=RANK[worst_of] <= RANK[WARNED]) + box
