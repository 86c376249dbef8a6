"""Chats kept in a store: a history `Chat` written as a `StoredChat` (what a step changed, and
no more) and read back into one, its games made from their documents only when asked for. The
rulesets chats are played with are kept in the store whole, by fingerprint."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import GameDocumentError
from ..game import Game
from ..history import (
    Chat,
    HistoryError,
    Message,
    StoredSwipe,
    Swipe,
    chat_id_problem,
    chat_title_problem,
)
from ..history_pages import PAGE, PagedMessages, Pages, first_change
from ..ruleset import Ruleset, load_ruleset
from ..ruleset.loader import load_stored
from ..tenants import chat_part
from .errors import StoreCorruptError
from .interface import Fork, Store, StoredChat, StoredMessage
from .rows import game_text, thrown_read


def ruleset_from(source: dict[str, Any]) -> Ruleset:
    """A stored ruleset: `{"path": ...}` (a file or package folder) or `{"json": {...}}`."""
    if "path" in source:
        return load_ruleset(source["path"])
    return load_ruleset(source["json"])


class Chats:
    """Chats kept in a store: opened from it whole, and each step written back as it lands."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rulesets: dict[str, Ruleset] = {}
        self._lock = threading.Lock()

    def create(self, chat_id: str, ruleset: dict[str, Any], start: Game, title: str = "") -> Chat:
        _check_id(chat_id)
        _check_title(title)
        self.store.create(chat_id, self._kept(ruleset, start), start.to_document(), title)
        return Chat(start)

    def _kept(self, source: dict[str, Any], start: Game) -> dict[str, Any]:
        """The ruleset as a chat records it: where it came from, and its fingerprint in the
        store's own copy."""
        if start.ruleset is None:
            return source
        ruleset = start.ruleset
        self.store.keep_ruleset(ruleset.fingerprint, ruleset.id, ruleset.document)
        where = {key: value for key, value in source.items() if key == "path"}
        return {"id": ruleset.id, "fingerprint": ruleset.fingerprint, **where}

    def put(
        self,
        chat_id: str,
        ruleset: dict[str, Any],
        chat: Chat,
        *,
        replace: bool,
        title: str = "",
        fork: Fork | None = None,
    ) -> None:
        """Store a whole chat at once (a replayed session), replacing one there if `replace`.
        With `fork`, its first `fork.shared` messages are the very ones of the chat it forks
        from as read at `fork.revision` (a line forked from another): the store copies them,
        and only the messages after them are made into rows here."""
        _check_id(chat_id)
        _check_title(title)
        games = _GameTexts()
        rest = chat.messages[fork.shared :] if fork is not None else chat.messages
        stored = StoredChat(
            self._kept(ruleset, chat.start),
            chat.start.to_document(),
            tuple(_stored(m, games=games) for m in rest),
            title=title,
        )
        self.store.put(chat_id, stored, replace=replace, fork=fork)

    def as_read(self, chat_id: str, chat: Chat, revision: int, *, shared: int = 0) -> Chat:
        """`chat`, just stored as `chat_id` at `revision`, holding its messages as one read
        from the store does (the ones in memory kept): a step on it writes only what it adds
        (`first_change` finds it without comparing every message). Its first `shared` messages
        (a fork's, copied in the store from the line it forks from) make the games they did not
        make yet from this chat's rows, never from that line's: another worker may since have
        deleted it, or stored another chat under its id."""
        ruleset = chat.start.ruleset
        if ruleset is None:  # no game to read back with (none is read: all are in memory)
            return chat
        past = _Past(self.store, chat_id, revision, ruleset)
        messages = chat.messages
        count = len(messages)
        # The messages in memory are held; one never read (a forked line's past, copied in the
        # store) is read from this chat's rows when asked for.
        known = (
            messages.in_memory()
            if isinstance(messages, PagedMessages)
            else dict(enumerate(messages))
        )
        if shared:  # a new dict either way: the shared messages are rebound in place
            for at, one in known.items():
                if at < shared:
                    known[at] = past.rebound(at, one)
        pages = Pages(count, past.messages, known)
        return Chat(chat.start, PagedMessages(pages, count))

    def set_title(self, chat_id: str, title: str) -> None:
        """Give a chat a new readable name (`UnknownChatError` when there is no such chat)."""
        _check_title(title)
        self.store.set_title(chat_id, title)

    def open(self, chat_id: str) -> Chat:
        return self.open_at(chat_id)[0]

    def open_at(self, chat_id: str) -> tuple[Chat, int]:
        """The chat and the revision it was read at."""
        try:
            return self._open(chat_id)
        except GameDocumentError as error:
            raise StoreCorruptError(
                f"chat {chat_id!r}: a game it stored does not read back: {error}"
            ) from None

    def _open(self, chat_id: str) -> tuple[Chat, int]:
        opened = self.store.open_chat(chat_id, PAGE)
        ruleset = self._ruleset(opened.ruleset)
        past = _Past(self.store, chat_id, opened.revision, ruleset)
        known = {
            at: past.message(at, message, opened.game if at == opened.count - 1 else None)
            for at, message in enumerate(opened.last, start=opened.first)
        }
        pages = Pages(opened.count, past.messages, known, past.shown)
        chat = Chat(Game.from_document(ruleset, opened.start), PagedMessages(pages, opened.count))
        chat.game  # noqa: B018 - the snapshot it plays from is read now: a bad one is said here
        return chat, opened.revision

    def save(self, chat_id: str, before: Chat, after: Chat, revision: int | None = None) -> int:
        """Write what `after` changed from `before`: the messages from the first one that is not
        the same, in one transaction; with `revision`, only if the chat is still at it
        (`StaleChatError`). Returns the chat's revision after."""
        first = first_change(before.messages, after.messages)
        if first == len(before.messages) == len(after.messages):
            return revision if revision is not None else self.store.revision(chat_id)
        kept = 0
        if first < len(before.messages) and first < len(after.messages):
            old, new = before.messages[first], after.messages[first]
            if old.role == new.role:
                # The swipes a step left as they were (a regenerate adds one, a selection none).
                while (
                    kept < min(len(old.swipes), len(new.swipes))
                    and old.swipes[kept] is new.swipes[kept]
                ):
                    kept += 1
        tail = after.messages[first:]
        games = _GameTexts()
        stored = [_stored(m, skip=kept if at == 0 else 0, games=games) for at, m in enumerate(tail)]
        return self.store.write_tail(chat_id, first, stored, kept, revision)

    def _ruleset(self, source: dict[str, Any]) -> Ruleset:
        key = json.dumps(source, sort_keys=True)
        with self._lock:
            if key not in self._rulesets:
                kept = (
                    self.store.kept_ruleset(source["fingerprint"])
                    if "fingerprint" in source
                    else None
                )
                self._rulesets[key] = (
                    load_stored(kept) if kept is not None else ruleset_from(source)
                )
            return self._rulesets[key]


