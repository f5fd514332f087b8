"""Pins: a lock file (``mcp-lock.json`` by default) holding each item's definition and its
canonical hash, and the findings a person accepted, with their reason.

The file is committed and edited by hand, so it is read as untrusted input: at most
:data:`~anvia_nb.core.protocol.limits.LOCK_FILE_BYTES`, JSON whose every pin's definition must
hash to the hash written beside it. Anything else is one :class:`~anvia_nb.errors.LockFileError`
naming the line or the item, and the file is never written over while it stands. It is written
whole or not at all (a temporary file in the same folder, then ``os.replace``), so two kernels
pinning at once leave one whole file (and, holding the folder's ``flock`` meanwhile, keep both
kernels' pins). It holds definitions only, never a connection's command,
URL, headers or environment; a definition holding one of the connection's secret values is
refused.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from anvia_nb._docs import fill_docstring
from anvia_nb.core.audit.definitions import KINDS, Definition, Finding, Kind, canonical_hash
from anvia_nb.core.audit.diff import DefinitionChange, compare_definitions
from anvia_nb.core.protocol import limits
from anvia_nb.errors import InvalidValueError, LockFileError

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the file is still replaced whole
    fcntl = None  # type: ignore[assignment]  # the module, or None where the system has none

__all__ = [
    "FORMAT",
    "LOCK_FILE_NAME",
    "WRITTEN",
    "Accepted",
    "Lock",
    "accept_findings",
    "pin_definitions",
    "read_lock",
    "write_whole",
]

WRITTEN = {
    "written": """
Returns
-------
Lock
    The lock file as written.

Raises
------
LockFileError
    The file there does not parse or does not match its hashes: it is left as it is.
InvalidValueError
    A definition holds a secret value of its connection.
"""
}
"""What the functions that pin return and raise, written once (``anvia_nb._docs``)."""

LOCK_FILE_NAME = "mcp-lock.json"
"""The lock file's name beside the notebook (the kernel's working directory) by default."""
FORMAT = "anvia_nb-lock/1"
"""The ``format`` a lock file says it is written in."""


@dataclass(frozen=True)
class Accepted:
    """A finding a person accepted: it stays accepted while the item's definition hashes to ``digest``."""

    server: str
    item: str
    """The item's key, ``kind:name``."""
    check: str
    digest: str
    reason: str


@dataclass
class Lock:
    """A lock file as read: the pinned definitions by server, and the accepted findings."""

    path: Path
    pins: dict[str, list[Definition]] = field(default_factory=dict)
    accepted: list[Accepted] = field(default_factory=list)

    def pinned(self, server: str) -> list[Definition] | None:
        """The definitions pinned for ``server``; ``None`` when it was never pinned."""
        return self.pins.get(server)

    def changes(self, server: str, live: Sequence[Definition]) -> list[DefinitionChange] | None:
        """How ``live`` differs from the pins of ``server`` (``None``: not pinned)."""
        pinned = self.pinned(server)
        if pinned is None:
            return None
        return compare_definitions(pinned, live, old=f"pinned ({self.path.name})", new=f"live ({server})")

    def accepted_reason(self, finding: Finding) -> str | None:
        """The reason ``finding`` was accepted, while its item's definition is unchanged; else ``None``."""
        key = f"{finding.kind}:{finding.item}"
        for accepted in self.accepted:
            if (accepted.server, accepted.item, accepted.check, accepted.digest) == (
                finding.server,
                key,
                finding.check,
                finding.digest,
            ):
                return accepted.reason
        return None

    def text(self) -> str:
        """The file's text: pretty JSON, keys sorted, non-ASCII escaped (hidden characters stay
        visible in a review of the committed file)."""
        servers = {
            server: {"items": {d.key: {"hash": d.digest, "definition": d.body} for d in definitions}}
            for server, definitions in self.pins.items()
        }
        accepted = [
            {"server": a.server, "item": a.item, "check": a.check, "hash": a.digest, "reason": a.reason}
            for a in self.accepted
        ]
        body = {"format": FORMAT, "servers": servers, "accepted": accepted}
        return json.dumps(body, indent=2, sort_keys=True, ensure_ascii=True) + "\n"


def _fail(path: Path, what: str) -> LockFileError:
    return LockFileError(f"{path}: {what}; fix it by hand or move it away, then pin again (%mcp pin NAME).")


