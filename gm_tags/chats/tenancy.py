"""One tenant's view of the served chats: the only way a request reaches a chat.

Every id a request names is the tenant's own; the view stores it under the tenant's stored id
(gm_tags.tenants) and lists only the tenant's chats, so a request can neither name, list nor
find by transcript a chat of another tenant. An id with a `/` in it is none a tenant can have:
it is answered as a chat that does not exist, like any other id the tenant has no chat under.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from ..game import Game
from ..history import Chat, HistoryError, chat_id_problem
from ..store import Fork, Found, Shown, UnknownChatError
from ..tenants import SEPARATOR, shown_id, stored_id
from .served import RETRIES, ServedChats, Source

T = TypeVar("T")


class TenantChats:
    def __init__(self, served: ServedChats, tenant: str) -> None:
        self.served, self.tenant = served, tenant

    def _stored(self, chat_id: str) -> str:
        if SEPARATOR in chat_id:
            raise UnknownChatError(f"no chat {chat_id!r}")
        return stored_id(self.tenant, chat_id)

    def create(self, chat_id: str | None, source: Source, start: Game, title: str = "") -> str:
        """Store a new chat of the tenant (a made-up id when none is given); its id."""
        chat_id = chat_id or uuid.uuid4().hex
        problem = chat_id_problem(chat_id)
        if problem:
            raise HistoryError(f"{chat_id!r}: {problem}")
        self.served.create(self._stored(chat_id), source, start, title)
        return chat_id

    def put(
        self, chat_id: str, source: Source, chat: Chat, title: str = "", fork: Fork | None = None
    ) -> Chat:
        """Store a whole new chat (`ChatExistsError` when the id is taken); the chat as held.
        `fork` names the tenant's chat it forks from (`ServedChats.put`)."""
        if fork is not None:
            fork = dataclasses.replace(fork, source=self._stored(fork.source))
        return self.served.put(self._stored(chat_id), source, chat, title, fork)

    def chat_ids(self) -> list[str]:
        return [shown_id(self.tenant, one) for one in self.served.chat_ids(self.tenant)]

    def titles(self) -> dict[str, str]:
        """The readable name of each of the tenant's chats, by the id the tenant knows."""
        titles = self.served.chats.store.titles(self.tenant)
        return {shown_id(self.tenant, stored): title for stored, title in titles.items()}

    def set_title(self, chat_id: str, title: str) -> None:
        with _named(chat_id):
            self.served.chats.set_title(self._stored(chat_id), title)

    def line_ids(self, key: str) -> list[str]:
        """The ids of the tenant's chats `key` and `key:...` (the proxy's lines of one chat)."""
        if SEPARATOR in key:
            return []
        stored = self.served.chats.store.line_ids(stored_id(self.tenant, key))
        return [shown_id(self.tenant, one) for one in stored]

    def found(self, key: str, digests: Sequence[str]) -> Found:
        """`line_ids(key)`, and the tenant's stored replies whose shown text has each digest
        (`store.shown_digest`), with the revision of every chat they name, in one read
        (`Store.found`): the index is read for the tenant's chats only, so another tenant's
        replies neither answer nor crowd out the tenant's own."""
        tenant = self.tenant
        stored = None if SEPARATOR in key else stored_id(tenant, key)  # else none is the tenant's
        found = self.served.chats.store.found(stored, digests, tenant)
        return Found(
            tuple(shown_id(tenant, one) for one in found.line_ids),
            {digest: [_shown(tenant, hit) for hit in hits] for digest, hits in found.shown.items()},
            {shown_id(tenant, one): revision for one, revision in found.revisions.items()},
        )

    def read(self, chat_id: str) -> Chat:
        with _named(chat_id):
            return self.served.read(self._stored(chat_id))

    def read_at(self, chat_id: str, stored: int | None = None) -> tuple[Chat, int]:
        with _named(chat_id):
            return self.served.read_at(self._stored(chat_id), stored)

    def revision(self, chat_id: str) -> int:
        with _named(chat_id):
            return self.served.revision(self._stored(chat_id))

    def stored(self, chat_id: str) -> str:
        """The id the store keeps the tenant's chat `chat_id` under (for watching it)."""
        return self._stored(chat_id)

    def step(
        self, chat_id: str, take: Callable[[Chat], tuple[Chat, T]], *, retries: int = RETRIES
    ) -> tuple[Chat, T]:
        with _named(chat_id):
            return self.served.step(self._stored(chat_id), take, retries=retries)

    def delete(self, chat_id: str) -> None:
        with _named(chat_id):
            self.served.delete(self._stored(chat_id))


@contextmanager
def _named(chat_id: str) -> Iterator[None]:
    """A chat not found is said by the id the tenant knows it by, not the one it is stored as."""
    try:
        yield
    except UnknownChatError:
        raise UnknownChatError(f"no chat {chat_id!r}") from None


def _shown(tenant: str, hit: Shown) -> Shown:
    """A stored reply found by digest, its chat named as the tenant knows it."""
    return Shown(shown_id(tenant, hit.chat_id), hit.position, hit.swipe)
