"""The stdout line reader: lines split wherever the reads cut them, blank lines left out, a line
over the limit stops reading after the lines before it; over a real pipe, as wide as allowed."""

from __future__ import annotations

import asyncio
import os

from anvia_nb.core.transport.stdio.pipe_lines import LineReader, open_line_reader, wide_pipe


async def lines_of(reader: LineReader) -> list[bytes]:
    found = []
    while (line := await reader.next_line()) is not None:
        found.append(line)
    return found


def test_lines_are_whole_wherever_the_reads_cut_them() -> None:
    text = b'{"a": 1}\n\n  \n{"b": "' + b"x" * 5000 + b'"}\n{"c": 3}\n'
    for cut in (1, 2, 7, 100, 4999, len(text)):
        reader = LineReader(limit=1_000_000)
        for start in range(0, len(text), cut):
            reader.data_received(text[start : start + cut])
        reader.eof_received()
        assert asyncio.run(lines_of(reader)) == [b'{"a": 1}', b'{"b": "' + b"x" * 5000 + b'"}', b'{"c": 3}']


def test_a_line_over_the_limit_stops_reading_after_the_lines_before_it() -> None:
    reader = LineReader(limit=100)
    reader.data_received(b"first\n" + b"y" * 60)
    reader.data_received(b"y" * 60)  # the unfinished line is now over the limit
    reader.data_received(b"\nlater\n")
    assert asyncio.run(lines_of(reader)) == [b"first"]
    assert reader.too_large


def test_a_real_pipe_delivers_a_large_line_and_ends() -> None:
    async def main() -> list[bytes]:
        read_end, write_end = wide_pipe()
        reader, transport = await open_line_reader(read_end, limit=50_000_000)
        payload = b"z" * 5_000_000 + b"\nsmall\n"

        def write() -> None:
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)

        writing = asyncio.get_running_loop().run_in_executor(None, write)
        try:
            found = await asyncio.wait_for(lines_of(reader), 60)
        finally:
            await writing
            transport.close()
        return found

    assert asyncio.run(main()) == [b"z" * 5_000_000, b"small"]
