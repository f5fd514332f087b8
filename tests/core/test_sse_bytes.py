"""The SSE reader on bytes reads every stream as httpx2's parser reads its text: the same events
(name, data as text, id, retry) and the same error past the size bound, however the bytes are cut
into chunks. httpx2's side is fed as ``EventSource`` feeds it: the chunks decoded by an
incremental UTF-8 decoder with ``errors="replace"``, then the decoder's and the parser's flush."""

from __future__ import annotations

import codecs
import itertools

import httpx2
import pytest
from httpx2._sse import _SSEParser
from hypothesis import given, settings
from hypothesis import strategies as st

from anvia_nb.core.transport.http.sse_bytes import EventReader

Outcome = tuple[list[tuple[str, str, str, int | None]], str | None]
"""The events read, then the error that stopped the reading (``None`` when none did)."""


def httpx2_reads(chunks: list[bytes], bound: int | None = None) -> Outcome:
    parser = _SSEParser(bound)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    events: list[tuple[str, str, str, int | None]] = []
    texts = [decoder.decode(chunk) for chunk in chunks] + [decoder.decode(b"", True)]
    try:
        for e in itertools.chain.from_iterable([*map(parser.decode, texts), parser.flush()]):
            events.append((e.event, e.data, e.id, e.retry))
    except httpx2.SSEError as exc:
        return events, str(exc)
    return events, None


def bytes_read(chunks: list[bytes], bound: int | None = None) -> Outcome:
    reader = EventReader(bound)
    events: list[tuple[str, str, str, int | None]] = []
    try:
        for chunk in chunks:
            for e in reader.feed(chunk):
                assert isinstance(e.data, bytes)
                events.append((e.event, e.data.decode("utf-8", "replace"), e.id, e.retry))
        for e in reader.finish():
            events.append((e.event, e.data.decode("utf-8", "replace"), e.id, e.retry))
    except httpx2.SSEError as exc:
        return events, str(exc)
    return events, None


def cuts(stream: bytes, pieces: int) -> list[list[bytes]]:
    """``stream`` cut into ``pieces`` chunks (empty ones too) at every possible place."""
    found = []
    for places in itertools.combinations_with_replacement(range(len(stream) + 1), pieces - 1):
        edges = [0, *places, len(stream)]
        found.append([stream[a:b] for a, b in itertools.pairwise(edges)])
    return found


STREAMS = {
    "lf": b"event: tick\ndata: 1\n\ndata: 2\n\n",
    "crlf": b"event: tick\r\ndata: 1\r\nid: 7\r\n\r\ndata: 2\r\n\r\n",
    "lone cr": b"data: a\rdata: b\r\rdata: c\r\r",
    "cr at the end": b"data: last\r",
    "cr then lf at the end": b"data: x\r\n",
    "blank cr at the end": b"data: x\n\r",
    "comments": b": hello\n:\ndata: x\n: inside\n\n:only a comment\n\n",
    "multi-line data": b'data: {"a":\ndata:  1}\ndata\ndata:\n\n',
    "empty data": b"data:\n\ndata: \n\nid: 3\ndata\n\n",
    "field without colon": b"event\ndata\nid\nretry\nnothing\n\n",
    "id with nul": b"id: 5\ndata: a\n\nid: 6\x007\ndata: b\n\n",
    "retry": b"retry: 250\ndata: a\n\nretry: soon\ndata: b\n\nretry: -3\n\nretry:  7\n\nretry: 1_0\n\n",
    "no trailing blank line": b"data: first\n\ndata: never sent\n",
    "no line end at all": b"data: first\n\ndata: never",
    "one space stripped": b"data:  two spaces\nevent:x\n\n",
    "unknown fields": b"foo: bar\nData: no\ndata : no\n\n",
    "non-ascii": "event: é\ndata: 日本語 ü\nid: 日\n\n".encode(),
    "invalid utf-8": b"data: \xff\xfe ok \xe6\x97\nid: \xc3\ndata: \xe6\x97\xa5\n\n",
    "colon in the value": b"data: a: b : c\n\n",
    "bom": b"\xef\xbb\xbfdata: x\n\ndata: y\n\n",
}


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_every_stream_reads_as_httpx2_reads_it_cut_anywhere(name: str) -> None:
    stream = STREAMS[name]
    expected = httpx2_reads([stream])
    assert expected == bytes_read([stream])
    assert bytes_read([bytes([b]) for b in stream]) == expected
    for chunks in cuts(stream, 3 if len(stream) <= 60 else 2):
        assert bytes_read(chunks) == httpx2_reads(chunks) == expected, chunks