class _Past:
    """How a chat opened from the store reads what it did not read on opening: its older
    messages a page at a time, and each swipe's game when it is first asked for, all as they
    were at the revision it was opened at (`StaleChatError` when a step since rewrote them)."""

    def __init__(self, store: Store, chat_id: str, revision: int, ruleset: Ruleset) -> None:
        self.store, self.chat_id, self.revision, self.ruleset = store, chat_id, revision, ruleset

    def messages(self, first: int, end: int) -> list[Message]:
        stored = self.store.messages(self.chat_id, first, end, self.revision)
        return [self.message(at, one) for at, one in enumerate(stored, start=first)]

    def shown(self, first: int, end: int) -> list[tuple[str, str]]:
        return self.store.shown_span(self.chat_id, first, end, self.revision)

    def message(self, position: int, stored: StoredMessage, game: str | None = None) -> Message:
        """A stored message; `game`, when given, is its selected swipe's, read already."""
        swipes = tuple(
            StoredSwipe.read(
                swipe["text"],
                self._game(position, number, game if number == stored.selected else None),
                swipe["reply"],
                swipe["narration"],
                tuple(swipe["receipts"]),
                thrown_read(swipe.get("thrown", ())),
                _joins(swipe.get("joins")),
            )
            for number, swipe in enumerate(stored.swipes)
        )
        return Message(stored.role, swipes, stored.selected)  # type: ignore[arg-type]

    def rebound(self, position: int, message: Message) -> Message:
        """`message`, held by another chat whose rows this one copied, with the games it has not
        made yet read from this chat's rows; a game made already is a value, kept."""
        if all(_made(swipe) for swipe in message.swipes):
            return message
        swipes = tuple(
            swipe
            if _made(swipe)
            else StoredSwipe.read(
                swipe.text,
                self._game(position, number, None),
                swipe.reply,
                swipe.narration,
                swipe.receipts,
                swipe.thrown,
                swipe.joins,
            )
            for number, swipe in enumerate(message.swipes)
        )
        return Message(message.role, swipes, message.selected)

    def _game(self, position: int, swipe: int, read: str | None) -> Callable[[], Game]:
        def make() -> Game:
            text = read
            if text is None:
                text = self.store.game(self.chat_id, position, swipe, self.revision)
            try:
                document = json.loads(text)
            except ValueError as error:
                raise StoreCorruptError(
                    f"chat {self.chat_id!r}: a game it stored cannot be read: {error}"
                ) from None
            try:
                return Game.from_document(self.ruleset, document)
            except GameDocumentError as error:
                raise StoreCorruptError(
                    f"chat {self.chat_id!r}: a game it stored does not read back: {error}"
                ) from None

        return make


