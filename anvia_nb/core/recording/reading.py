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

A call's progress holds at most :data:`~anvia_nb.core.protocol.limits.RECORDED_PROGRESS_KEPT`
steps when anvia_nb writes it. A line holding more is refused before it is parsed (parsing makes a
list and numbers of each step, about nine times the line's bytes): when the line has more arrays
than such a line can hold, a linear scan of its bytes (:func:`_progress_over`) finds the top-level
``progress`` and counts its items, reading strings whole and making nothing of them.
"""

from __future__ import annotations

import json
import re
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
_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
"""A JSON string (read whole by the regex engine) or a bracket: the tokens a line's structure is made of."""
_KEY = re.compile(rb"\s*:")
_OBJECT = re.compile(rb"\s*\{")
_BLANK = re.compile(rb"\s*")
_PROGRESS = "progress"
_KEY_BYTES = 2 + 6 * len(_PROGRESS)
"""The longest a key reading "progress" can be written (each letter as ``\\uXXXX``, and quotes)."""


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
        if _BLANK.fullmatch(line):  # no stripped copy of a large line
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
    """One line, never more than the message limit read into memory: its end is found first, a
    piece at a time, then the line is read in one piece (``readline`` of a large line holds its
    pieces and their join, twice the line)."""
    largest = limits.MAX_MESSAGE_BYTES
    start, size = file.tell(), 0
    while size <= largest:
        piece = file.readline(min(limits.RECORDING_READ_BYTES, largest + 1 - size))
        size += len(piece)
        if not piece or piece.endswith(b"\n"):
            break
    file.seek(start)
    line = file.read(size)
    end = len(line)
    while end and line[end - 1] in b"\r\n":  # its length without its line end, and without a copy
        end -= 1
    if end > largest:
        raise RecordingFileError(
            f"{where}:{number} is longer than the message limit ({largest} bytes, as for a live connection): not read."
        )
    return line


def _record(line: bytes, where: Path, number: int) -> JsonObject:
    most = limits.RECORDED_PROGRESS_KEPT
    over = _progress_over(line, most)
    if over == "not an object":
        raise RecordingFileError(f"{where}:{number} is not a recording line (an object with a type).")
    if over:
        raise _too_many_steps(where, number, most)
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
    if record["type"] == "call" and len(record.get("progress") or ()) > most:
        raise _too_many_steps(where, number, most)
    return record


def _too_many_steps(where: Path, number: int, most: int) -> RecordingFileError:
    return RecordingFileError(
        f"{where}:{number}: the call's progress holds more than {most:,} steps, more than anvia_nb records "
        "(limits.RECORDED_PROGRESS_KEPT): not read. Record the call again with this version of anvia_nb."
    )


def _progress_over(line: bytes, most: int) -> str:
    """Whether ``line``'s top-level ``progress`` holds more than ``most`` items (``"over"``), or the
    line is no object (``"not an object"``; ``""`` otherwise), read from its bytes without parsing it.

    Each step is an array, so a line with at most ``most + 1`` brackets ``[`` holds no more, nor
    does one where no key can read "progress" (neither the word nor a ``\\u`` escape): both are
    counted in C, and nothing more is done for them (a line of more that is no object is said so).
    Otherwise the tokens are walked once (a string is one token, read by the regex engine, so
    brackets inside text count for nothing), keeping the depth; the items of a ``progress`` list
    that is a member of the top-level object are counted by its commas (``bytes.count`` between
    tokens), and the walk stops as soon as they pass ``most`` or nothing after the list can be such
    a key. It makes no object but the tokens' matches."""
    if line.count(b"[") <= most + 1:
        return ""
    if _OBJECT.match(line) is None:
        return "not an object"
    if b"progress" not in line and b"\\u" not in line:
        return ""
    depth = 0  # the depth before the token
    items = 0  # the depth of the progress list's items while inside it, else 0
    commas = 0
    gap = 0  # where the text between the previous token and this one starts
    key = False  # the previous token was a top-level key reading "progress"
    for token in _TOKEN.finditer(line):
        start, end = token.span()
        head = line[start]
        if depth == 0 and head != 0x7B:  # {
            return "not an object"
        if items and depth == items:
            commas += line.count(b",", gap, start)
            if commas >= most:
                return "over"
        if head == 0x22:  # a string: a key of the top-level object may read "progress"
            key = depth == 1 and end - start <= _KEY_BYTES and _reads_progress(line, start, end)
        elif head in (0x5B, 0x7B):  # [ {
            depth += 1
            if key and head == 0x5B and line[gap:start].strip() == b":":
                items, commas = depth, 0
            key = False
        else:
            depth -= 1
            if items and depth < items:
                items = 0
                if line.find(b'progress"', end) < 0 and line.find(b"\\u", end) < 0:
                    return ""  # no key read afterwards can be another progress
        gap = end
    return ""


def _reads_progress(line: bytes, start: int, end: int) -> bool:
    """Whether the short string at ``start`` is a key (a colon follows) reading "progress"."""
    if _KEY.match(line, end) is None:
        return False
    text = line[start:end]
    if text == b'"progress"':
        return True
    if b"\\" not in text:
        return False
    try:
        return bool(json.loads(text) == _PROGRESS)
    except ValueError:
        return False


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
    dropped = record.get("progressDropped", 0)
    if type(dropped) is not int or dropped < 0:
        raise RecordingFileError("the call's progressDropped is not a count")
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
