"""The store interface every back-end offers (`SqliteStore`, `PgStore`) and the values it takes
and gives: a chat as rows hold it, not yet made into games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Shown:
    """Where a stored reply's swipe is: a chat, a message position and a swipe."""

    chat_id: str
    position: int
    swipe: int


@dataclass(frozen=True)
class Found:
    """What one read of the store gives a request to find its chat by: the ids of a key's
    lines (`line_ids`), the replies each digest finds (`find_shown`, by digest; a digest that
    finds none is not there), and the revision of every chat either names. Its two statements
    do not share one snapshot (SQLite runs each on its own, PostgreSQL's read committed gives
    each its own), so a commit may fall between them: each chat and revision is one that was
    stored, a hit's revision is taken over a line's, and a step written since is refused when
    the turn lands."""

    line_ids: tuple[str, ...]
    shown: Mapping[str, Sequence[Shown]]
    revisions: Mapping[str, int]


@dataclass(frozen=True)
class StoredMessage:
    """A message as stored: its role, its selected swipe, and each swipe's `text`, `reply`,
    `narration`, `receipts`, `thrown` (what its dice threw, roll by roll: `[at, sides, faces]`
    each, a `gm_tags.dice.Throw`; read also as a list of faces, one run, as schema 8 kept them;
    None when not known: stored before they were kept), `joins` (where each continuation was
    joined on; None or missing when not known) and `game` (its document as JSON text, or as a
    document)."""

    role: str
    selected: int
    swipes: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class StoredChat:
    ruleset: dict[str, Any]
    start: dict[str, Any]
    messages: tuple[StoredMessage, ...]
    revision: int = 0
    # The chat's readable name beside its id ("" when it was given none).
    title: str = ""


@dataclass(frozen=True)
class Fork:
    """A new chat's first `shared` messages are chat `source`'s first ones as stored at
    `revision` (a line forked from another): the store copies their rows itself, and only the
    messages after them are sent."""

    source: str
    revision: int
    shared: int


@dataclass(frozen=True)
class OpenedChat:
    """A chat as opened without its past: its row, how many messages it has (`count`), its last
    messages from position `first` on (their swipes without games) and the game the last
    message's selected swipe left (None when it has no messages), all read in one snapshot."""

    ruleset: dict[str, Any]
    start: dict[str, Any]
    revision: int
    title: str
    count: int
    first: int
    last: tuple[StoredMessage, ...]
    game: str | None


class Store(Protocol):
    """Where chats are kept: `SqliteStore`, or `gm_tags.store.postgres.PgStore` for PostgreSQL."""

    def create(
        self, chat_id: str, ruleset: dict[str, Any], start: dict[str, Any], title: str = ""
    ) -> None: ...

    def load(self, chat_id: str) -> StoredChat: ...

    def open_chat(self, chat_id: str, last: int) -> OpenedChat: ...

    def messages(
        self, chat_id: str, first: int, end: int, revision: int
    ) -> tuple[StoredMessage, ...]: ...

    def game(self, chat_id: str, position: int, swipe: int, revision: int) -> str: ...

    def shown_span(
        self, chat_id: str, first: int, end: int, revision: int
    ) -> list[tuple[str, str]]: ...

    def revision(self, chat_id: str) -> int: ...

    def write_tail(
        self,
        chat_id: str,
        first: int,
        messages: Sequence[StoredMessage],
        kept: int = 0,
        revision: int | None = None,
    ) -> int: ...

    def chat_ids(self, tenant: str | None = None) -> list[str]: ...

    def titles(self, tenant: str | None = None) -> dict[str, str]: ...

    def set_title(self, chat_id: str, title: str) -> None: ...

    def revisions(self, chat_ids: Sequence[str]) -> dict[str, int]: ...

    def line_ids(self, key: str) -> list[str]: ...

    def find_shown(self, digest: str, tenant: str | None = None) -> list[Shown]: ...

    def found(
        self, key: str | None, digests: Sequence[str], tenant: str | None = None
    ) -> Found: ...

    def put(
        self, chat_id: str, chat: StoredChat, *, replace: bool, fork: Fork | None = None
    ) -> None: ...

    def keep_ruleset(self, fingerprint: str, ruleset_id: str, document: dict[str, Any]) -> None: ...

    def kept_ruleset(self, fingerprint: str) -> dict[str, Any] | None: ...

    def kept_rulesets(self) -> list[tuple[str, str, dict[str, Any]]]: ...

    def delete(self, chat_id: str) -> None: ...

    def close(self) -> None: ...
