"""A streamed answer relayed to the client, whatever the protocol: the upstream's lines read as
each network read completes and worked through by the protocol's reading (its events checked,
their text fed to the turn's streams, the narration written out). Until the first narration is
out, the upstream is read by the task that answers the client, with nothing between a read and
its write (the first words take no hop through another task or thread), and a read of one event
is worked on the event loop (one chunk's work); then by a task of its own, and the reads are
worked in a worker thread, so the event loop never holds more than one chunk's work and relays
bytes; then the end (the tags still waiting, the whole reply rewritten, the turn written) in the
worker.

The reads that arrive while the worker works go to it together in its next trip, their events
out in one write: a slow upstream's token goes the moment it arrives, and a fast upstream costs
a few trips instead of one per read (a trip costs more than the stream's work on a few chunks:
a 64 KB reply in 4-character chunks took the proxy 5.5 s of CPU that way, 2.3 s this way).

A reply the client stops reading is written as far as the client was sent it (`given_out`: a
batch worked while it left is not kept, nor is an event it left before); one the upstream breaks
off (a broken event, no end marker, a failed connection) changes nothing and ends with the
protocol's error event.
"""

from __future__ import annotations

import codecs
import json
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping
from contextlib import suppress
from typing import Protocol

import anyio
import anyio.lowlevel
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from starlette.background import BackgroundTask
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from .clients import Answer, UpstreamError
from .turns import AnswerTurn

# The network reads held for the worker, at most, while it works through the ones before.
READ_AHEAD = 256
# An event's data as JSON, by a writer made once (json.dumps makes one a call).
event_json = json.JSONEncoder(ensure_ascii=False).encode
_utf8 = codecs.getincrementaldecoder("utf-8")
# A network read's lines, or how the upstream failed after them.
_Read = list[str] | UpstreamError


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
    """The upstream's stream as the client reads it (`events`): `reading`'s events, then `end`'s
    (called once the reading is done; it lands the turn). `broken` writes an error event;
    `unfinished` says a stream that ended before its end marker."""

    def __init__(
        self,
        answer: Answer,
        turn: AnswerTurn,
        reading: Reading,
        end: Callable[[], list[str]],
        broken: Callable[[str], str],
        unfinished: str,
    ) -> None:
        self._answer, self._turn, self._reading = answer, turn, reading
        self._end, self._broken, self._unfinished = end, broken, unfinished

    async def events(self, beside: TaskGroup) -> AsyncGenerator[str, None]:
        """The events, as the upstream's reads come (`_reads`, whose reader runs in `beside`).
        Once the events of what was read are out (the consumer asked for more after them), or
        it gave none, the turn is told (`given_out`): a stop keeps the reply as far as that."""
        turn, reading = self._turn, self._reading
        ended = False
        reads = self._reads(beside)
        try:
            async for lines in reads:
                held: list[str] = []  # the events of what fed no text, to go with the next's
                while lines and not (_narrating(turn) or reading.broken or reading.done):
                    # Until the first narration is out, the read is worked here an event at a
                    # time (one chunk's work, the loop free between two): the first words go
                    # without waiting for a worker thread, however many events the read holds.
                    head, lines = _first_event(lines)
                    fed = _fed(turn)
                    held += reading.take(head)
                    ended = reading.broken
                    if lines and _fed(turn) == fed and not (reading.broken or reading.done):
                        # Nothing fed (the role, an empty text): its events go out in one write
                        # with the next event's, the first words among them, not one before.
                        continue
                    if held:
                        yield "".join(held)
                        held = []
                    turn.given_out()
                    await anyio.lowlevel.checkpoint()
                if lines and not (reading.broken or reading.done):
                    shown = await anyio.to_thread.run_sync(_taken, reading, lines)
                    # The client may have gone while the worker worked: its events never go.
                    await anyio.lowlevel.checkpoint_if_cancelled()
                    ended = reading.broken
                    if shown:
                        yield "".join(shown)  # one write for the events of the reads taken together
                    turn.given_out()
                if reading.broken or reading.done:
                    break
            if reading.broken:
                return
            if not reading.done:
                ended = True
                yield self._broken(self._unfinished)
                return
            last = await anyio.to_thread.run_sync(self._end)
            ended = True  # landed: a client that leaves before the last events changes nothing
            for event in last:
                yield event
        except UpstreamError as failure:
            ended = True
            yield self._broken(f"the upstream failed mid-stream: {failure.name}")
        finally:
            with anyio.CancelScope(shield=True):
                if not ended:  # the client went away: keep what it was given
                    await anyio.to_thread.run_sync(turn.land, True)
                turn.settle()  # a broken stream writes nothing
                await reads.aclose()  # the reader, if started, stops and closes the answer

    async def close(self) -> None:
        """The upstream's answer closed (when its reader, if one was started, has stopped)."""
        await self._answer.close()

    async def _reads(self, beside: TaskGroup) -> AsyncGenerator[list[str], None]:
        """The lines of the upstream's reads: read here, one read at a time, until the first
        narration is out (no hop through another task before the first words); then by a task
        in `beside` (`_read_ahead`), so the upstream is read while a worker works, and every
        read waiting is given together."""
        lines_of = sse_lines(self._answer)
        async for lines in lines_of:
            yield lines
            if _narrating(self._turn):
                break
        else:
            return
        reads_in, reads = anyio.create_memory_object_stream[_Read](READ_AHEAD)
        beside.start_soon(_read_ahead, lines_of, reads_in, self._answer)
        with reads:  # closed: the reader stops at its next read
            async for joined in _together(reads):
                yield joined


