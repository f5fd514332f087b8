"""Reading a recording back: untrusted input, read as a live connection reads a server.

A recording may come from anywhere (a colleague, a course, a download), so it is read line by
line under the same message limit as a live connection
(:data:`~anvia_nb.core.protocol.limits.MAX_MESSAGE_BYTES`, read when the file is read), each line
parsed by the SDK's JSON parser (with its nesting limit) and checked with the SDK's models
(:mod:`anvia_nb.core.transport.sdk.records`), and every field replay uses checked for its type.
Any problem is one :class:`~anvia_nb.errors.RecordingFileError` naming the file and the line.

Only the header, the handshake and the listings are kept; a call keeps its tool, arguments and
where its line starts. Its answer (progress, result or error) is read again, and checked again,
when it is replayed (:func:`read_answer`), so a large recording costs about one message at a time.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.recording.recorder import FORMAT, Recording
from anvia_nb.core.transport.sdk.records import (
    checked_capabilities,
    checked_items,
    checked_result,
    parse_line,
)
from anvia_nb.errors import RecordingFileError

__all__ = ["read_answer", "read_recording"]

_NUMBER = (int, float)
_NUMBERS = frozenset(_NUMBER)  # by exact type: a bool is no progress


def read_recording(path: str | Path) -> Recording:
    """Read and check ``path``; raises :class:`RecordingFileError` saying what is wrong and where."""
    where = Path(path)
    try:
        with where.open("rb") as file:
            return _read(file, where)
    except OSError as exc:
        raise RecordingFileError(
            f"Cannot read the recording {where}: {exc.strerror or exc}. Record one with --record FILE."
        ) from exc


def read_answer(recording: Recording, call: JsonObject) -> JsonObject:
    """The whole record of a replayed ``call`` (progress, result or error), read again and checked."""
    where = recording.path
    number, offset = int(call["line"]), int(call["offset"])
    try:
        with where.open("rb") as file:
            file.seek(offset)
            line = _bounded_line(file, where, number)
    except OSError as exc:
        raise RecordingFileError(f"Cannot read the recording {where}: {exc.strerror or exc}.") from exc
    record = _record(line, where, number)
    if record.get("type") != "call" or record.get("tool") != call["tool"]:
        raise RecordingFileError(f"{where}:{number} changed since it was read: read the recording again.")
    return record


def _read(file: IO[bytes], where: Path) -> Recording:
    found: Recording | None = None
    offset = 0
    number = 0
    while True:
        number += 1
        line = _bounded_line(file, where, number)
        start, offset = offset, offset + len(line)
        if not line:
            break
        if not line.strip():
            continue
        record = _record(line, where, number)
        if found is None:
            found = _header(record, where, number)
        else:
            _keep(found, record, where, number, start)
    if found is None:
        raise RecordingFileError(f"{where} does not start with a recording header: not written by --record.")
    return found


def _bounded_line(file: IO[bytes], where: Path, number: int) -> bytes:
    """One line, never more than the message limit read into memory."""
    largest = limits.MAX_MESSAGE_BYTES
    line = file.readline(largest + 1)
    if len(line.rstrip(b"\r\n")) > largest:
        raise RecordingFileError(
            f"{where}:{number} is longer than the message limit ({largest} bytes, as for a live connection): not read."
        )
    return line


def _record(line: bytes, where: Path, number: int) -> JsonObject:
    try:
        record = parse_line(line)
    except RecordingFileError as exc:
        raise RecordingFileError(f"{where}:{number} is {exc}: not a recording.") from None  # one error, located
    if not isinstance(record, dict) or not isinstance(record.get("type"), str):
        raise RecordingFileError(f"{where}:{number} is not a recording line (an object with a type).")
    try:
        if record["type"] == "call":
            _check_call(record)
    except RecordingFileError as exc:
        raise RecordingFileError(f"{where}:{number}: {exc}.") from None
    return record


def _header(record: JsonObject, where: Path, number: int) -> Recording:
    if record["type"] != "recording":
        raise RecordingFileError(f"{where} does not start with a recording header: not written by --record.")
    if record.get("format") != FORMAT or isinstance(record.get("format"), bool):
        shown = repr(record.get("format"))[:40]
        raise RecordingFileError(f"{where}:{number} has format {shown}; this version reads {FORMAT}.")
    return Recording(where, record)


def _keep(found: Recording, record: JsonObject, where: Path, number: int, start: int) -> None:
    """What replay needs of one checked line; a line of an unknown type is left for newer readers."""
    try:
        if record["type"] == "server":
            found.server = _checked_server(record)
        elif record["type"] == "listing":
            kind = record.get("kind")
            if not isinstance(kind, str):
                raise RecordingFileError("a listing without a kind")
            found.listings[kind] = checked_items(kind, record.get("items"))
        elif record["type"] == "call":
            arguments = record.get("arguments") or {}
            found.calls.append({"tool": record["tool"], "arguments": arguments, "line": number, "offset": start})
    except RecordingFileError as exc:
        raise RecordingFileError(f"{where}:{number}: {exc}.") from None


def _checked_server(record: JsonObject) -> JsonObject:
    version, info, text = record.get("protocolVersion"), record.get("serverInfo"), record.get("instructions")
    if version is not None and not isinstance(version, str):
        raise RecordingFileError("the protocol version is not text")
    if info is not None and not isinstance(info, dict):
        raise RecordingFileError("the server's info is not an object")
    if text is not None and not isinstance(text, str):
        raise RecordingFileError("the server's instructions are not text")
    return {**record, "capabilities": checked_capabilities(record.get("capabilities"))}


def _check_call(record: JsonObject) -> None:
    """A call line as replay reads it: tool, arguments, progress steps, and a result or an error."""
    if not isinstance(record.get("tool"), str):
        raise RecordingFileError("a call without a tool name")
    if not isinstance(record.get("arguments") or {}, dict):
        raise RecordingFileError("the call's arguments are not an object")
    progress = record.get("progress") or []
    if not isinstance(progress, list) or not _are_steps(progress):
        raise RecordingFileError("the call's progress is not a list of [progress, total, message]")
    error, result = record.get("error"), record.get("result")
    if error is not None:
        _check_error(error)
    elif result is not None:
        checked_result(result)


def _are_steps(progress: list[Any]) -> bool:
    """Whether each step is ``[progress, total or null, message or null]``: checked by exact type in
    one loop, as the parser made them (a recording of millions of steps is read in seconds)."""
    for step in progress:
        if type(step) is not list or len(step) != 3:
            return False
        value, total, message = step
        if type(value) not in _NUMBERS or (total is not None and type(total) not in _NUMBERS):
            return False
        if message is not None and type(message) is not str:
            return False
    return True


def _is_number(value: object) -> bool:
    return isinstance(value, _NUMBER) and not isinstance(value, bool)


def _check_error(error: object) -> None:
    if not isinstance(error, dict):
        raise RecordingFileError("the call's error is not an object")
    if not isinstance(error.get("class", ""), str) or not isinstance(error.get("message", ""), str):
        raise RecordingFileError("the call's error has no class and message as text")
    if not isinstance(error.get("server_text", ""), str):
        raise RecordingFileError("the call's error text is not text")
    code = error.get("code", 0)
    if not isinstance(code, int) or isinstance(code, bool):
        raise RecordingFileError("the call's error code is not a whole number")
