"""A streamed answer relayed to the client, whatever the protocol: the upstream's lines read a
network read at a time, each batch worked through in a worker thread by the protocol's reading
(its events checked, their text fed to the turn's streams, the narration written out), so the
event loop only relays bytes; then the end (the tags still waiting, the whole reply rewritten,
the turn written) in the worker too.

A reply the client stops reading is written as far as it was given out; one the upstream breaks
off (a broken event, no end marker, a failed connection) changes nothing and ends with the
protocol's error event.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Protocol

import anyio
import httpx2

from .turns import PendingTurn


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


async def relayed_turn(
    answer: httpx2.Response,
    turn: PendingTurn,
    reading: Reading,
    end: Callable[[], list[str]],
    broken: Callable[[str], str],
    unfinished: str,
) -> AsyncIterator[str]:
    """The upstream's stream as the client reads it: `reading`'s events, then `end`'s (called
    once the reading is done; it lands the turn). `broken` writes an error event; `unfinished`
    says a stream that ended before its end marker."""
    ended = False
    try:
        async for lines in sse_lines(answer):
            shown = await anyio.to_thread.run_sync(reading.take, lines)
            ended = reading.broken
            for event in shown:
                yield event
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
        with anyio.CancelScope(shield=True):
            await answer.aclose()


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