class RelayedStream(StreamingResponse):
    """The response of a `Relay`, its events sent by a plain loop of ASGI sends (as a bare hop
    sends them: no task between the upstream's first read and the client), with a task beside
    it that stops the stream when the client goes away."""

    def __init__(
        self, relay: Relay, headers: Mapping[str, str], background: BackgroundTask | None = None
    ) -> None:
        # The body is the relay's events, sent by `__call__`: `StreamingResponse` is kept for its
        # headers and background task.
        super().__init__((), media_type="text/event-stream", headers=headers, background=background)
        self._relay = relay

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(self._stopped_on_disconnect, receive, group.cancel_scope)
                start = {"status": self.status_code, "headers": self.raw_headers}
                await send({"type": "http.response.start", **start})
                events = self._relay.events(group)
                try:
                    async for event in events:
                        # A client that went away gets nothing more (a server drops it without a
                        # word): what it was given is what the turn keeps.
                        await anyio.lowlevel.checkpoint_if_cancelled()
                        body = event.encode("utf-8")
                        await send({"type": "http.response.body", "body": body, "more_body": True})
                finally:
                    with anyio.CancelScope(shield=True):
                        await events.aclose()  # a stream stopped mid-send lands now, not later
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                group.cancel_scope.cancel()  # the answer is out: stop listening, stop reading
        finally:
            with anyio.CancelScope(shield=True):
                await self._relay.close()
        if self.background is not None:
            await self.background()

    async def _stopped_on_disconnect(self, receive: Receive, stream: anyio.CancelScope) -> None:
        """Once the client goes away, the stream (`stream`, its cancel scope) stops."""
        await self.listen_for_disconnect(receive)
        stream.cancel()


async def _read_ahead(
    lines_of: AsyncIterator[list[str]],
    reads_in: MemoryObjectSendStream[_Read],
    answer: Answer,
) -> None:
    """The answer's reads sent on as they complete, then its failure, if it failed; the answer
    is closed at the end, or when no one reads on."""
    async with reads_in:
        try:
            async for lines in lines_of:
                await reads_in.send(lines)
        except UpstreamError as failure:
            with suppress(anyio.BrokenResourceError):
                await reads_in.send(failure)
        except anyio.BrokenResourceError:
            pass  # the stream ended (done, cut, broken): the rest is not read
        finally:
            with anyio.CancelScope(shield=True):
                await answer.close()


def _narrating(turn: AnswerTurn) -> bool:
    """Whether the turn's first narration is out."""
    return any(stream.narrating for stream in turn.streams)


def _fed(turn: AnswerTurn) -> int:
    """How much text the turn's streams were fed."""
    return sum(len(stream.text) for stream in turn.streams)


def _taken(reading: Reading, lines: list[str]) -> list[str]:
    """`reading.take(lines)` a line at a time, the GIL handed to the event loop between lines: a
    worker that kept it for a whole batch would make each of the loop's steps wait up to the
    switch interval (5 ms); `/health` while a fast upstream streamed took 5-10 times as long."""
    events: list[str] = []
    for line in lines:
        events += reading.take([line])
        time.sleep(0)
    return events


def _first_event(lines: list[str]) -> tuple[list[str], list[str]]:
    """`lines` split after the blank line that ends their first event (all of them when none
    does)."""
    end = lines.index("") + 1 if "" in lines else len(lines)
    return lines[:end], lines[end:]


async def _together(reads: MemoryObjectReceiveStream[_Read]) -> AsyncIterator[list[str]]:
    """The lines of every read waiting, joined (waiting for one when none is); a failure is
    raised after the lines read before it."""
    async for read in reads:
        lines: list[str] = []
        while not isinstance(read, UpstreamError):
            lines += read
            try:
                read = reads.receive_nowait()
            except (anyio.WouldBlock, anyio.EndOfStream):
                break
        if lines:
            yield lines
        if isinstance(read, UpstreamError):
            raise read


async def sse_lines(answer: Answer) -> AsyncIterator[list[str]]:
    """The answer's lines, as many at a time as each network read completes (the last one
    without its line break too, and a blank line after it, which ends its event). A line ends
    at LF, CRLF or CR, as SSE has it (a CRLF split between two reads makes an extra blank line,
    which ends no event that was not ended)."""
    pending = ""
    decoder = _utf8(errors="replace")  # as httpx2 read text: a character split between reads
    async for chunk in answer.chunks():
        text = decoder.decode(chunk)
        pending += text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
        if "\n" in pending:
            *lines, pending = pending.split("\n")
            yield lines
    pending += decoder.decode(b"", final=True)
    if pending:
        yield [pending, ""]
