"""The play page's live updates, bounded: one watcher per process tells each listener of a chat
when the chat's stored revision moves. A change this process made is passed on at once (the
served chats tell the watcher); for the changes of other workers and proxies on the same store,
the watcher reads the stored revision of every chat some page is watching in one store read
every `WATCH_EVERY` seconds. So a thousand open pages cost one small read every few seconds, not
a thousand reads, and an idle server with no page open reads nothing.

Open streams are capped per process and per tenant (`StreamLimits`); past a cap a new stream is
refused (`TooManyStreams`, answered 429 with `Retry-After`), and the streams already open go on.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import anyio
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from ..errors import GmTagsError

# How often the watched chats' stored revisions are read, in seconds: a change another process
# made shows on an open page within about this long (this process's own, at once).
WATCH_EVERY = 2.0
# How often a quiet stream is sent a comment line, so a proxy in between (nginx closes a quiet
# connection after 60 s by default) keeps it open. Each is a write (about 70 us here): at 1,000
# streams every 15 s they cost more than everything else an idle server does, so they are sent
# as rarely as that allows, and spread over the watcher's ticks rather than all at once.
HEARTBEAT_EVERY = 54.0
_BEAT_SLOTS = max(1, round(HEARTBEAT_EVERY / WATCH_EVERY))
GONE = -1  # what a listener is told when its chat is deleted: the stream ends
HEARTBEAT = -2  # what every listener is told each HEARTBEAT_EVERY seconds: a comment line


@dataclass(frozen=True)
class StreamLimits:
    """At most `per_process` open event streams in a process, `per_tenant` of one tenant (a
    server without keys serves one tenant, so only the first counts there)."""

    per_process: int = 1000
    per_tenant: int = 100


class TooManyStreams(GmTagsError):
    code = "too_many_streams"


# The stored revision of each of some chats that exist, in one store read.
Revisions = Callable[[list[str]], dict[str, int]]


class Watcher:
    def __init__(self, revisions: Revisions, limits: StreamLimits, *, keyed: bool) -> None:
        self.revisions, self.limits, self.keyed = revisions, limits, keyed
        self._listeners: dict[str, set[asyncio.Queue[int]]] = {}
        self._seen: dict[str, int] = {}
        self._open: Counter[str] = Counter()
        self._slots: dict[asyncio.Queue[int], int] = {}  # the tick each listener's beat is on
        self._joined = 0
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def changed(self, chat: str, revision: int) -> None:
        """Told from any thread that this process moved `chat` to `revision` (-1: deleted)."""
        if self._loop is not None and chat in self._listeners:
            self._loop.call_soon_threadsafe(self._moved, chat, GONE if revision < 0 else revision)

    def _moved(self, chat: str, revision: int) -> None:
        if chat in self._seen and revision != self._seen[chat]:
            self._seen[chat] = revision
            for queue in self._listeners.get(chat, ()):
                queue.put_nowait(revision)

    @property
    def open_streams(self) -> int:
        return sum(self._open.values())

    def listen(self, chat: str, tenant: str, revision: int) -> asyncio.Queue[int]:
        """A new listener of the chat stored as `chat`, last seen at `revision`;
        `TooManyStreams` past a cap."""
        if self.open_streams >= self.limits.per_process:
            raise TooManyStreams(
                f"{self.limits.per_process} event streams are open on this server, its most; "
                "close a page or try again later"
            )
        if self.keyed and self._open[tenant] >= self.limits.per_tenant:
            raise TooManyStreams(
                f"{self.limits.per_tenant} event streams are open for this key, its most; "
                "close a page or try again later"
            )
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._listeners.setdefault(chat, set()).add(queue)
        self._slots[queue] = self._joined % _BEAT_SLOTS
        self._joined += 1
        self._seen.setdefault(chat, revision)
        self._open[tenant] += 1
        if self._task is None or self._task.done():
            self._loop = asyncio.get_running_loop()
            self._task = self._loop.create_task(self._watch())
        return queue

    def leave(self, chat: str, tenant: str, queue: asyncio.Queue[int]) -> None:
        listeners = self._listeners.get(chat, set())
        listeners.discard(queue)
        self._slots.pop(queue, None)
        if not listeners:
            self._listeners.pop(chat, None)
            self._seen.pop(chat, None)
        self._open[tenant] -= 1
        if self._open[tenant] <= 0:
            del self._open[tenant]

    async def _watch(self) -> None:
        # One loop for every listener: the store read, and the heartbeats (one timer for them
        # all, each tick beating the listeners on its slot: a timer per stream cost ten times
        # the rest of an idle server).
        tick = 0
        while self._listeners:
            await asyncio.sleep(WATCH_EVERY)
            tick = (tick + 1) % _BEAT_SLOTS
            for queue, slot in self._slots.items():
                if slot == tick:
                    queue.put_nowait(HEARTBEAT)
            chats = list(self._listeners)
            try:
                now = await anyio.to_thread.run_sync(self.revisions, chats)
            except Exception:  # the store is busy or gone: look again next time
                continue
            for chat in chats:
                self._moved(chat, now.get(chat, GONE))


async def changes(queue: asyncio.Queue[int], seen: int) -> AsyncIterator[str]:
    """The server-sent events of one listener: `ready`, then `changed` with each new revision,
    and a comment line every `HEARTBEAT_EVERY` seconds (so proxies in between keep a quiet stream
    open); it ends when the chat is deleted."""
    yield f"event: ready\ndata: {seen}\n\n"
    while True:
        now = await queue.get()
        if now == GONE:
            return
        yield ": still here\n\n" if now == HEARTBEAT else f"event: changed\ndata: {now}\n\n"


class EventStream(StreamingResponse):
    """A stream that leaves its watcher however it ends: finished, or its client gone (even
    before the first event, when the body's generator never ran)."""

    def __init__(self, watcher: Watcher, chat: str, tenant: str, seen: int) -> None:
        self._leave = (watcher, chat, tenant)
        self._queue = watcher.listen(chat, tenant, seen)
        super().__init__(
            changes(self._queue, seen),
            media_type="text/event-stream",
            headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        watcher, chat, tenant = self._leave
        try:
            await super().__call__(scope, receive, send)
        finally:
            watcher.leave(chat, tenant, self._queue)
            with contextlib.suppress(Exception):
                await self.body_iterator.aclose()  # type: ignore[attr-defined]
