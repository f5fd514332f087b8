"""``%mcp history`` and ``%mcp history --to-pytest FILE [NAME ...] [--loose KEY,...]``.

The first shows the kernel's history as a DataFrame; the second writes it as a pytest module
(:func:`anvia_nb.runtime.to_pytest.pytest_module`) that connects to the named connections (all of
the history's, by default) as they are open now, repeats the calls and checks what was seen.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from anvia_nb.magic._arguments import CommandLineError
from anvia_nb.magic._commands import HistoryCommand
from anvia_nb.magic._parser import split

if TYPE_CHECKING:
    from anvia_nb.magic._host import MagicHost

__all__ = ["parse_history", "run_history"]

_USAGE = "Usage: %mcp history, or %mcp history --to-pytest FILE [NAME ...] [--loose KEY,...]"


def parse_history(rest: str, _cell: str | None = None) -> HistoryCommand:
    words = split(rest)
    path: str | None = None
    loose: tuple[str, ...] = ()
    names: list[str] = []
    items = iter(words)
    for word in items:
        option, eq, value = word.partition("=")
        if option in ("--to-pytest", "--loose"):
            value = value if eq else next(items, "")
            if not value or value.startswith("-"):
                raise CommandLineError(f"{option} needs a value. {_USAGE}")
            if option == "--to-pytest":
                path = value
            else:
                loose = tuple(k.strip() for k in value.split(",") if k.strip())
        elif word.startswith("-"):
            raise CommandLineError(f"Unknown option {word!r}. {_USAGE}")
        else:
            names.append(word)
    if path is None and (names or loose):
        raise CommandLineError(f"Connection names and --loose go with --to-pytest FILE. {_USAGE}")
    return HistoryCommand(to_pytest=path, names=tuple(names), loose=loose)


def run_history(magics: MagicHost, command: HistoryCommand) -> Any:
    from anvia_nb.magic.tables import history_frame

    runtime = magics.runtime
    if command.to_pytest is None:
        return history_frame(runtime.calls(), magics.show_policy())
    from anvia_nb.runtime.to_pytest import pytest_module, pytest_note, run_command

    calls = [c for c in runtime.calls() if not command.names or c.server in command.names]
    unknown = [n for n in command.names if n not in {c.server for c in runtime.calls()}]
    if unknown:
        raise CommandLineError(
            f"The history has no calls to {unknown[0]!r}. Names in it: "
            f"{', '.join(dict.fromkeys(c.server for c in runtime.calls())) or 'none'}."
        )
    connections = {name: runtime.server(name).connection for name in runtime.names()}
    secrets = {name: runtime.server(name).secrets for name in runtime.names()}  # refreshed tokens too
    words = ["%mcp history --to-pytest", command.to_pytest, *command.names]
    if command.loose:
        words += ["--loose", ",".join(command.loose)]
    source = pytest_module(
        calls, connections, loose=command.loose, command=" ".join(words), secrets=secrets, path=command.to_pytest
    )
    path = Path(command.to_pytest)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    except OSError as exc:
        raise CommandLineError(f"Cannot write {path}: {exc.strerror or exc}.") from exc
    print(f"wrote {path}: {len(calls)} call{'s' if len(calls) != 1 else ''} as tests; run it with: {run_command(path)}")
    note = pytest_note()
    if note:
        print(note)
    return None
