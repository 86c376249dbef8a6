"""Where each continuation was joined onto a reply (`Swipe.joins`) is kept in the store (schema
10) on both back-ends; a swipe stored before reads back with its joins not known (None), and is cut
as before (docs/history.md, docs/proxy.md "A reply shown as two messages"; issue #29)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from gm_tags.history import Chat
from gm_tags.store import MIGRATIONS, Chats, Fork, Store, open_store
from gm_tags.store import sql as store_module
from gm_tags.store.rows import rolls_text, thrown_read, thrown_text
from tests.history.test_store_backends import CREW, db, played, start, store, tick

__all__ = ["db", "store"]  # the fixtures, taken from the back-ends' tests


def continued_twice(chat: Chat) -> Chat:
    once, _ = chat.continue_reply(tick(1))
    twice, _ = once.continue_reply(tick(4))
    return twice


def test_joins_are_stored_and_read_back_not_known_for_swipes_stored_before(store: Store) -> None:
    chats = Chats(store)
    chat = played(chats)
    joined = continued_twice(chat)
    chats.save("c", chat, joined)
    reply = Chats(store).open("c").messages[3]
    first = len(tick(2))
    assert reply.swipe.joins == (first, first + len(tick(1)))
    assert reply.swipe.text == tick(2) + tick(1) + tick(4)
    # One swipe continued, one stored before joins were kept, one never continued.
    never = chat.messages[3].swipe
    swipes = (reply.swipe, replace(reply.swipe, joins=None), never)
    stored = Chat(chat.start, (*joined.messages[:3], replace(reply, swipes=swipes)))
    chats.put("j", CREW, stored, replace=False)
    read = Chats(store).open("j").messages[3].swipes
    assert [swipe.joins for swipe in read] == [reply.swipe.joins, None, ()]
    # A forked line copies the rows inside the database: the joins go with them.
    forked, _ = stored.user("On.").reply(tick(1))
    chats.put("j:2", CREW, forked, replace=False, fork=Fork("j", store.revision("j"), 4))
    copied = Chats(store).open("j:2").messages[3].swipes
    assert [swipe.joins for swipe in copied] == [reply.swipe.joins, None, ()]


def test_a_store_of_schema_9_is_migrated_and_its_swipes_joins_are_not_known(
    db: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """A store main's schema (9, before the joins) made: the migration adds the column, every
    swipe stored before reads back with joins not known, and a continue written after keeps its
    join."""
    new = open_store(str(tmp_path / "new.sqlite"))
    chats = Chats(new)
    chat = played(chats)
    chats.save("c", chat, continued_twice(chat))
    rows = new.load("c")
    new.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS[:9])
    old = open_store(db)
    Chats(old).create("c", CREW, start())
    with old._transaction() as raw:  # type: ignore[attr-defined]  # the rows as schema 9 wrote
        for position, message in enumerate(rows.messages):
            row = (position, message.role, message.selected)
            raw.execute("INSERT INTO messages VALUES ('c', ?, ?, ?, 0)", row)
            for number, swipe in enumerate(message.swipes):
                texts = (swipe["text"], swipe["reply"], swipe["narration"])
                receipts, game = json.dumps(swipe["receipts"]), swipe["game"]
                thrown = thrown_read(swipe["thrown"])
                raw.execute(
                    "INSERT INTO swipes VALUES ('c', ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
                    (position, number, *texts, receipts, game, *thrown_columns(thrown)),
                )
    assert old.schema_version == 9  # type: ignore[attr-defined]
    old.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS)
    migrated = open_store(db)
    try:
        assert migrated.schema_version == len(MIGRATIONS) == 10  # type: ignore[attr-defined]
        chats = Chats(migrated)
        chat = chats.open("c")
        assert {s.joins for m in chat.messages for s in m.swipes} == {None}
        assert chat.messages[3].swipe.text == tick(2) + tick(1) + tick(4)
        again, _ = chat.continue_reply(tick(1))
        chats.save("c", chat, again)
        # The joins before stay not known; the one written now is kept.
        joins = Chats(migrated).open("c").messages[3].swipe.joins
        assert joins == (len(chat.messages[3].swipe.text),)
    finally:
        migrated.close()


def thrown_columns(thrown: Any) -> tuple[str, str]:
    return thrown_text(thrown), rolls_text(thrown)
