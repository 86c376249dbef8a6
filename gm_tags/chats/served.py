"""The chats one server process serves: held in memory, each step written to the store before it
is answered, and steps on one chat taken one at a time.

A step is computed on the chat value as it stands, written in one transaction, and only then
becomes the chat the next request sees; a step whose write fails leaves both the store and the
memory as they were.

Several processes may serve one store (PostgreSQL, or one SQLite file): every chat carries a
revision that each step bumps. A step is written only if the chat is still at the revision it
was computed on, and reads older messages only as they were at it (gm_tags.history_pages); when
another process got there first, the chat is read again and the step taken again on it
(`RETRIES` times, then `StaleChatError`, a 409). A read checks the stored revision, so
no process answers from a chat another one has changed.

Memory stays bounded whatever ids requests name: chats are locked by a fixed set of stripes (two
chats may share one and wait for each other, never two steps of one chat run at once), and only
the `HELD` most recently used chats are kept; any other is read back from the store when asked for.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from ..game import Game
from ..history import Chat
from ..store import Chats, Fork, StaleChatError, Store

T = TypeVar("T")
# Where a chat's ruleset comes from, as the chat records it (`{"path": ...}`).
Source = dict[str, object]

STRIPES = 64
HELD = 256
# How many times a step is taken again on a chat another process changed first.
RETRIES = 5


class ServedChats:
    """The store is opened on first use and closed by `close()` (when the app shuts down); an app
    started again opens it again."""

    def __init__(self, open_store: Callable[[], Store]) -> None:
        self._open_store = open_store
        # Told (from the thread that wrote it) each chat this process changes and its revision
        # after (-1: deleted): the play page's watcher passes it on at once (gm_tags.web.watch).
        self.changed: Callable[[str, int], None] | None = None
        self._chats: Chats | None = None
        self._held: OrderedDict[str, tuple[Chat, int]] = OrderedDict()
        self._stripes = tuple(threading.RLock() for _ in range(STRIPES))
        self._guard = threading.Lock()

    def open(self) -> Chats:
        """The chats of the store, opening it if it is not open (raises `StoreError` for a file
        that is not one)."""
        with self._guard:
            if self._chats is None:
                self._chats = Chats(self._open_store())
            return self._chats

    @property
    def chats(self) -> Chats:
        return self.open()

    def close(self) -> None:
        with self._guard:
            if self._chats is not None:
                self._chats.store.close()
            self._chats = None
            self._held.clear()

    def _lock(self, chat_id: str) -> threading.RLock:
        return self._stripes[hash(chat_id) % STRIPES]

    def _recall(self, chat_id: str) -> tuple[Chat, int] | None:
        with self._guard:
            held = self._held.get(chat_id)
            if held is not None:
                self._held.move_to_end(chat_id)
            return held

    def _hold(self, chat_id: str, chat: Chat, revision: int) -> None:
        with self._guard:
            self._held[chat_id] = (chat, revision)
            self._held.move_to_end(chat_id)
            while len(self._held) > HELD:
                self._held.popitem(last=False)

    def _forget(self, chat_id: str) -> None:
        with self._guard:
            self._held.pop(chat_id, None)

    def _current(
        self, chat_id: str, *, checked: bool, stored: int | None = None
    ) -> tuple[Chat, int]:
        """The chat as held, read from the store when it is not held, or (when `checked`) when
        the store has it at another revision (`stored`: the revision a read of the caller's
        found it at, else read now)."""
        held = self._recall(chat_id)
        if held is not None and checked:
            if stored is None:
                stored = self.chats.store.revision(chat_id)
            if stored != held[1]:
                held = None
        if held is None:
            held = self.chats.open_at(chat_id)  # UnknownChatError when there is none
            self._hold(chat_id, *held)
        return held

    def create(self, chat_id: str | None, source: Source, start: Game, title: str = "") -> str:
        """Store a new chat (a made-up id when none is given); `ChatExistsError` when taken."""
        chat_id = chat_id or uuid.uuid4().hex
        with self._lock(chat_id):
            self._hold(chat_id, self.chats.create(chat_id, dict(source), start, title), 0)
        return chat_id

    def put(
        self, chat_id: str, source: Source, chat: Chat, title: str = "", fork: Fork | None = None
    ) -> Chat:
        """Store a whole new chat (`ChatExistsError` when the id is taken), held as it is: the
        next request on it reads none of it back (a pasted history of 10,000 turns). With
        `fork`, the messages it shares with the chat it forks from are copied in the store
        (`StaleChatError` when that chat changed since). Returns the chat as held (the very
        one the next read gives)."""
        with self._lock(chat_id):
            self.chats.put(chat_id, dict(source), chat, replace=False, title=title, fork=fork)
            held = self.chats.as_read(chat_id, chat, 0, shared=fork.shared if fork else 0)
            self._hold(chat_id, held, 0)  # a new chat is at 0
            return held

    def chat_ids(self, tenant: str | None = None) -> list[str]:
        """The ids of every chat, or of one tenant's, as stored."""
        return self.chats.store.chat_ids(tenant)

    def revisions(self, chat_ids: list[str]) -> dict[str, int]:
        """The stored revision of each of `chat_ids` that exists, in one read."""
        return self.chats.store.revisions(chat_ids)

    def read(self, chat_id: str) -> Chat:
        return self.read_at(chat_id)[0]

    def read_at(self, chat_id: str, stored: int | None = None) -> tuple[Chat, int]:
        """The chat as stored now, and its revision; with `stored`, the chat as stored when a
        read of the caller's found it at that revision (`Store.found`): held at it, it is not
        asked for again (a step written since is refused at its write, as one written just
        after a read now would be), else read."""
        with self._lock(chat_id):
            return self._current(chat_id, checked=True, stored=stored)

    def revision(self, chat_id: str) -> int:
        return self.chats.store.revision(chat_id)

    def step(
        self, chat_id: str, take: Callable[[Chat], tuple[Chat, T]], *, retries: int = RETRIES
    ) -> tuple[Chat, T]:
        """Take one step on a chat: `take` returns the new chat and what to answer. It may be
        called again on the chat as another process left it (see the module's note)."""
        with self._lock(chat_id):
            for attempt in range(retries + 1):
                # Checked first: a step computed on a chat another worker changed would only
                # be refused at its write and taken again.
                before, revision = self._current(chat_id, checked=True)
                try:
                    # A chat reads its older messages when a step asks for them: one another
                    # process rewrote since is stale there too, and the step is taken again.
                    after, answer = take(before)
                    revision = self.chats.save(chat_id, before, after, revision)
                except StaleChatError:
                    self._forget(chat_id)
                    if attempt == retries:
                        raise
                    continue
                self._hold(chat_id, after, revision)
                if self.changed is not None:
                    self.changed(chat_id, revision)
                return after, answer
            raise AssertionError("unreachable")  # the loop returns or raises

    def delete(self, chat_id: str) -> None:
        with self._lock(chat_id):
            self._current(chat_id, checked=False)
            self.chats.store.delete(chat_id)
            if self.changed is not None:
                self.changed(chat_id, -1)
            self._forget(chat_id)