def _made(swipe: Swipe) -> bool:
    # A plain swipe holds its game; a stored one holds it once first asked for.
    return "game" in vars(swipe)


def _check_title(title: str) -> None:
    problem = chat_title_problem(title)
    if problem:
        raise HistoryError(problem)


def _check_id(chat_id: str) -> None:
    # A chat of a tenant other than the default is stored as `tenant/id`: its id is the part
    # the tenant chose (gm_tags.tenants).
    problem = chat_id_problem(chat_part(chat_id))
    if problem:
        raise HistoryError(f"{chat_id!r}: {problem}")


class _GameTexts:
    """Each snapshot's stored text, made once however many swipes of a write share it (a
    player's message keeps the snapshot before it; a pasted history's replies past the ones
    applied again all keep one)."""

    def __init__(self) -> None:
        self._made: dict[int, tuple[Game, str]] = {}

    def __call__(self, game: Game) -> str:
        made = self._made.get(id(game))
        if made is None or made[0] is not game:
            made = (game, game_text(game.to_document()))
            self._made[id(game)] = made
        return made[1]


def _stored(message: Message, *, games: _GameTexts, skip: int = 0) -> StoredMessage:
    """A message as the store keeps it; the first `skip` swipes (already stored) are left as
    placeholders, never serialized again."""
    return StoredMessage(
        message.role,
        message.selected,
        tuple({} for _ in message.swipes[:skip])
        + tuple(
            {
                "text": swipe.text,
                "reply": swipe.reply,
                "narration": swipe.narration,
                "receipts": list(swipe.receipts),
                "thrown": None if swipe.thrown is None else list(swipe.thrown),
                "joins": None if swipe.joins is None else list(swipe.joins),
                "game": games(swipe.game),
            }
            for swipe in message.swipes[skip:]
        ),
    )


def _joins(joins: Sequence[int] | None) -> tuple[int, ...] | None:
    """A stored swipe's joins: None when not known (stored before they were kept, or a document
    without them)."""
    return None if joins is None else tuple(joins)
