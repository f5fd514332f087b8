"""What a ``%mcp`` subcommand needs of the magic that runs it: :class:`MagicHost`.

The runners of :mod:`anvia_nb.magic.commands` (through the table, :mod:`anvia_nb.magic.subcommands`)
are imported by :mod:`anvia_nb.magic.magics`; they take this Protocol instead of ``McpMagics``, so
none of them imports the module that imports them.
``McpMagics`` satisfies it structurally (mypy checks this where it hands itself to a table entry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from anvia_nb.core.api.connections import McpConnection
    from anvia_nb.display import RenderSettings, ResultView
    from anvia_nb.magic.parse.commands import CallCommand, ConfigConnectCommand, ConnectCommand
    from anvia_nb.policy import ShowPolicy
    from anvia_nb.runtime import Runtime, Scope
    from anvia_nb.widgets.apps.view import AppView
    from anvia_nb.widgets.background_view import BackgroundCallView

__all__ = ["MagicHost"]


class MagicHost(Protocol):
    """The magic as its subcommands see it: settings, the kernel's runtime and variables, output helpers."""

    # -- settings (``%config McpMagics.NAME``) ---------------------------------------------

    @property
    def timeout_seconds(self) -> float | None: ...

    @property
    def connect_timeout_seconds(self) -> float | None: ...

    def call_max_time(self, timeout: float | None) -> float | None:
        """The ``max_time_seconds`` setting for a call with this ``timeout``."""
        ...

    @property
    def log_level(self) -> str | None: ...

    @property
    def lock_file(self) -> str:
        """Where pins and accepted findings are kept (``mcp-lock.json`` beside the notebook)."""
        ...

    # -- the kernel --------------------------------------------------------------------------

    @property
    def runtime(self) -> Runtime: ...

    def user_namespace(self) -> dict[str, Any]:
        """The kernel's variables, where ``$name`` is looked up."""
        ...

    # -- output ------------------------------------------------------------------------------

    def render_settings(self) -> RenderSettings:
        """The settings every result is rendered with."""
        ...

    def show_policy(self, secrets: tuple[str, ...] = ()) -> ShowPolicy:
        """What may be shown: the one policy every output goes through."""
        ...

    # -- what the magic itself runs ----------------------------------------------------------

    def connections(self, command: ConnectCommand | ConfigConnectCommand) -> list[McpConnection]:
        """The command's connections, described but not opened, with the magic's limits."""
        ...

    def connect_command(self, command: ConnectCommand | ConfigConnectCommand, scope: Scope) -> None:
        """``%mcp connect``: open the connections, one printed line each."""
        ...

    def call_command(self, command: CallCommand) -> ResultView | AppView | BackgroundCallView:
        """``%mcp call``: arguments checked against the inputSchema first."""
        ...
