"""The chats one server process serves: held in memory, each step written to the store before it
is answered, and steps on one chat taken one at a time.

A step is computed on the chat value as it stands, written in one transaction, and only then
becomes the chat the next request sees; a step whose write fails leaves both the store and the
memory as they were.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from ..errors import GmTagsError
from ..game import Game
from ..history import Chat
from ..store import Chats, Store

T = TypeVar("T")


class ChatExistsError(GmTagsError):
    """A new chat was asked for under an id that is taken."""


class ServedChats:
    """The store is opened on first use and closed by `close()` (when the app shuts down); an app
    started again opens it again."""

    def __init__(self, open_store: Callable[[], Store]) -> None:
        self._open_store = open_store
        self._chats: Chats | None = None
        self._held: dict[str, Chat] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def open(self) -> None:
        """Open the store if it is not open (raises `StoreError` for a file that is not one)."""
        self.chats  # noqa: B018 (the property opens it)

    @property
    def chats(self) -> Chats:
        with self._guard:
            if self._chats is None:
                self._chats = Chats(self._open_store())
            return self._chats

    def close(self) -> None:
        with self._guard:
            if self._chats is not None:
                self._chats.store.close()
            self._chats = None
            self._held.clear()

    def _lock(self, chat_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(chat_id, threading.Lock())

    @contextmanager
    def _holding(self, chat_id: str) -> Iterator[Chat]:
        with self._lock(chat_id):
            chat = self._held.get(chat_id)
            if chat is None:
                chat = self.chats.open(chat_id)  # UnknownChatError when there is none
                self._held[chat_id] = chat
            yield chat

    def create(self, chat_id: str | None, source: dict[str, object], start: Game) -> str:
        chat_id = chat_id or uuid.uuid4().hex
        with self._lock(chat_id):
            if chat_id in self._held or chat_id in self.chats.store.chat_ids():
                raise ChatExistsError(f"a chat {chat_id!r} exists already")
            self._held[chat_id] = self.chats.create(chat_id, dict(source), start)
        return chat_id

    def read(self, chat_id: str) -> Chat:
        with self._holding(chat_id) as chat:
            return chat

    def step(self, chat_id: str, take: Callable[[Chat], tuple[Chat, T]]) -> tuple[Chat, T]:
        """Take one step on a chat: `take` returns the new chat and what to answer."""
        with self._holding(chat_id) as before:
            after, answer = take(before)
            self.chats.save(chat_id, before, after)
            self._held[chat_id] = after
            return after, answer

    def delete(self, chat_id: str) -> None:
        with self._holding(chat_id):
            self.chats.store.delete(chat_id)
            del self._held[chat_id]