def _object(value: object, path: Path, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise _fail(path, f"{where} is not a JSON object")
    return value


def _string(value: object, path: Path, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(path, f"{where} is not a string")
    return value


def _definition(server: str, key: str, entry: object, path: Path) -> Definition:
    where = f"the pin of {server} {key}"
    kind, _, name = key.partition(":")
    if kind not in KINDS or not _:
        raise _fail(path, f"{where}: the key is not kind:name with a kind of {', '.join(KINDS)}")
    fields = _object(entry, path, where)
    digest = _string(fields.get("hash"), path, f"{where}: hash")
    body = _object(fields.get("definition"), path, f"{where}: definition")
    try:
        actual = canonical_hash(body)
    except ValueError:  # NaN or a lone surrogate: not a definition a server sends
        raise _fail(path, f"{where}: its definition cannot be hashed") from None
    if actual != digest:
        raise _fail(path, f"{where} does not match its hash (edited by hand?)")
    checked_kind: Kind = KINDS[KINDS.index(kind)]  # the kind as the Literal it is (checked above)
    return Definition(server, checked_kind, name, body)


def _parse(text: str, path: Path) -> Lock:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(path, f"line {exc.lineno}: not JSON ({exc.msg})") from None
    top = _object(data, path, "the file")
    if top.get("format") != FORMAT:
        raise _fail(path, f"the format is {top.get('format')!r}, not {FORMAT!r}")
    lock = Lock(path)
    for server, entry in _object(top.get("servers", {}), path, "servers").items():
        items = _object(_object(entry, path, f"servers.{server}").get("items", {}), path, f"{server}: items")
        lock.pins[server] = [_definition(server, key, value, path) for key, value in items.items()]
    accepted = top.get("accepted", [])
    if not isinstance(accepted, list):
        raise _fail(path, "accepted is not a list")
    for number, entry in enumerate(accepted):
        where = f"accepted[{number}]"
        fields = _object(entry, path, where)
        values = [_string(fields.get(k), path, f"{where}.{k}") for k in ("server", "item", "check", "hash", "reason")]
        lock.accepted.append(Accepted(*values))
    return lock


def read_lock(path: str | os.PathLike[str]) -> Lock:
    """The lock file at ``path``, checked; an empty :class:`Lock` when there is none yet.

    Parameters
    ----------
    path : str or path-like
        The lock file (``mcp-lock.json`` beside the notebook by default).

    Returns
    -------
    Lock

    Raises
    ------
    LockFileError
        It is too large, does not parse (the line is named), or a pin's definition does not match
        its hash (the item is named).
    """
    where = Path(path)
    try:
        with where.open("rb") as file:
            data = file.read(limits.LOCK_FILE_BYTES + 1)
    except FileNotFoundError:
        return Lock(where)
    except OSError as exc:
        raise LockFileError(f"{where}: cannot be read ({exc.strerror or exc}).") from exc
    if len(data) > limits.LOCK_FILE_BYTES:
        raise _fail(where, f"larger than {limits.LOCK_FILE_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _fail(where, f"line {line}: not UTF-8") from None
    return _parse(text, where)


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file in the same folder, then
    ``os.replace`` (atomic on one file system), so a reader never sees half a file."""
    folder = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _one_writer(path: Path) -> Iterator[None]:
    """Hold the lock file's folder (``flock``, where the system has it) while the file is read,
    changed and replaced: two kernels pinning other servers at once both keep their pins. No file
    of its own is made; without ``fcntl`` (Windows) the file is still written whole."""
    if fcntl is None:
        yield
        return
    folder = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        yield
    finally:
        os.close(folder)  # closing releases the lock


def _no_secret(definitions: Iterable[Definition], secrets: Iterable[str]) -> None:
    values = [s for s in secrets if s]
    for definition in definitions:
        text = json.dumps(definition.body, ensure_ascii=False)
        if any(value in text for value in values):
            raise InvalidValueError(
                f"The definition of {definition.server} {definition.key} holds a secret of the connection: "
                "not pinned (a lock file is committed). Ask the server's owner why it sends it."
            )


@fill_docstring(WRITTEN)
def pin_definitions(
    path: str | os.PathLike[str], definitions: Sequence[Definition], *, secrets: Iterable[str] = ()
) -> Lock:
    """Pin ``definitions``: each server they belong to gets exactly these pins in the lock file.

    Parameters
    ----------
    path : str or path-like
        The lock file; made when missing.
    definitions : sequence of Definition
        Every item of the servers to pin (all of each: an item left out is unpinned).
    secrets : iterable of str, optional
        The connections' secret values: a definition holding one is refused.

    {written}
    """
    _no_secret(definitions, secrets)
    servers: dict[str, list[Definition]] = {}
    for definition in definitions:
        servers.setdefault(definition.server, []).append(definition)
    with _one_writer(Path(path)):
        lock = read_lock(path)
        lock.pins.update(servers)
        write_whole(lock.path, lock.text())
    return lock


def accept_findings(
    path: str | os.PathLike[str], findings: Iterable[Finding], reason: str
) -> tuple[Lock, list[Accepted]]:
    """Accept ``findings`` with ``reason``: written in the lock file beside the pins.

    Parameters
    ----------
    path : str or path-like
        The lock file; made when missing.
    findings : iterable of Finding
        What to accept; each must carry its item's ``digest`` (it stays accepted until that changes).
    reason : str
        Why it is acceptable, in a person's words (not empty).

    Returns
    -------
    tuple of Lock and list of Accepted
        The lock file as written, and what was added to it.

    Raises
    ------
    InvalidValueError
        No reason, or a finding without its item's hash.
    LockFileError
        The file there does not parse or does not match its hashes: it is left as it is.
    """
    if not reason.strip():
        raise InvalidValueError('Say why the finding is acceptable: --reason "..." (Python: reason="...").')
    added: list[Accepted] = []
    for finding in findings:
        if not finding.digest:
            raise InvalidValueError(f"The finding {finding.check} on {finding.item} has no definition hash to accept.")
        added.append(Accepted(finding.server, f"{finding.kind}:{finding.item}", finding.check, finding.digest, reason))
    with _one_writer(Path(path)):
        lock = read_lock(path)
        known = {(a.server, a.item, a.check, a.digest) for a in lock.accepted}
        lock.accepted += [a for a in added if (a.server, a.item, a.check, a.digest) not in known]
        write_whole(lock.path, lock.text())
    return lock, added
