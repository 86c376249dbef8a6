"""A streamed answer relayed to the client, whatever the protocol: the upstream's lines read by
a task of their own, as each network read completes, and worked through by the protocol's
reading (its events checked, their text fed to the turn's streams, the narration written out):
until the first narration is out, a read of one event on the event loop (one chunk's work: the
first words go out at once), and then in a worker thread, so the event loop never holds more than
one chunk's work and relays bytes; then the end (the tags still waiting, the whole reply
rewritten, the turn written) in the worker.

The reads that arrive while the worker works go to it together in its next trip, their events
out in one write: a slow upstream's token goes the moment it arrives, and a fast upstream costs
a few trips instead of one per read (a trip costs more than the stream's work on a few chunks:
a 64 KB reply in 4-character chunks took the proxy 5.5 s of CPU that way, 2.3 s this way).

A reply the client stops reading is written as far as it was given out; one the upstream breaks
off (a broken event, no end marker, a failed connection) changes nothing and ends with the
protocol's error event.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import suppress
from typing import Protocol

import anyio
import httpx2
from anyio.streams.memory import MemoryObjectReceiveStream
from starlette.background import BackgroundTask
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from .turns import AnswerTurn

# The network reads held for the worker, at most, while it works through the ones before.
READ_AHEAD = 256
# A network read's lines, or how the upstream failed after them.
_Read = list[str] | httpx2.HTTPError


class Reading(Protocol):
    """A protocol's reading of one streamed answer."""

    @property
    def done(self) -> bool:
        """The end marker came, or the reply was cut: nothing more is read."""

    @property
    def broken(self) -> bool:
        """An error event was given out: the stream ends, and changes no game."""

    def take(self, lines: list[str]) -> list[str]:
        """The events the client gets for these lines of the upstream's stream."""


class Relay:
    """The upstream's stream as the client reads it, iterated (`RelayedStream` runs `read_ahead`,
    which reads the upstream, beside it): `reading`'s events, then `end`'s (called once the
    reading is done; it lands the turn). `broken` writes an error event; `unfinished` says a
    stream that ended before its end marker."""

    def __init__(
        self,
        answer: httpx2.Response,
        turn: AnswerTurn,
        reading: Reading,
        end: Callable[[], list[str]],
        broken: Callable[[str], str],
        unfinished: str,
    ) -> None:
        self._answer = answer
        self._reads_in, reads = anyio.create_memory_object_stream[_Read](READ_AHEAD)
        self._events = _events(reads, turn, reading, end, broken, unfinished)

    def __aiter__(self) -> AsyncIterator[str]:
        return self._events

    async def read_ahead(self) -> None:
        """The answer's reads sent on as they complete, then its failure, if it failed; the
        answer is closed at the end, or when no one reads on."""
        async with self._reads_in as reads:
            try:
                async for lines in sse_lines(self._answer):
                    await reads.send(lines)
            except httpx2.HTTPError as failure:
                with suppress(anyio.BrokenResourceError):
                    await reads.send(failure)
            except anyio.BrokenResourceError:
                pass  # the stream ended (done, cut, broken): the rest is not read
            finally:
                with anyio.CancelScope(shield=True):
                    await self._answer.aclose()


class RelayedStream(StreamingResponse):
    """The response of a `Relay`: its events, with its upstream read by a task beside them."""

    def __init__(
        self, relay: Relay, headers: Mapping[str, str], background: BackgroundTask | None = None
    ) -> None:
        super().__init__(
            relay, media_type="text/event-stream", headers=headers, background=background
        )
        self._relay = relay

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(self._relay.read_ahead)
            try:
                await super().__call__(scope, receive, send)
            finally:
                group.cancel_scope.cancel()  # the client went away: stop reading, close


async def _events(
    reads: MemoryObjectReceiveStream[_Read],
    turn: AnswerTurn,
    reading: Reading,
    end: Callable[[], list[str]],
    broken: Callable[[str], str],
    unfinished: str,
) -> AsyncIterator[str]:
    ended = False
    waiting = True  # for the first narration
    try:
        async for lines in _together(reads):
            if waiting and _one_event(lines):
                # Until the first narration is out, a read of one event (one chunk's work) is
                # worked here: the first words go without waiting for a worker thread.
                shown = reading.take(lines)
                waiting = not any(stream.narrating for stream in turn.streams)
            else:
                shown = await anyio.to_thread.run_sync(_taken, reading, lines)
            ended = reading.broken
            if shown:
                yield "".join(shown)  # one write for the events of the reads taken together
            if reading.broken or reading.done:
                break
        if reading.broken:
            return
        ended = True
        if not reading.done:
            yield broken(unfinished)
            return
        for event in await anyio.to_thread.run_sync(end):
            yield event
    except httpx2.HTTPError as failure:
        ended = True
        yield broken(f"the upstream failed mid-stream: {type(failure).__name__}")
    finally:
        if not ended:
            turn.land(True)  # the client went away: keep what it saw
        turn.settle()  # a broken stream writes nothing
        reads.close()  # the reader stops and closes the answer


def _taken(reading: Reading, lines: list[str]) -> list[str]:
    """`reading.take(lines)` a line at a time, the GIL handed to the event loop between lines: a
    worker that kept it for a whole batch would make each of the loop's steps wait up to the
    switch interval (5 ms); `/health` while a fast upstream streamed took 5-10 times as long."""
    events: list[str] = []
    for line in lines:
        events += reading.take([line])
        time.sleep(0)
    return events


def _one_event(lines: list[str]) -> bool:
    """Whether `lines` hold one event's data at most."""
    return sum(line.startswith("data:") for line in lines) <= 1


async def _together(reads: MemoryObjectReceiveStream[_Read]) -> AsyncIterator[list[str]]:
    """The lines of every read waiting, joined (waiting for one when none is); a failure is
    raised after the lines read before it."""
    async for read in reads:
        lines: list[str] = []
        while not isinstance(read, httpx2.HTTPError):
            lines += read
            try:
                read = reads.receive_nowait()
            except (anyio.WouldBlock, anyio.EndOfStream):
                break
        if lines:
            yield lines
        if isinstance(read, httpx2.HTTPError):
            raise read


async def sse_lines(answer: httpx2.Response) -> AsyncIterator[list[str]]:
    """The answer's lines, as many at a time as each network read completes (the last one
    without its line break too, and a blank line after it, which ends its event). A line ends
    at LF, CRLF or CR, as SSE has it (a CRLF split between two reads makes an extra blank line,
    which ends no event that was not ended)."""
    pending = ""
    async for text in answer.aiter_text():
        pending += text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
        if "\n" in pending:
            *lines, pending = pending.split("\n")
            yield lines
    if pending:
        yield [pending, ""]
