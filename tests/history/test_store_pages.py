"""A chat opens from the store without its past, on both back-ends: the last page of messages and
the game it plays from are read on opening, older messages a page at a time and each swipe's game
when asked for, always as they were at the revision the chat was read at. A store of schema 6 is
migrated and its chats open the same way; a turn is written in one transaction of its new rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gm_tags import Game
from gm_tags.history import Chat, StoredSwipe
from gm_tags.history_pages import PAGE, PagedMessages, Pages, first_change
from gm_tags.store import (
    MIGRATIONS,
    Chats,
    SqliteStore,
    StaleChatError,
    Store,
    StoreCorruptError,
    StoreError,
    open_store,
)
from gm_tags.store import sql as store_module
from tests.history.test_store_backends import CREW, TURNS, db, long_played, start, store, tick

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("postgres")]
__all__ = ["db", "store"]  # the back-end fixtures, used by name


class Counting:
    """A store that counts the older messages and games it is asked for."""

    def __init__(self, store: Store) -> None:
        self.store, self.games = store, 0
        self.spans: list[tuple[int, int]] = []

    def messages(self, chat_id: str, first: int, end: int, revision: int) -> Any:
        self.spans.append((first, end))
        return self.store.messages(chat_id, first, end, revision)

    def game(self, chat_id: str, position: int, swipe: int, revision: int) -> str:
        self.games += 1
        return self.store.game(chat_id, position, swipe, revision)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def documents(chat: Chat) -> list[list[Any]]:
    """Every swipe of every message as a value: its texts, receipts and the game it left."""
    return [
        [
            (m.role, m.selected, s.text, s.reply, s.narration, s.receipts, s.game.to_document())
            for s in m.swipes
        ]
        for m in chat.messages
    ]


def test_a_long_chat_opens_from_its_last_page_and_reads_the_rest_when_asked(store: Store) -> None:
    played = long_played(Chats(store))
    counting = Counting(store)
    chats = Chats(counting)
    before, revision = chats.open_at("c")
    assert isinstance(before.messages, PagedMessages) and len(before.messages) == 2 * TURNS
    after, _ = before.user("And now?").reply(tick(1))
    chats.save("c", before, after, revision)
    assert after.game.clocks[0].filled == 8  # the clock is full: 8 boxes, ticked 1 a turn
    assert counting.spans == [] and counting.games == 0  # no older message, no other game

    added = before.messages + tuple(after.messages[-2:])  # as a tuple of messages is extended
    assert len(added) == len(after.messages) and added[-1] is after.messages[-1]
    assert after.messages[3].swipe.text == tick(1)  # an older message: its page only
    assert counting.spans == [(0, PAGE)]
    assert documents(before) == documents(played)  # every swipe stays reachable, as it was
    assert counting.games == sum(len(m.swipes) for m in played.messages) - 1


def test_what_a_long_chat_shows_is_read_in_one_go_without_its_pages(store: Store) -> None:
    played = long_played(Chats(store))
    counting = Counting(store)
    chat = Chats(counting).open("c")
    assert isinstance(chat.messages, PagedMessages)
    # What the proxy indexes a line by: each message's role and its chosen swipe's text as
    # the client was given it (a reply's narration).
    shown = [
        (m.role, m.swipe.narration if m.role == "reply" else m.swipe.text) for m in played.messages
    ]
    assert chat.messages.outline(1) == shown[1:]
    assert counting.spans == [] and counting.games == 0  # no page of messages, no game
    assert chat.messages.outline(len(shown) - PAGE) is None  # a page or less: read the messages


def test_a_chat_just_put_is_held_as_one_read_and_a_step_writes_only_its_new_rows(
    store: Store,
) -> None:
    chats = Chats(store)
    played = long_played(chats)  # a pasted history the proxy puts whole
    held = chats.as_read("c", played, 0)
    assert isinstance(held.messages, PagedMessages)
    # Every message in memory, as read: a step reads no page of them back.
    assert all(held.messages.peek(at) is m for at, m in enumerate(played.messages))
    after = held.user("And now?")
    chats.save("c", held, after, 0)
    assert documents(Chats(store).open("c")) == documents(after)


def test_a_chat_read_before_another_worker_rewrote_its_past_never_shows_the_new_past(
    db: str,
) -> None:
    first, second = open_store(db), open_store(db)
    try:
        long_played(Chats(first))
        mine = Chats(first).open("c")
        theirs, revision = Chats(second).open_at("c")
        cut = theirs
        while len(cut.messages) > 4:
            cut = cut.delete_last()
        rewritten, _ = cut.user("Elsewhere.").reply(tick(5))
        Chats(second).save("c", theirs, rewritten, revision)

        assert mine.game.clocks[0].filled == 8  # what it read on opening stays as it was
        with pytest.raises(StaleChatError):
            mine.messages[4]  # its own message 4 is gone from the store: never another one
        assert isinstance(mine.messages, PagedMessages)
        with pytest.raises(StaleChatError):
            mine.messages.outline(0)  # nor what another one shows
        unread = mine.messages[2 * 120 + 1].swipes[1]  # read on opening, its game not yet
        for _asked_again in range(2):  # as stale when asked again, never a broken swipe
            with pytest.raises(StaleChatError):
                unread.game  # noqa: B018 - its row is gone from the store: never another game
        again = Chats(first).open("c")
        assert [m.swipe.text for m in again.messages[3:]] == [tick(1), "Elsewhere.", tick(5)]
    finally:
        first.close()
        second.close()


def test_a_stored_swipes_game_that_failed_to_read_is_read_again_when_asked_again() -> None:
    game = start()
    reads: list[str] = []

    def read() -> Game:
        reads.append("read")
        if len(reads) == 1:
            raise StoreError("the store is busy")
        return game

    swipe = StoredSwipe.read("Rain.", read, "Rain.", "Rain.", ())
    with pytest.raises(StoreError):
        swipe.game  # noqa: B018 - the first read fails
    assert swipe.game is game and swipe.game is game  # read again, then kept
    assert reads == ["read", "read"]


def test_steps_on_an_opened_chat_keep_its_own_past_readable(store: Store) -> None:
    played = long_played(Chats(store))
    chats = Chats(store)
    chat, revision = chats.open_at("c")
    steps: list[Callable[[Chat], Chat]] = [
        lambda c: c.regenerate(tick(3))[0],
        lambda c: c.select(0),
        lambda c: c.delete_swipe(1),
        lambda c: c.delete_last(),
        lambda c: c.user("Back again."),
    ]
    for step in steps:
        after = step(chat)
        revision = chats.save("c", chat, after, revision)
        chat = after
    assert len(chat.messages) == len(played.messages)
    assert documents(chat)[:-1] == documents(played)[:-1]
    assert documents(Chats(store).open("c")) == documents(chat)


def test_a_store_of_schema_6_is_migrated_and_its_chats_open_without_their_past(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = SqliteStore(tmp_path / "new.sqlite")
    played = long_played(Chats(new))
    stored = new.load("c")
    new.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS[:6])
    old = open_store(db)
    Chats(old).create("c", CREW, start())
    with old._transaction() as raw:  # type: ignore[attr-defined]  # the rows as schema 6 wrote them
        for position, message in enumerate(stored.messages):
            row = (position, message.role, message.selected)
            raw.execute("INSERT INTO messages VALUES ('c', ?, ?, ?)", row)
            for number, swipe in enumerate(message.swipes):
                texts = (swipe["text"], swipe["reply"], swipe["narration"])
                receipts, game = json.dumps(swipe["receipts"]), swipe["game"]
                raw.execute(
                    "INSERT INTO swipes VALUES ('c', ?, ?, ?, ?, ?, ?, ?)",
                    (position, number, *texts, receipts, game),
                )
    assert old.schema_version == 6  # type: ignore[attr-defined]
    old.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS)
    migrated = open_store(db)
    try:
        assert migrated.schema_version == len(MIGRATIONS) == 10  # type: ignore[attr-defined]
        chats = Chats(migrated)
        chat, revision = chats.open_at("c")
        assert isinstance(chat.messages, PagedMessages)
        assert documents(chat) == documents(played)
        # Stored before their dice's faces were kept: not known (None); read again, they throw
        # new ones.
        assert {swipe.thrown for message in chat.messages for swipe in message.swipes} == {None}
        after, _ = chat.user("On.").reply(tick(1))
        assert chats.save("c", chat, after, revision) == revision + 1
        assert len(Chats(migrated).open("c").messages) == len(played.messages) + 2
    finally:
        migrated.close()


def test_a_turn_is_written_in_one_transaction_of_its_new_rows(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "gm.sqlite")
    long_played(Chats(store))
    chats = Chats(store)
    before, revision = chats.open_at("c")
    after, _ = before.user("And now?").reply(tick(1))
    sent: list[str] = []
    store._connection.set_trace_callback(sent.append)
    chats.save("c", before, after, revision)
    store._connection.set_trace_callback(None)
    words = [statement.split()[0] for statement in sent]
    assert words[0] == "BEGIN" and words[-1] == "COMMIT" and words.count("BEGIN") == 1
    inserts = [s for s in sent if s.startswith("INSERT")]
    assert len(inserts) == 5  # two messages, a swipe each, the reply's shown text
    new = (f"'c', {2 * TURNS}, ", f"'c', {2 * TURNS + 1}, ")
    assert all(any(place in insert for place in new) for insert in inserts)
    store.close()


def test_a_chat_whose_store_was_closed_says_so_when_its_past_is_asked_for(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "gm.sqlite")
    long_played(Chats(store))
    chat = Chats(store).open("c")
    store.close()
    assert chat.game.clocks[0].filled == 8  # what opening read stays readable
    with pytest.raises(StoreError, match="closed") as raised:
        chat.messages[0]
    assert not isinstance(raised.value, StoreCorruptError)  # closed, not damaged


@pytest.mark.parametrize("changed", [0, 1, 5, None])
def test_the_first_change_of_two_reads_of_one_past_is_the_first_message_not_the_same(
    changed: int | None,
) -> None:
    """Two chats on one stored past, each with the messages steps added after it in memory
    (a chat before a step and after it): the first message of the second that is not the very
    one of the first, the shorter's length when one continues the other; the past not read."""
    past = [object() for _ in range(3)]
    reads: list[tuple[int, int]] = []
    pages = Pages(len(past), lambda first, end: reads.append((first, end)) or past[first:end], {})
    tail = tuple(object() for _ in range(8))
    later = tail if changed is None else (*tail[:changed], object(), *tail[changed + 1 :])
    before, after = PagedMessages(pages, 3, tail[:7]), PagedMessages(pages, 3, later)
    assert first_change(before, after) == 3 + (7 if changed is None else changed)
    assert first_change(after, PagedMessages(pages, 3, later[:2])) == 5
    assert reads == []
