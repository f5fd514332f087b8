"""The grammar of ``%mcp audit``, ``%mcp pin`` and ``%mcp diff`` (docs/audit.md): pure, no
IPython, no connections.

- ``audit [NAME ...] [--sarif FILE] [--json FILE] [--lock FILE]``
- ``audit [NAME ...] --accept ROW [ROW ...] --reason "..."``
- ``pin NAME [NAME ...] [--lock FILE]``
- ``diff A B``, ``diff NAME --lock [FILE]``, ``diff NAME --recording FILE``
"""

from __future__ import annotations

from dataclasses import dataclass

from anvia_nb.magic.parse.words import CommandLineError, option_value, split

__all__ = [
    "AUDIT_OPTIONS",
    "DIFF_OPTIONS",
    "PIN_OPTIONS",
    "AuditCommand",
    "DiffCommand",
    "PinCommand",
    "parse_audit",
    "parse_diff",
    "parse_pin",
]

AUDIT_OPTIONS = ("--sarif", "--json", "--lock", "--accept", "--reason")
PIN_OPTIONS = ("--lock",)
DIFF_OPTIONS = ("--lock", "--recording")

_AUDIT_USAGE = 'Usage: %mcp audit [NAME ...] [--sarif FILE] [--json FILE] [--accept ROW ... --reason "..."]'
_PIN_USAGE = "Usage: %mcp pin NAME [NAME ...] [--lock FILE]"
_DIFF_USAGE = "Usage: %mcp diff A B  |  %mcp diff NAME --lock [FILE]  |  %mcp diff NAME --recording FILE"


@dataclass(frozen=True)
class AuditCommand:
    """``audit``: the connections (all when none), where to export, and the rows to accept."""

    names: tuple[str, ...] = ()
    sarif: str | None = None
    json: str | None = None
    lock: str | None = None
    """The lock file; ``None``: the ``lock_file`` setting."""
    accept: tuple[int, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class PinCommand:
    """``pin NAME ...``: pin every item of these connections."""

    names: tuple[str, ...]
    lock: str | None = None


@dataclass(frozen=True)
class DiffCommand:
    """``diff``: a connection against another, its pins (``lock``) or a recording."""

    name: str
    other: str | None = None
    lock: str | None = None
    """``""``: the ``lock_file`` setting; ``None``: not against the pins."""
    recording: str | None = None


def _row(word: str) -> int:
    try:
        row = int(word)
    except ValueError:
        raise CommandLineError(f"--accept takes row numbers of the audit's DataFrame, not {word!r}.") from None
    if row < 0:
        raise CommandLineError(f"--accept takes row numbers (0 and up), not {word}.")
    return row


def parse_audit(rest: str, _cell: str | None = None) -> AuditCommand:
    """``%mcp audit ...`` as an :class:`AuditCommand`; a mistake is one line with the usage."""
    words = iter(split(rest))
    names: list[str] = []
    found: dict[str, str] = {}
    rows: list[int] = []
    accepting = False
    for word in words:
        option, eq, value = word.partition("=")
        if option in AUDIT_OPTIONS and option != "--accept":
            accepting = False
            found[option] = option_value(option, eq, value, words, _AUDIT_USAGE)
        elif option == "--accept":
            accepting = True
            if eq:
                rows.append(_row(value))
        elif word.startswith("-") and not (accepting and word.lstrip("-").isdigit()):
            raise CommandLineError(f"Unknown option {word!r}. {_AUDIT_USAGE}")
        elif accepting:
            rows.append(_row(word))
        else:
            names.append(word)
    if accepting and not rows:
        raise CommandLineError(f"--accept needs the rows to accept. {_AUDIT_USAGE}")
    if rows and not found.get("--reason", "").strip():
        raise CommandLineError(f'Say why with --reason "..." when accepting findings. {_AUDIT_USAGE}')
    if "--reason" in found and not rows:
        raise CommandLineError(f"--reason goes with --accept ROW .... {_AUDIT_USAGE}")
    return AuditCommand(
        names=tuple(names),
        sarif=found.get("--sarif"),
        json=found.get("--json"),
        lock=found.get("--lock"),
        accept=tuple(dict.fromkeys(rows)),
        reason=found.get("--reason", ""),
    )


def parse_pin(rest: str, _cell: str | None = None) -> PinCommand:
    """``%mcp pin NAME ...`` as a :class:`PinCommand`."""
    words = iter(split(rest))
    names: list[str] = []
    lock: str | None = None
    for word in words:
        option, eq, value = word.partition("=")
        if option == "--lock":
            lock = option_value(option, eq, value, words, _PIN_USAGE)
        elif word.startswith("-"):
            raise CommandLineError(f"Unknown option {word!r}. {_PIN_USAGE}")
        else:
            names.append(word)
    if not names:
        raise CommandLineError(f"Name the connections to pin. {_PIN_USAGE}")
    return PinCommand(tuple(dict.fromkeys(names)), lock)


def parse_diff(rest: str, _cell: str | None = None) -> DiffCommand:
    """``%mcp diff ...`` as a :class:`DiffCommand`."""
    words = split(rest)
    names: list[str] = []
    lock: str | None = None
    recording: str | None = None
    index = 0
    while index < len(words):
        word = words[index]
        option, eq, value = word.partition("=")
        index += 1
        if option == "--lock":
            if eq:
                lock = value
            elif index < len(words) and not words[index].startswith("-") and len(names) >= 1:
                lock, index = words[index], index + 1
            else:
                lock = ""
        elif option == "--recording":
            taken = iter(words[index:])
            recording = option_value(option, eq, value, taken, _DIFF_USAGE)
            index += 0 if eq else 1
        elif word.startswith("-"):
            raise CommandLineError(f"Unknown option {word!r}. {_DIFF_USAGE}")
        else:
            names.append(word)
    others = (len(names) == 2) + (lock is not None) + (recording is not None)
    if not names or others != 1 or len(names) > 2 or (len(names) == 2 and others != 1):
        raise CommandLineError(f"Compare a connection with exactly one thing. {_DIFF_USAGE}")
    return DiffCommand(names[0], names[1] if len(names) == 2 else None, lock, recording)
