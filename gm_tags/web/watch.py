"""The play page's live updates, bounded: one watcher per process reads the stored revision of
every chat some page is watching, in one store read every `WATCH_EVERY` seconds, and tells each
of that chat's listeners when it moved (whichever worker or proxy moved it). So a thousand open
pages cost one small read twice a second, not a thousand, and an idle server with no page open
reads nothing.

Open streams are capped per process and per tenant (`StreamLimits`); past a cap a new stream is
refused (`TooManyStreams`, answered 429 with `Retry-After`), and the streams already open go on.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass

import anyio
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from ..errors import GmTagsError
from ..service.chats import ServedChats

# How often the watched chats' stored revisions are read, in seconds.
WATCH_EVERY = 0.5
HEARTBEAT_EVERY = 15.0
GONE = -1  # what a listener is told when its chat is deleted: the stream ends


@dataclass(frozen=True)
class StreamLimits:
    """At most `per_process` open event streams in a process, `per_tenant` of one tenant (a
    server without keys serves one tenant, so only the first counts there)."""

    per_process: int = 1000
    per_tenant: int = 100


class TooManyStreams(GmTagsError):
    code = "too_many_streams"


class Watcher:
    def __init__(self, served: ServedChats, limits: StreamLimits, *, keyed: bool) -> None:
        self.served, self.limits, self.keyed = served, limits, keyed
        self._listeners: dict[str, set[asyncio.Queue[int]]] = {}
        self._seen: dict[str, int] = {}
        self._open: Counter[str] = Counter()
        self._task: asyncio.Task[None] | None = None

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
        self._seen.setdefault(chat, revision)
        self._open[tenant] += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._watch())
        return queue

    def leave(self, chat: str, tenant: str, queue: asyncio.Queue[int]) -> None:
        listeners = self._listeners.get(chat, set())
        listeners.discard(queue)
        if not listeners:
            self._listeners.pop(chat, None)
            self._seen.pop(chat, None)
        self._open[tenant] -= 1
        if self._open[tenant] <= 0:
            del self._open[tenant]

    async def _watch(self) -> None:
        while self._listeners:
            await asyncio.sleep(WATCH_EVERY)
            chats = list(self._listeners)
            try:
                now = await anyio.to_thread.run_sync(self.served.revisions, chats)
            except Exception:  # the store is busy or gone: look again next time
                continue
            for chat in chats:
                revision = now.get(chat, GONE)
                if chat in self._seen and revision != self._seen[chat]:
                    self._seen[chat] = revision
                    for queue in self._listeners.get(chat, ()):
                        queue.put_nowait(revision)


async def changes(queue: asyncio.Queue[int], seen: int) -> AsyncIterator[str]:
    """The server-sent events of one listener: `ready`, then `changed` with each new revision,
    a comment line every `HEARTBEAT_EVERY` seconds of quiet; it ends when the chat is deleted."""
    yield f"event: ready\ndata: {seen}\n\n"
    while True:
        try:
            now = await asyncio.wait_for(queue.get(), HEARTBEAT_EVERY)
        except TimeoutError:
            yield ": still here\n\n"
            continue
        if now == GONE:
            return
        yield f"event: changed\ndata: {now}\n\n"


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
