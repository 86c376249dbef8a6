"""The store's behaviour, the same on both back-ends: SQLite (a file) and PostgreSQL (a real
server, tests/postgres.py). Chats are written and read back whole, steps count revisions, a step
built on a chat another worker changed is refused, and workers starting at once migrate once."""

from __future__ import annotations

import io
import json
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gm_tags import Game
from gm_tags.cli import main
from gm_tags.dice import SIDES_NOT_KNOWN, Throw
from gm_tags.history import Chat, HistoryError
from gm_tags.history_pages import PAGE, first_change
from gm_tags.store import (
    MIGRATIONS,
    ChatExistsError,
    Chats,
    Fork,
    StaleChatError,
    Store,
    StoreCorruptError,
    UnknownChatError,
    open_store,
    shown_digest,
)
from tests.conftest import FIXTURES, ruleset_named

# Each worker starts its own PostgreSQL cluster: the files that need one share a worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("postgres")]

CREW = {"path": str(FIXTURES / "rulesets" / "crew-of-shadows.json")}


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a new, empty store is: an SQLite file, or a new database on the cluster."""
    if request.param == "sqlite":
        return str(tmp_path / "gm.sqlite")
    return str(request.getfixturevalue("postgres").new_database())


@pytest.fixture
def store(db: str) -> Any:
    opened = open_store(db)
    yield opened
    opened.close()


def start() -> Game:
    return (
        Game.new(ruleset_named("crew-of-shadows")).apply_reply('[clock: name="Plan" size="8"]').game
    )


def tick(amount: int) -> str:
    return f'[clock: name="Plan" tick="{amount}"] The plan moves, {amount}.'


def played(chats: Chats, chat_id: str = "c") -> Chat:
    chat = chats.create(chat_id, CREW, start())
    one = chat.user("Go.")
    one, _ = one.reply(tick(1))
    chats.save(chat_id, chat, one)
    two, _ = one.regenerate(tick(3))
    chats.save(chat_id, one, two)
    three = two.user("On.")
    three, _ = three.reply(tick(2))
    chats.save(chat_id, two, three)
    return three


def test_a_new_store_is_at_the_newest_schema(store: Store) -> None:
    assert store.schema_version == len(MIGRATIONS)  # type: ignore[attr-defined]


def test_a_chat_reads_back_whole_with_its_swipes_and_snapshots(store: Store) -> None:
    chats = Chats(store)
    chat = played(chats)
    back, revision = Chats(store).open_at("c")
    assert revision == 3
    assert [m.role for m in back.messages] == ["user", "reply", "user", "reply"]
    assert [s.text for s in back.messages[1].swipes] == [tick(1), tick(3)]
    assert back.messages[1].selected == 1
    assert back.game.to_document() == chat.game.to_document()
    assert back.game.clocks[0].filled == 5
    assert back.messages[3].swipe.receipts == chat.messages[3].swipe.receipts


def test_a_step_on_a_chat_another_worker_changed_is_refused_and_writes_nothing(
    db: str,
) -> None:
    first, second = open_store(db), open_store(db)
    try:
        mine, theirs = Chats(first), Chats(second)
        chat = mine.create("c", CREW, start())
        read_here, at_here = mine.open_at("c")
        read_there, at_there = theirs.open_at("c")
        landed, _ = read_there.reply(tick(2))
        assert theirs.save("c", read_there, landed, at_there) == at_there + 1
        late, _ = read_here.reply(tick(4))
        with pytest.raises(StaleChatError):
            mine.save("c", read_here, late, at_here)
        back = mine.open("c")
        assert back.game.clocks[0].filled == 2 and len(back.messages) == 1
        assert chat.game.clocks[0].filled == 0
    finally:
        first.close()
        second.close()


# A reply's rolls as its run keeps them: its tag at 7 threw a d20, the one at 52 two d6, then one
# more d6 (an explosion), and the one at 90 a roll of no dice.
ROLLS = (Throw(7, 20, (14,)), Throw(52, 6, (3, 5)), Throw(52, 6, (6,)), Throw(90, 6, ()))


def test_the_faces_a_reply_threw_read_back_and_are_copied_with_a_fork(store: Store) -> None:
    """A swipe keeps the faces its dice threw, roll by roll, each with where the tag it was
    thrown for begins and its dice's sides (docs/proxy.md "A reply read again"): read back
    whole, a page at a time, and in a forked line's copied rows. The `thrown` column still holds
    them as one run (what a worker on schema 8 reads); `rolls` keeps them apart (issue #29)."""
    chats = Chats(store)
    chat = played(chats)
    reply = chat.messages[3]
    faces = replace(reply.swipe, thrown=ROLLS)
    thrown = Chat(chat.start, (*chat.messages[:3], replace(reply, swipes=(faces,))))
    chats.put("f", CREW, thrown, replace=False)
    assert store.load("f").messages[3].swipes[0]["thrown"] == ROLLS
    assert Chats(store).open("f").messages[3].swipe.thrown == ROLLS
    assert Chats(store).open("f").messages[1].swipe.thrown == ()  # it threw none
    forked, _ = thrown.user("On.").reply(tick(1))
    chats.put("f:2", CREW, forked, replace=False, fork=Fork("f", store.revision("f"), 4))
    assert Chats(store).open("f:2").messages[3].swipe.thrown == ROLLS
    with store._transaction() as db:  # type: ignore[attr-defined]
        row = db.execute(
            "SELECT thrown, rolls FROM swipes WHERE chat_id = ? AND position = 3", ("f",)
        ).fetchone()
    assert tuple(row) == ("14,3,5,6", "7:d20:14;52:d6:3,5;52:d6:6;90:d6:")


@pytest.mark.parametrize(
    ("thrown", "read"),
    [("14,3,5", (Throw(0, SIDES_NOT_KNOWN, (14, 3, 5)),)), ("-", ()), ("", None)],
    ids=["faces", "none thrown", "not known"],
)
def test_a_row_a_worker_on_schema_8_wrote_reads_its_faces_as_one_run(
    store: Store, thrown: str, read: Any
) -> None:
    """A swipe written before each roll's faces were kept apart, or by a worker still on schema
    8 (its rows have `rolls` ''), reads its faces as one run whose sides are not known: read
    again, it throws them as it did before (issue #29)."""
    chats = Chats(store)
    played(chats)
    with store._transaction() as db:  # type: ignore[attr-defined]
        db.execute(
            "UPDATE swipes SET thrown = ?, rolls = '' WHERE chat_id = ? AND position = 3",
            (thrown, "c"),
        )
    assert Chats(store).open("c").messages[3].swipe.thrown == read


def test_a_store_of_schema_8_is_migrated_and_reads_its_faces_as_one_run(db: str) -> None:
    """Schema 9 adds the `rolls` column; the faces schema 8 kept, as one run, read as such."""
    store = open_store(db)
    played(Chats(store))
    with store._transaction() as raw:  # type: ignore[attr-defined]  # as schema 8 left it
        raw.execute("ALTER TABLE swipes DROP COLUMN rolls")
        raw.execute("ALTER TABLE swipes DROP COLUMN joins")  # schema 10's
        raw.execute("UPDATE swipes SET thrown = '6,2,5' WHERE position = 3")
        raw.execute("UPDATE schema_version SET version = 8")
    store.close()
    migrated = open_store(db)
    try:
        assert migrated.schema_version == len(MIGRATIONS) == 10  # type: ignore[attr-defined]
        swipe = Chats(migrated).open("c").messages[3].swipe
        assert swipe.thrown == (Throw(0, SIDES_NOT_KNOWN, (6, 2, 5)),)
    finally:
        migrated.close()


def test_a_chat_document_reads_its_faces_as_one_run_or_roll_by_roll(store: Store) -> None:
    """A stored chat's document (`StoredChat`) gives a swipe's faces as a list of numbers (one
    run, as schema 8 had them) or roll by roll as [at, sides, faces] (as JSON reads them)."""
    chats = Chats(store)
    played(chats)
    document = store.load("c")
    for name, thrown, read in [
        ("run", [14, 3, 5], (Throw(0, SIDES_NOT_KNOWN, (14, 3, 5)),)),
        ("rolls", json.loads(json.dumps(ROLLS)), ROLLS),
    ]:
        reply = document.messages[3]
        swipes = ({**reply.swipes[0], "thrown": thrown},)
        messages = (*document.messages[:3], replace(reply, swipes=swipes))
        store.put(name, replace(document, messages=messages), replace=False)
        assert Chats(store).open(name).messages[3].swipe.thrown == read, name


def test_faces_not_known_read_back_apart_from_none_thrown(store: Store) -> None:
    """A swipe stored before its faces were kept (schema 7 and older) reads back with faces not
    known (None), not as one that threw none (issue #29)."""
    chats = Chats(store)
    chat = played(chats)
    reply = chat.messages[3]
    unknown = replace(reply.swipe, thrown=None)
    none = replace(reply.swipe, thrown=())
    stored = Chat(chat.start, (*chat.messages[:3], replace(reply, swipes=(unknown, none))))
    chats.put("u", CREW, stored, replace=False)
    swipes = Chats(store).open("u").messages[3].swipes
    assert (swipes[0].thrown, swipes[1].thrown) == (None, ())


def test_ids_taken_unknown_chats_put_replace_and_delete(store: Store) -> None:
    chats = Chats(store)
    chat = played(chats)
    with pytest.raises(ChatExistsError):
        chats.create("c", CREW, start())
    with pytest.raises(UnknownChatError):
        store.load("nobody")
    with pytest.raises(UnknownChatError):
        store.revision("nobody")
    chats.put("copy", CREW, chat, replace=False)
    with pytest.raises(ChatExistsError):
        chats.put("copy", CREW, chat, replace=False)
    before = store.revision("copy")
    shorter = Chat(chat.start, chat.messages[:2])
    chats.put("copy", CREW, shorter, replace=True)
    assert len(chats.open("copy").messages) == 2
    assert store.revision("copy") > before  # every worker holding it reads it again
    store.delete("copy")
    assert store.chat_ids() == ["c"]
    fingerprint, ruleset_id, document = store.kept_rulesets()[0]
    assert ruleset_id == "crew-of-shadows" and store.kept_ruleset(fingerprint) == document


def test_a_chat_has_a_readable_title_apart_from_its_id(db: str, store: Store) -> None:
    chats = Chats(store)
    chats.create("c", CREW, start(), title="The lantern night")
    chats.create("untitled", CREW, start())
    assert store.titles() == {"c": "The lantern night", "untitled": ""}
    chats.set_title("untitled", "Bell tower")
    chats.set_title("c", "")
    assert store.titles() == {"c": "", "untitled": "Bell tower"}
    assert store.revision("untitled") == 0  # a new name is no step: nobody reads the chat again
    with pytest.raises(UnknownChatError):
        chats.set_title("nobody", "Anything")
    with pytest.raises(HistoryError):
        chats.set_title("c", "two\nlines")
    # A whole chat put (a copy, a replay) keeps the title it is given, and reads back with it.
    chats.put("copy", CREW, Chat(start()), replace=False, title="Copied night")
    assert store.load("copy").title == "Copied night"
    # `gm-tags chats` lists each id with its title, and renames one.
    out = io.StringIO()
    assert main(["chats", "--db", db, "--rename", "c", "Night two"], out) == 0
    listed = io.StringIO()
    assert main(["chats", "--db", db], listed) == 0
    assert listed.getvalue().splitlines() == [
        "c  Night two",
        "copy  Copied night",
        "untitled  Bell tower",
    ]
    refused = io.StringIO()
    assert main(["chats", "--db", db, "--rename", "nobody", "X"], refused) == 1


# More messages than three pages: the first ones are read only when asked for.
TURNS = 2 * PAGE


def long_played(chats: Chats, chat_id: str = "c", turns: int = TURNS, chosen: int = 0) -> Chat:
    """A chat of `turns` turns (a player's line and a reply each), a second swipe on every
    tenth reply (one of its own; swipe `chosen` of the two selected), stored with `put` as a
    replayed session would be."""
    chat = Chat(start())
    for at in range(turns):
        chat = chat.user(f"Turn {at}.")
        chat, _ = chat.reply(tick(1))
        if at % 10 == 0:
            chat, _ = chat.regenerate(f"{tick(2)} Turn {at}.")
            chat = chat.select(chosen)
    chats.put(chat_id, CREW, chat, replace=False)
    return chat


def test_a_forked_line_is_stored_as_the_same_chat_written_whole(store: Store) -> None:
    """A line forked from a stored one (an edit, a deletion: a new line of the chat) has the
    messages it shares copied in the store: read back, it is the chat written whole (every
    swipe, game, selection, title, tenant and revision), its past reads a page at a time, and
    the index of shown replies finds its replies, copied or new."""
    chats = Chats(store)
    long_played(chats, "t/c", PAGE, chosen=1)  # the fork's past is more than the page it opens from
    line, revision = Chats(store).open_at("t/c")
    forked, _ = Chat(line.start, line.messages[: PAGE + 1]).reply(f"{tick(3)} A bell rings.")
    shared = first_change(line.messages, forked.messages)
    assert shared == PAGE + 1  # found without reading the line's past
    fork = Fork("t/c", revision, shared)
    chats.put("t/c:2", CREW, forked, replace=False, title="Lanterns", fork=fork)
    chats.put("t/whole", CREW, forked, replace=False, title="Lanterns")
    assert store.load("t/c:2") == store.load("t/whole")
    assert store.chat_ids("t") == ["t/c", "t/c:2", "t/whole"] and store.revision("t/c:2") == 0
    back = Chats(store).open("t/c:2")
    assert back.messages[1].selected == 1 and len(back.messages[1].swipes) == 2
    assert [m.swipe.text for m in back.messages] == [m.swipe.text for m in forked.messages]
    assert back.messages[0].swipe.game.to_document() == forked.messages[0].swipe.game.to_document()
    assert back.game.to_document() == forked.game.to_document()
    for at in (1, len(forked.messages) - 1):  # a reply copied, and the new one
        digest = shown_digest(forked.messages[at].swipe.narration)
        assert ("t/c:2", at) in {(hit.chat_id, hit.position) for hit in store.find_shown(digest)}


def test_a_fork_of_a_line_changed_since_it_was_read_is_refused_and_writes_nothing(
    store: Store,
) -> None:
    chats = Chats(store)
    line = played(chats)
    revision = store.revision("c")
    forked = Chat(line.start, line.messages[:2]).user("Elsewhere.")
    later, _ = line.regenerate(tick(1))
    chats.save("c", line, later, revision)  # another worker's step on the line
    with pytest.raises(StaleChatError):
        chats.put("c:2", CREW, forked, replace=False, fork=Fork("c", revision, 2))
    assert store.chat_ids() == ["c"]


def test_workers_starting_at_once_migrate_once(db: str) -> None:
    opened: list[Store] = []
    failures: list[BaseException] = []

    def open_one() -> None:
        try:
            opened.append(open_store(db))
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert {s.schema_version for s in opened} == {len(MIGRATIONS)}  # type: ignore[attr-defined]
    for one in opened:
        one.close()


def test_store_copy_moves_every_chat_and_ruleset(db: str, tmp_path: Path) -> None:
    source = tmp_path / "from.sqlite"
    chats = Chats(open_store(str(source)))
    chat = played(chats, "heist")
    played(chats, "another")
    chats.store.close()
    out = io.StringIO()
    assert main(["store", "copy", str(source), db], out) == 0
    assert "2 chats" in out.getvalue()
    copied = open_store(db)
    try:
        assert copied.chat_ids() == ["another", "heist"]
        back = Chats(copied).open("heist")
        assert back.game.to_document() == chat.game.to_document()
        assert [len(m.swipes) for m in back.messages] == [1, 2, 1, 1]
        assert len(copied.kept_rulesets()) == 1
    finally:
        copied.close()
    # `gm-tags chats` lists them on either store (a URL is no file that could be missing).
    listed = io.StringIO()
    assert main(["chats", "--db", db], listed) == 0
    assert "another" in listed.getvalue() and "heist" in listed.getvalue()
    # A chat already there is never overwritten.
    assert main(["store", "copy", str(source), db], io.StringIO()) == 1


def test_a_row_that_does_not_hold_what_gm_tags_wrote_is_said_damaged(store: Store) -> None:
    """On both back-ends alike: the chat is refused as damaged, naming it, not a crash."""
    played(Chats(store))
    with store._transaction() as db:  # type: ignore[attr-defined]
        db.execute("UPDATE swipes SET receipts = ? WHERE chat_id = ?", ("not json", "c"))
    with pytest.raises(StoreCorruptError, match="chat 'c' cannot be read"):
        Chats(store).open("c")
    assert store.chat_ids() == ["c"]  # the rest of the store reads on
