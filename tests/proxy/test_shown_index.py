"""The store's index of shown replies, the same on both back-ends: every stored reply's swipe is
found by the digest of its narration (white space aside), the index follows every write
(reply, regenerate, a tail written again, a chat replaced or deleted), a store from before the
index has it filled when it is migrated, and a chat's lines are read by id range."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from gm_tags.history import Chat
from gm_tags.store import (
    SHOWN_HITS,
    SHOWN_VERSION,
    Chats,
    Shown,
    SqliteStore,
    Store,
    open_store,
    shown_digest,
)
from tests.history.test_store_backends import CREW, db, played, start, store

__all__ = ["db", "store"]  # the back-end fixtures, used by name


def found(store: Store, narration: str) -> set[Shown]:
    return set(store.find_shown(shown_digest(narration)))


def test_every_stored_reply_is_found_by_its_shown_text_and_the_index_follows_each_write(
    store: Store,
) -> None:
    chats = Chats(store)
    chat = played(chats)
    assert found(store, "The plan moves, 1.") == {Shown("c", 1, 0)}
    assert found(store, "  The plan   moves,\n3. ") == {Shown("c", 1, 1)}
    assert found(store, "The planmoves,2.") == {Shown("c", 3, 0)}
    assert found(store, "Go.") == set()  # a user message is no reply the proxy gave out
    shorter = chat.delete_last().delete_last()
    chats.save("c", chat, shorter)
    assert found(store, "The plan moves, 2.") == set()
    chats.put("c", CREW, Chat(start()), replace=True)
    assert found(store, "The plan moves, 1.") == set()
    chats.put("d", CREW, chat, replace=False)
    assert found(store, "The plan moves, 2.") == {Shown("d", 3, 0)}
    store.delete("d")
    assert found(store, "The plan moves, 2.") == set()


def test_a_chats_lines_are_read_by_their_ids_alone(store: Store) -> None:
    chats = Chats(store)
    for chat_id in ("k", "k:2", "k:10", "kx", "k-", "j", "k:2:3"):
        chats.create(chat_id, CREW, start())
    assert sorted(store.line_ids("k")) == ["k", "k:10", "k:2", "k:2:3"]


def test_a_store_from_before_the_index_has_it_filled_when_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    old = SqliteStore(path)
    played(Chats(old))
    old.close()
    with sqlite3.connect(path) as raw:  # the store as schema 3 left it: no index, no tenants,
        raw.execute("DROP TABLE shown")  # no titles, no revisions or dice faces on the rows
        raw.execute("ALTER TABLE swipes DROP COLUMN thrown")
        raw.execute("ALTER TABLE swipes DROP COLUMN rolls")
        raw.execute("ALTER TABLE swipes DROP COLUMN joins")
        raw.execute("ALTER TABLE messages DROP COLUMN written")
        raw.execute("ALTER TABLE swipes DROP COLUMN written")
        raw.execute("DROP INDEX chats_by_tenant")
        raw.execute("ALTER TABLE chats DROP COLUMN tenant")
        raw.execute("ALTER TABLE chats DROP COLUMN title")
        raw.execute("UPDATE schema_version SET version = ?", (SHOWN_VERSION - 1,))
    raw.close()
    migrated = open_store(str(path))
    assert found(migrated, "The plan moves, 3.") == {Shown("c", 1, 1)}
    assert found(migrated, "The plan moves, 2.") == {Shown("c", 3, 0)}
    migrated.close()


def test_a_keys_lines_and_the_replies_of_each_digest_are_found_in_one_read(store: Store) -> None:
    """`found` gives what `line_ids` and `find_shown` give, for several digests at once (each
    digest's newest `SHOWN_HITS`, of the tenant's chats; a digest no reply has is not there),
    and the revision of every chat it names."""
    chats = Chats(store)
    for at in range(SHOWN_HITS + 2):
        played(chats, f"k:{at + 1}" if at else "k")
    played(chats, "t/other")  # another tenant's
    chat = played(chats, "j")
    texts = [chat.messages[1].swipes[0].narration, chat.messages[3].swipe.narration, "Unsaid."]
    digests = [shown_digest(text) for text in texts]
    for key, tenant in (("k", None), ("t/other", "t"), (None, "t")):
        found = store.found(key, digests, tenant)
        assert found.line_ids == tuple(store.line_ids(key) if key else ())
        hits = {digest: store.find_shown(digest, tenant) for digest in digests}
        assert found.shown == {digest: shown for digest, shown in hits.items() if shown}
        named = {*found.line_ids, *(hit.chat_id for shown in hits.values() for hit in shown)}
        assert found.revisions == store.revisions(sorted(named))
    assert len(store.found("k", digests).shown[digests[0]]) == SHOWN_HITS
    assert store.found("k", []).shown == {}
