"""The chats one server process serves: held in memory, each step written to the store before it
is answered, and steps on one chat taken one at a time.

A step is computed on the chat value as it stands, written in one transaction, and only then
becomes the chat the next request sees; a step whose write fails leaves both the store and the
memory as they were.

Memory stays bounded whatever ids requests name: chats are locked by a fixed set of stripes (two
chats may share one and wait for each other, never two steps of one chat run at once), and only
the `HELD` most recently used chats are kept; any other is read back from the store when asked for.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from ..game import Game
from ..history import Chat
from ..store import Chats, Store

T = TypeVar("T")

STRIPES = 64
HELD = 256


class ServedChats:
    """The store is opened on first use and closed by `close()` (when the app shuts down); an app
    started again opens it again."""

    def __init__(self, open_store: Callable[[], Store]) -> None:
        self._open_store = open_store
        self._chats: Chats | None = None
        self._held: OrderedDict[str, Chat] = OrderedDict()
        self._stripes = tuple(threading.Lock() for _ in range(STRIPES))
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

    def _lock(self, chat_id: str) -> threading.Lock:
        return self._stripes[hash(chat_id) % STRIPES]

    def _recall(self, chat_id: str) -> Chat | None:
        with self._guard:
            chat = self._held.get(chat_id)
            if chat is not None:
                self._held.move_to_end(chat_id)
            return chat

    def _hold(self, chat_id: str, chat: Chat) -> None:
        with self._guard:
            self._held[chat_id] = chat
            self._held.move_to_end(chat_id)
            while len(self._held) > HELD:
                self._held.popitem(last=False)

    def _forget(self, chat_id: str) -> None:
        with self._guard:
            self._held.pop(chat_id, None)

    @contextmanager
    def _holding(self, chat_id: str) -> Iterator[Chat]:
        with self._lock(chat_id):
            chat = self._recall(chat_id)
            if chat is None:
                chat = self.chats.open(chat_id)  # UnknownChatError when there is none
                self._hold(chat_id, chat)
            yield chat

    def create(self, chat_id: str | None, source: dict[str, object], start: Game) -> str:
        """Store a new chat (a made-up id when none is given); `ChatExistsError` when taken."""
        chat_id = chat_id or uuid.uuid4().hex
        with self._lock(chat_id):
            self._hold(chat_id, self.chats.create(chat_id, dict(source), start))
        return chat_id

    def chat_ids(self) -> list[str]:
        return self.chats.store.chat_ids()

    def read(self, chat_id: str) -> Chat:
        with self._holding(chat_id) as chat:
            return chat

    def step(self, chat_id: str, take: Callable[[Chat], tuple[Chat, T]]) -> tuple[Chat, T]:
        """Take one step on a chat: `take` returns the new chat and what to answer."""
        with self._holding(chat_id) as before:
            after, answer = take(before)
            self.chats.save(chat_id, before, after)
            self._hold(chat_id, after)
            return after, answer

    def delete(self, chat_id: str) -> None:
        with self._holding(chat_id):
            self.chats.store.delete(chat_id)
            self._forget(chat_id)
