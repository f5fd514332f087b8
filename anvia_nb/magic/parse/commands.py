"""What a ``%mcp`` line means, as frozen values: one dataclass per subcommand's command.

The grammars of :mod:`anvia_nb.magic.parse` produce them; the table of subcommands
(:mod:`anvia_nb.magic.subcommands`) runs them. Pure data: no IPython, no I/O. A subcommand's
own command may live beside its grammar (``TraceCommand``, ``MapCommand``...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from anvia_nb.policy import Limits

__all__ = [
    "DEFAULT_LOG_LINES",
    "CallCommand",
    "CloseCommand",
    "Command",
    "ConfigConnectCommand",
    "ConnectCommand",
    "FormCommand",
    "HelpCommand",
    "HistoryCommand",
    "LogCommand",
    "PanelCommand",
    "ServersCommand",
    "ToolsCommand",
]

DEFAULT_LOG_LINES = Limits.log_lines
"""The lines ``%mcp log`` shows when not told ``--lines N`` (a display bound of the policy's ``Limits``)."""


@dataclass(frozen=True)
class HelpCommand:
    """``help [TOPIC]``: one screen of subcommands, or a topic (a subcommand, ``secrets``, ...)."""

    topic: str = ""


@dataclass(frozen=True)
class ConnectCommand:
    """``connect NAME ... --stdio COMMAND ARGS...``, ``connect NAME ... --http URL`` or
    ``connect NAME --replay FILE``; ``record`` is the file a live connection is recorded to.

    ``inherit_env`` names variables whose values come from the kernel's own environment
    (``--secret-env NAME``, ``--env NAME``): they are secrets, and never written in the line.
    """

    name: str
    transport: Literal["stdio", "http", "replay"]
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    secret_env: frozenset[str] = frozenset()
    cwd: str | None = None
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    timeout_seconds: float | None = None
    cell: bool = False
    inherit_env: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()
    """``--root PATH`` (repeatable): directories offered to the server (``roots/list``)."""
    record: str | None = None
    replay: str = ""
    soft: bool = False
    """``--soft``: a failed connect is a shown notice, not an error that stops the notebook."""
    protocol: str | None = None
    """``--protocol VERSION``: the MCP protocol generation to speak (``None``: discover, then fall back)."""
    from_environ: dict[str, str] = field(default_factory=dict, repr=False)
    """Values ``$NAME`` / ``${NAME}`` took from the kernel's environment, by name: secrets."""


@dataclass(frozen=True)
class ConfigConnectCommand:
    """``connect --config FILE [NAME ...]``: servers from an ``mcpServers`` file."""

    path: str
    names: tuple[str, ...] = ()
    cell: bool = False
    soft: bool = False


@dataclass(frozen=True)
class ServersCommand:
    pass


@dataclass(frozen=True)
class ToolsCommand:
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallCommand:
    """``call NAME.TOOL`` with arguments (``None``: none given) and an optional timeout."""

    server: str
    tool: str
    arguments: dict[str, Any] | None = None
    timeout_seconds: float | None = None
    has_timeout: bool = False
    texts: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    """``key=value`` pairs as typed, so a value can stay text where the tool wants a string."""
    background: bool = False
    """``--background``: return at once a view that updates while the call (or task) runs."""
    args_variable: str | None = None
    """``--args NAME``: a dict variable holding the arguments (pairs add to it); values of
    ``arguments`` may be :class:`~anvia_nb.magic.parse.variables.Variable` references too."""
    app: bool = False
    """``%mcp app``: the tool's interactive view is the cell's value (the result is shown above it)."""
    max_time_seconds: float | None = None
    """``--max-time S``: the whole call's bound, progress or not (``None``: none)."""
    has_max_time: bool = False


@dataclass(frozen=True)
class FormCommand:
    server: str
    tool: str


@dataclass(frozen=True)
class PanelCommand:
    """``panel [NAME] [--tools a,b] [--resources u,v] [--prompts p,q]``: one connection (or all),
    only what is named (naming any offers nothing unnamed)."""

    name: str | None = None
    tools: tuple[str, ...] | None = None
    resources: tuple[str, ...] | None = None
    prompts: tuple[str, ...] | None = None


@dataclass(frozen=True)
class HistoryCommand:
    """``history``, or with ``to_pytest`` the file its calls are written to as tests."""

    to_pytest: str | None = None
    names: tuple[str, ...] = ()
    loose: tuple[str, ...] = ()


@dataclass(frozen=True)
class LogCommand:
    name: str
    lines: int = DEFAULT_LOG_LINES


@dataclass(frozen=True)
class CloseCommand:
    names: tuple[str, ...] = ()
    all: bool = False


Command = (
    HelpCommand
    | ConnectCommand
    | ConfigConnectCommand
    | ServersCommand
    | ToolsCommand
    | CallCommand
    | FormCommand
    | PanelCommand
    | HistoryCommand
    | LogCommand
    | CloseCommand
)