def test_a_non_ascii_character_cut_inside_reads_whole() -> None:
    stream = "data: 日本\n\n".encode()
    for chunks in cuts(stream, 2):
        assert bytes_read(chunks) == ([("message", "日本", "", None)], None)


BOUND = 40
SIZED = {
    "under": b"data: " + b"x" * 30 + b"\n\n",
    "at the bound": b"data: " + b"x" * 34 + b"\n\n",
    "one past": b"data: " + b"x" * 35 + b"\n\n",
    "two lines past": b"event: e\ndata: " + b"x" * 20 + b"\nid: 1\ndata: " + b"y" * 10 + b"\n\n",
    "reset by each event": (b"data: " + b"x" * 30 + b"\n\n") * 3,
    "long comment": b": " + b"c" * 100 + b"\ndata: x\n\n",
    "unterminated line past": b"data: ok\n\ndata: " + b"z" * 60,
    "non-ascii past": "data: ok\n\ndata: 日本語日本語日本語日本語\n\n".encode(),
}


@pytest.mark.parametrize("name", sorted(SIZED))
def test_the_size_bound_is_httpx2s_cut_anywhere(name: str) -> None:
    stream = SIZED[name]
    whole = httpx2_reads([stream], BOUND)
    assert bytes_read([stream], BOUND) == whole
    if "past" in name:
        assert whole[1] == f"Server-sent event exceeded the {BOUND} byte limit."
    else:
        assert whole[1] is None and whole[0]
    for chunks in cuts(stream, 2):  # a comment's unended part counts too: cut, it may fail
        assert bytes_read(chunks, BOUND) == httpx2_reads(chunks, BOUND), chunks


def test_a_pending_line_past_the_bound_fails_before_it_ends() -> None:
    reader = EventReader(10)
    assert list(reader.feed(b"data: 12")) == []
    with pytest.raises(httpx2.SSEError, match="exceeded the 10 byte limit"):
        list(reader.feed(b"345"))


TOKENS = [
    b"data",
    b"event",
    b"id",
    b"retry",
    b":",
    b" ",
    b"\r",
    b"\n",
    b"\r\n",
    b"x",
    b"7",
    b"-",
    b"\x00",
    "é".encode(),
    "日".encode(),
    b"\xe6",
    b"\xff",
    b"{}",
]
ASCII_TOKENS = [t for t in TOKENS if t.isascii()]


def _chunked(stream: bytes, places: list[int]) -> list[bytes]:
    edges = [0, *sorted(p % (len(stream) + 1) for p in places), len(stream)]
    return [stream[a:b] for a, b in itertools.pairwise(edges)]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=60), st.lists(st.integers(0, 10_000), max_size=6))
def test_any_stream_cut_anyhow_reads_as_httpx2_reads_it(tokens: list[bytes], places: list[int]) -> None:
    stream = b"".join(tokens)
    chunks = _chunked(stream, places)
    assert bytes_read(chunks) == httpx2_reads(chunks)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(ASCII_TOKENS), max_size=60),
    st.lists(st.integers(0, 10_000), max_size=6),
    st.integers(0, 30),
)
def test_any_ascii_stream_meets_the_bound_as_in_httpx2(tokens: list[bytes], places: list[int], bound: int) -> None:
    """ASCII only: httpx2 counts the text its decoder has let through, which holds back the start
    of a character cut by a chunk (a few bytes less for a comment not yet ended)."""
    stream = b"".join(tokens)
    chunks = _chunked(stream, places)
    assert bytes_read(chunks, bound) == httpx2_reads(chunks, bound)
