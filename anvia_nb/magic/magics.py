"""``McpMagics``: runs parsed ``%mcp`` commands against the kernel's runtime.

Settings are traitlets, so ``%config McpMagics.timeout_seconds = 10`` works. Every error a person
can cause becomes one :class:`UsageError` line that says what to do (a full traceback only with
``show_tracebacks``); tool errors are not raised at all: the returned :class:`ResultView` shows
them with their provenance. Warnings from closing (a server that would not stop) go to stderr in
the cell that caused them and never raise into a later cell.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class, no_var_expand
from traitlets import Bool, Enum, Float, Int, Unicode, observe

from anvia_nb.core.audit.pins import LOCK_FILE_NAME
from anvia_nb.core.exchange.logs import LOG_LEVELS
from anvia_nb.core.protocol import limits
from anvia_nb.dashboard import ServerNotice, failed_notice
from anvia_nb.display import RenderSettings, ResultView
from anvia_nb.errors import AnviaError, ConnectError
from anvia_nb.magic.commands.apps import tool_for_cells, with_app
from anvia_nb.magic.commands.audit import note_pins
from anvia_nb.magic.commands.calls import CheckedArguments
from anvia_nb.magic.commands.connections import described, run_cell_body
from anvia_nb.magic.output.cell import EndsWith, report_warnings, show_in_cell
from anvia_nb.magic.output.connect_text import (
    connect_error_line,
    connect_error_text,
    connect_line,
    in_magic_words,
    restart_line,
)
from anvia_nb.magic.parse.commands import CallCommand, ConfigConnectCommand, ConnectCommand
from anvia_nb.magic.subcommands import parse_line
from anvia_nb.magic.warm import warm_first_call
from anvia_nb.policy import ShowPolicy

if TYPE_CHECKING:
    from anvia_nb.core.api.connections import McpConnection
    from anvia_nb.display.view import LinkReader
    from anvia_nb.runtime import Connected, Runtime, Scope
    from anvia_nb.widgets.apps.view import AppView
    from anvia_nb.widgets.background_view import BackgroundCallView

# The MCP SDK, pandas and the runtime load on the first %mcp that needs them, not at %load_ext.

__all__ = ["McpMagics"]


@functools.cache
def _link_reader() -> Callable[[Runtime, float | None], LinkReader]:
    """``runtime.library.link_reader``, imported by the first call that shows a result."""
    from anvia_nb.runtime.library import link_reader

    return link_reader


def _max_time(setting: float | None, timeout: float | None) -> float | None:
    """The bound of a call with this ``timeout`` by the ``max_time_seconds`` ``setting``: at its
    default, ``Tool.call_outcome``'s (never less than the timeout, none for a call told to wait for
    ever); set to anything else, that bound."""
    if setting is not None and float(setting) == limits.DEFAULT_CALL_MAX_SECONDS:
        return limits.max_time_or_default(limits.DEFAULT, timeout)
    return None if setting is None else float(setting)


@magics_class
class McpMagics(Magics):
    """The ``%mcp`` line and cell magic."""

    timeout_seconds = Float(
        60.0,
        allow_none=True,
        help="Seconds a tool call may go without an answer or a progress notification; None = no limit.",
    ).tag(config=True)
    max_time_seconds = Float(
        limits.DEFAULT_CALL_MAX_SECONDS,
        allow_none=True,
        help="Seconds a tool call may take in all, even while it reports progress (left at the default: "
        "never less than timeout_seconds); None = no limit.",
    ).tag(config=True)
    connect_timeout_seconds = Float(
        30.0, allow_none=True, help="Seconds a connect may take (also the HTTP request timeout); None = no limit."
    ).tag(config=True)
    max_output_chars = Int(20_000, help="Characters of text rendered per result; the rest stays in Python.").tag(
        config=True
    )
    show_tracebacks = Bool(False, help="Show full tracebacks instead of one-line errors.").tag(config=True)
    hide_server_errors = Bool(
        False,
        help="Viewer mode (a notebook served to others): every surface in their words, no server text, no file writes.",
    ).tag(config=True)
    history_limit = Int(
        limits.HISTORY_CALLS_KEPT, help="How many calls the runtime's one history keeps (%mcp history, forms, panels)."
    ).tag(config=True)
    log_chars = Int(20_000, help="At most this many characters of a server's stderr are read by %mcp log.").tag(
        config=True
    )
    max_calls_in_flight = Int(
        limits.DEFAULT_MAX_CALLS_IN_FLIGHT,
        help="Tool calls sent at once on each connection opened from now on (cells and forms share them; "
        "a map sends its own --concurrency).",
    ).tag(config=True)
    log_level = Enum(
        LOG_LEVELS,
        "info",
        allow_none=True,
        help="The least severe log message asked of servers, shown by %mcp log (None: ask for none).",
    ).tag(config=True)
    lock_file = Unicode(
        LOCK_FILE_NAME, help="The lock file of %mcp pin and %mcp audit --accept (relative: to the kernel's folder)."
    ).tag(config=True)

    def __init__(self, shell: Any = None, **kwargs: Any) -> None:  # any: IPython's shell and Magics keywords, passed on
        super().__init__(shell=shell, **kwargs)
        self._pending_secrets: tuple[str, ...] = ()
        self._settings: RenderSettings | None = None
        self._runtime: Runtime | None = None
        self._arguments = CheckedArguments()
        self._usage_errors = EndsWith(self._said)  # every %mcp line's errors, said in one line
        self._calls: tuple[float | None, float | None, int] | None = None

    # -- plumbing ----------------------------------------------------------------------------

    @observe("history_limit")
    def _history_limit_changed(self, _change: Any) -> None:
        """The limit belongs to the runtime's history: apply it now, not at the next ``%mcp``."""
        self._calls = None
        if "anvia_nb.runtime.sessions" in sys.modules:
            self.runtime.set_history_limit(int(self.history_limit))

    @observe("timeout_seconds", "max_time_seconds")
    def _call_settings_changed(self, _change: Any) -> None:
        """The next call reads the new value (``%config`` sets it on this magic)."""
        self._calls = None

    def _call_settings(self) -> tuple[float | None, float | None, int]:
        """``timeout_seconds``, the max time of a call bounded by it (:meth:`call_max_time`) and
        ``history_limit``, read again only after one changed: a traitlet read is two Python calls,
        and every ``%mcp call`` needs them (issue 41)."""
        found = self._calls
        if found is None:
            timeout = self.timeout_seconds
            found = self._calls = (timeout, _max_time(self.max_time_seconds, timeout), int(self.history_limit))
        return found

    @property
    def runtime(self) -> Runtime:
        runtime = self._runtime
        if runtime is None:  # the kernel's one runtime, made on first use and never replaced
            from anvia_nb.runtime import get_runtime

            runtime = self._runtime = get_runtime()
        limit = self._call_settings()[2]
        if runtime.history.maxlen != limit:  # set here, or changed by other code since
            runtime.set_history_limit(limit)
        return runtime

    def call_max_time(self, timeout: float | None) -> float | None:
        """The ``max_time_seconds`` setting for a call with this ``timeout`` (see ``_max_time``)."""
        return _max_time(self.max_time_seconds, timeout)

    def render_settings(self) -> RenderSettings:
        """The settings every result is rendered with; made again only when a setting changed."""
        settings = self._settings
        if settings is None:
            settings = RenderSettings(
                max_output_chars=int(self.max_output_chars), hide_server_errors=bool(self.hide_server_errors)
            )
            self._settings = settings
        return settings

    @observe("max_output_chars", "hide_server_errors")
    def _render_settings_changed(self, _change: Any) -> None:
        """The next result is rendered with the new value (``%config`` sets it on this magic)."""
        self._settings = None

    def show_policy(self, secrets: tuple[str, ...] = ()) -> ShowPolicy:
        """What may be shown, from these settings: the one policy every output goes through."""
        policy = self.render_settings().policy(secrets)
        return replace(policy, limits=replace(policy.limits, log_chars=int(self.log_chars)))

    def _known_secrets(self) -> tuple[str, ...]:
        """Secrets of every open connection and of the ones being opened now."""
        found = list(self._pending_secrets)
        if "anvia_nb.runtime.sessions" not in sys.modules:
            return tuple(found)
        runtime = self.runtime
        for name in runtime.names():
            with contextlib.suppress(AnviaError):
                found.extend(runtime.server(name).secrets)
        return tuple(found)

    def _said(self, exc: BaseException | None) -> bool:
        """Our errors as one line each, unless the person asked for tracebacks (``True``: shown).

        The message may quote a server (a JSON-RPC error, a failed listing): it is made visible,
        masked and bounded. With ``hide_server_errors`` (a page for viewers) an error about a server
        (not connected, stopped, failed) is a shown notice in a viewer's words and the notebook
        goes on; the author's details stay in ``%mcp log``.
        """
        try:
            if not isinstance(exc, (AnviaError, ValueError)) or self.show_tracebacks:
                return False
            policy = self.show_policy(self._known_secrets())  # with the secrets of connections being opened
            line = policy.error_line(exc, policy.limits.text_chars, kind=not isinstance(exc, AnviaError))
            if policy.hides(exc):
                show_in_cell(ServerNotice(str(getattr(exc, "server", "") or ""), line, error=exc))
                return True
            raise UsageError(line) from None
        finally:
            self._pending_secrets = ()  # after the line is masked with them, as before EndsWith

    # -- the magic ---------------------------------------------------------------------------

    @no_var_expand
    @line_cell_magic
    def mcp(self, line: str, cell: str | None = None) -> object:
        """Connect to MCP servers, list and call their tools; ``%mcp help`` for everything."""
        for_cell: ConnectCommand | ConfigConnectCommand | None = None
        with self._usage_errors:
            parsed = parse_line(line, cell)
            command = parsed.command
            if cell is None or not isinstance(command, (ConnectCommand, ConfigConnectCommand)):
                return parsed.run(self)
            for_cell = command
        return None if for_cell is None or cell is None else self._connect_for_cell(for_cell, cell)

    def user_namespace(self) -> dict[str, Any]:
        """The kernel's variables, where ``$name`` is looked up."""
        return self.shell.user_ns if self.shell is not None else {}

    # -- connect -----------------------------------------------------------------------------

    def connections(self, command: ConnectCommand | ConfigConnectCommand) -> list[McpConnection]:
        """The command's connections, each bounded to ``max_calls_in_flight`` calls at once."""
        from anvia_nb.core.recording.replay import ReplayConnection

        limit = max(1, int(self.max_calls_in_flight))
        return [
            c if isinstance(c, ReplayConnection) else replace(c, max_calls_in_flight=limit)
            for c in described(command, self.connect_timeout_seconds)
        ]

    def connect_command(self, command: ConnectCommand | ConfigConnectCommand, scope: Scope) -> None:
        """``%mcp connect``: open the connections, one printed line each."""
        self._connect(command, scope)

    def _connect(
        self, command: ConnectCommand | ConfigConnectCommand, scope: Scope, opened: list[str] | None = None
    ) -> list[str]:
        """Open every connection of the command, one printed line each; ``opened`` gets their names."""
        runtime = self.runtime
        opened = [] if opened is None else opened
        connections = self.connections(command)
        self._pending_secrets = tuple(s for c in connections for s in c.secrets())
        soft = command.soft or self.hide_server_errors  # a page for viewers goes on past a failed server
        # A config file's servers are connected each on its own: a failure is one line, and the rest go on.
        failures: list[str] | None = [] if isinstance(command, ConfigConnectCommand) else None
        given = command.timeout_seconds if isinstance(command, ConnectCommand) else None
        timeout = self.connect_timeout_seconds if given is None else given  # --timeout S, else the setting
        for connection in connections:
            if connection.name in runtime.names():
                print(restart_line(connection))
            opened_now = self._open(connection, scope, soft=soft, failures=failures, timeout=timeout)
            if opened_now is None:
                continue
            report_warnings(opened_now.warnings)
            opened.append(connection.name)
            print(connect_line(connection, runtime, for_viewers=bool(self.hide_server_errors)))
            note_pins(self, connection.name)  # what changed since pinned, if it was (docs/audit.md)
            from anvia_nb.core.api.secrets import unmasked_note

            note = unmasked_note(connection)  # values named as secrets but too short to mask
            if note:
                print(note)
        if failures:
            if not opened:
                raise UsageError("\n".join(failures))
            report_warnings(failures)
        return opened

    def _open(
        self,
        connection: McpConnection,
        scope: Scope,
        *,
        soft: bool = False,
        failures: list[str] | None = None,
        timeout: float | None = None,
    ) -> Connected | None:
        """One connect, failing in words a person can act on.

        A failure shows its cause; when the server wrote to stderr, its last lines (masked) and one
        line naming ``%mcp log NAME``; an interrupt (the stop button) stops the server and says so
        in one line. ``soft``: a failure is displayed as a notice (a viewer's sentence when server
        errors are hidden) and ``None`` returned, so the cell and the notebook go on. ``failures``
        (a config file's servers): a failure is added to it as one line and ``None`` returned.
        """
        runtime = self.runtime
        name = connection.name
        try:
            opened = runtime.run(
                self._bounded_connect(connection, scope, timeout), meanwhile=lambda: warm_first_call(self.shell)
            )
        except KeyboardInterrupt:
            if self.show_tracebacks:
                raise
            raise UsageError(f"connect to {name} was interrupted; the server was stopped.") from None
        except ConnectError as exc:
            in_magic_words(exc)
            if self.show_tracebacks and not soft:
                raise
            policy = self.show_policy(self._known_secrets())
            if failures is not None and not soft:
                failures.append(f"{name} not connected: {connect_error_line(exc, policy)}")
                return None
            line = connect_error_text(exc, policy)
            try:  # the server wrote to stderr, and its log outlives the failed connect: say where it is
                kept = bool(exc.stderr) and runtime.log(name).has_stderr
            except AnviaError:
                kept = False
            text = f"{line}\n%mcp log {name} shows the whole log." if kept else line
            if soft:
                show_in_cell(failed_notice(name, exc, policy, text))
                return None
            raise UsageError(text) from None
        return opened

    async def _bounded_connect(self, connection: McpConnection, scope: Scope, timeout: float | None) -> Connected:
        runtime = self.runtime
        return await runtime.connect_async(connection, scope, timeout_seconds=timeout, log_level=self.log_level)

    def _connect_for_cell(self, command: ConnectCommand | ConfigConnectCommand, cell: str) -> object:
        """``%%mcp connect``: run the body with the connections open; close them however it ends."""
        opened: list[str] = []
        try:
            with self._usage_errors:
                self._connect(command, "cell", opened)
            return run_cell_body(self.shell, cell)
        finally:
            runtime = self.runtime
            for name in opened:
                if name in runtime.names():
                    report_warnings(runtime.close(name))

    # -- call --------------------------------------------------------------------------------

    def call_command(self, command: CallCommand) -> ResultView | AppView | BackgroundCallView:
        """``%mcp call``: arguments checked against the inputSchema first; nothing bad is sent."""
        runtime = self.runtime
        server, tool = tool_for_cells(runtime, command.server, command.tool)
        target = f"{command.server}.{command.tool}"
        arguments = self._arguments.of(command, tool, self.user_namespace)  # read only for a $var
        setting, max_time, _ = self._call_settings()
        timeout = setting
        if command.has_timeout:
            timeout = command.timeout_seconds
            max_time = self.call_max_time(timeout)
        if command.has_max_time:
            max_time = command.max_time_seconds
        if command.background:  # a view that updates while it runs, bounded like any call
            from anvia_nb.widgets.background_view import BackgroundCallView

            started = runtime.start(
                command.server, command.tool, arguments, timeout_seconds=timeout, max_time_seconds=max_time
            )
            return BackgroundCallView(started, self.render_settings())
        unanswered = server.client.unanswered_elicitations
        declined = server.client.declined_samplings
        try:
            outcome = runtime.call_checked(command.server, tool, arguments, timeout, max_time)  # checked above
        except KeyboardInterrupt:
            if self.show_tracebacks:
                raise
            # The loop has already cancelled the request on the server (notifications/cancelled).
            raise UsageError(f"{target} was interrupted: the call was cancelled on the server.") from None
        if server.client.unanswered_elicitations > unanswered:
            print(
                f"note: {command.server} asked for input during this call and %mcp call cannot show a prompt, "
                f"so the request was cancelled; use %mcp form {target} to answer it.",
            )  # stdout: guidance, not an error (a notebook's Run All shows stderr in pink)
        if server.client.declined_samplings > declined:
            print(
                f"note: {command.server} asked for sampling (a completion from your model) during this call and "
                "it was declined: nothing is sent to a model unless you allow it with anvia_nb.enable_sampling(...).",
                file=sys.stderr,
            )
        result = ResultView(outcome, self.render_settings(), reader=_link_reader()(runtime, setting))
        return with_app(self, tool, arguments, outcome, result, value="app" if command.app else "result")
