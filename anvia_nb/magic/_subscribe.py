"""``%mcp subscribe NAME URI`` and ``%mcp unsubscribe NAME URI``: hear when a resource changes.

The updates are counted per URI (``%mcp resources`` shows them, ``server.resource_updates()``
returns them); a server whose capabilities lack ``resources.subscribe`` is refused before anything
is sent (core/subscriptions.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from anvia_nb.magic._parser import CommandLineError, split
from anvia_nb.magic.library import complete_read

if TYPE_CHECKING:
    from anvia_nb.magic._host import MagicHost
    from anvia_nb.runtime import Runtime

__all__ = ["SubscribeCommand", "complete_subscribe", "parse_subscribe", "parse_unsubscribe", "run_subscribe"]


@dataclass(frozen=True)
class SubscribeCommand:
    server: str
    uri: str
    on: bool
    """``True``: subscribe; ``False``: unsubscribe."""


def _parse(rest: str, on: bool) -> SubscribeCommand:
    word = "subscribe" if on else "unsubscribe"
    words = split(rest)
    if len(words) != 2 or words[0].startswith("-"):
        raise CommandLineError(f"Usage: %mcp {word} NAME URI (a connection and a resource URI, e.g. demo://counter).")
    return SubscribeCommand(words[0], words[1], on)


def parse_subscribe(rest: str, _cell: str | None = None) -> SubscribeCommand:
    return _parse(rest, True)


def parse_unsubscribe(rest: str, _cell: str | None = None) -> SubscribeCommand:
    return _parse(rest, False)


def run_subscribe(magics: MagicHost, command: SubscribeCommand) -> None:
    runtime = magics.runtime
    server = runtime.server(command.server)
    if command.on:
        runtime.run(server.subscribe(command.uri))
        said = f"subscribed to {command.uri} on {command.server}: %mcp resources {command.server} counts its updates"
    else:
        runtime.run(server.unsubscribe(command.uri))
        said = f"unsubscribed from {command.uri} on {command.server}"
    print(magics.show_policy(server.secrets).line(said))


def complete_subscribe(words: list[str], runtime: Runtime) -> list[str]:
    return complete_read(words, runtime) if len(words) <= 2 else []
