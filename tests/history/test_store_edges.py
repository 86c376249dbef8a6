"""A store file that is not ours, busy, read-only or damaged: each refused with its own clear
error, and none of them changed."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gm_tags.service import create_app
from gm_tags.store import (
    BUSY_TIMEOUT,
    Chats,
    SqliteStore,
    StoreBusyError,
    StoreCorruptError,
    StoreError,
    StoreReadOnlyError,
)
from tests.conftest import LOOPBACK
from tests.history.test_store import CREW, started, tick


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    path = tmp_path / "gm.sqlite"
    store, chats, chat = started(path)
    after, _ = chat.reply(tick(2))
    chats.save("c", chat, after)
    store.close()
    return path


def test_another_applications_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE notes (body TEXT)")
        other.execute("INSERT INTO notes VALUES ('keep me')")
    before = digest(path)
    with pytest.raises(StoreError, match="another application's database"):
        SqliteStore(path)
    assert digest(path) == before
    with sqlite3.connect(path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_an_application_with_its_own_chats_table_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "app.sqlite"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE chats (id INTEGER PRIMARY KEY, title TEXT)")
    before = digest(path)
    with pytest.raises(StoreError, match="another application's database"):
        SqliteStore(path)
    assert digest(path) == before


def test_a_file_that_is_no_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my shopping list\n", encoding="utf-8")
    with pytest.raises(StoreError, match="not an SQLite database"):
        SqliteStore(path)
    assert path.read_text(encoding="utf-8") == "my shopping list\n"


def test_an_empty_file_becomes_a_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite"
    path.touch()
    SqliteStore(path).close()
    store, chats, chat = started(path)
    try:
        assert store.chat_ids() == ["c"]
        assert chats.open("c").game.clocks == chat.game.clocks
    finally:
        store.close()


def test_a_store_in_a_folder_that_does_not_exist_is_said_so(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"folder .* does not exist"):
        SqliteStore(tmp_path / "missing" / "gm.sqlite")


@pytest.fixture
def locked(store_file: Path) -> Iterator[sqlite3.Connection]:
    """Another process's write lock on the store, held by a second connection."""
    holder = sqlite3.connect(store_file, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    yield holder
    holder.execute("ROLLBACK")
    holder.close()


@pytest.mark.load
def test_a_busy_store_opens_and_a_write_is_refused_as_busy(
    store_file: Path, locked: sqlite3.Connection
) -> None:
    store = SqliteStore(store_file)
    chats = Chats(store)
    chat = chats.open("c")
    after, _ = chat.reply(tick(1))
    with pytest.raises(StoreBusyError, match="busy"):
        chats.save("c", chat, after)
    # The wait is bounded by the connection's busy timeout (read, not timed: a clock measured
    # here would measure the machine's load, not the store).
    (waits,) = store._connection.execute("PRAGMA busy_timeout").fetchone()
    assert waits == BUSY_TIMEOUT * 1000
    store.close()


@pytest.mark.load
def test_the_service_answers_a_busy_store_with_503_and_retry_after(
    store_file: Path, locked: sqlite3.Connection
) -> None:
    with TestClient(create_app(store_file, [CREW["path"]]), base_url=LOOPBACK) as client:
        answer = client.post("/games/c/replies", json={"text": tick(1)})
        assert answer.status_code == 503
        assert answer.json()["code"] == "store_busy"
        assert answer.headers["Retry-After"] == "1"
    locked.execute("ROLLBACK")
    locked.execute("BEGIN")
    store = SqliteStore(store_file)
    assert Chats(store).open("c").game.clocks[0].filled == 2  # nothing landed
    store.close()


def test_a_read_waits_for_no_step_being_written_and_sees_the_last_committed(
    tmp_path: Path,
) -> None:
    """A turn's reads do not queue behind another turn's commit (each holds the writer for an
    fsync): they read the store as last committed, a step half-written unseen."""
    store, _, _ = started(tmp_path / "gm.sqlite")
    before = store.revision("c")
    writing, read = threading.Event(), threading.Event()

    def write() -> None:
        with store._transaction() as db:
            db.execute("UPDATE chats SET revision = revision + 1 WHERE chat_id = 'c'")
            writing.set()
            read.wait(10)  # a read that waited for this step would see it once this gives up

    writer = threading.Thread(target=write)
    writer.start()
    assert writing.wait(10)
    seen = (store.revision("c"), store.open_chat("c", 64).revision, store.revisions(["c"]))
    read.set()
    writer.join()
    assert seen == (before, before, {"c": before})
    assert store.revision("c") == before + 1
    store.close()


def test_a_read_only_store_says_so(store_file: Path) -> None:
    # Root ignores permission bits, so the file is made immutable instead.
    for extra in (store_file.with_name(store_file.name + "-wal"),):
        extra.unlink(missing_ok=True)
    if subprocess.run(["chattr", "+i", str(store_file)], capture_output=True).returncode:
        pytest.skip("this file system cannot make a file immutable")
    try:
        store = SqliteStore(store_file)
        chats = Chats(store)
        chat = chats.open("c")
        after, _ = chat.reply(tick(1))
        with pytest.raises(StoreReadOnlyError, match="read-only"):
            chats.save("c", chat, after)
        store.close()
    finally:
        subprocess.run(["chattr", "-i", str(store_file)], check=True)


def test_a_corrupted_page_is_said_so_with_the_integrity_check(store_file: Path) -> None:
    data = bytearray(store_file.read_bytes())
    page = 4096
    data[page : page * 2] = b"\xff" * page  # the second page, scrambled
    store_file.write_bytes(bytes(data))
    with pytest.raises(StoreCorruptError) as raised:
        store = SqliteStore(store_file)
        Chats(store).open("c")
    assert "damaged" in str(raised.value)


def test_a_truncated_store_is_said_damaged(store_file: Path) -> None:
    data = store_file.read_bytes()
    store_file.write_bytes(data[: len(data) // 2 + 100])
    with pytest.raises(StoreError, match=r"damaged|malformed"):
        store = SqliteStore(store_file)
        Chats(store).open("c")


def test_a_chat_opens_reading_only_the_snapshot_it_plays_from(tmp_path: Path) -> None:
    """Older snapshots are made when asked for: a damaged one is said so then, not before."""
    path = tmp_path / "gm.sqlite"
    store, chats, chat = started(path)
    first, _ = chat.reply(tick(2))
    second, _ = first.reply(tick(3))
    chats.save("c", chat, second)
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE swipes SET game = 'not json' WHERE position = 0")
    opened = Chats(store).open("c")
    assert opened.game.to_document() == second.game.to_document()
    assert opened.messages[1].swipe.narration == second.messages[1].swipe.narration
    with pytest.raises(StoreCorruptError, match="cannot be read"):
        opened.messages[0].swipe.game  # noqa: B018 - reading it is the point
    store.close()


def test_a_bad_row_is_said_so_and_the_service_answers_500_store_damaged(
    store_file: Path,
) -> None:
    with sqlite3.connect(store_file) as raw:
        raw.execute("UPDATE swipes SET game = 'not json'")
    store = SqliteStore(store_file)
    with pytest.raises(StoreCorruptError, match="cannot be read"):
        Chats(store).open("c")
    store.close()
    with TestClient(create_app(store_file, [CREW["path"]]), base_url=LOOPBACK) as client:
        answer = client.get("/games/c")
        assert (answer.status_code, answer.json()["code"]) == (500, "store_damaged")


def test_a_read_s_sqlite_error_is_said_as_the_store_s_and_its_reader_goes_back_clean(
    store_file: Path,
) -> None:
    """A read (`SqliteStore._reading`) says SQLite's errors as store errors, whether it fails
    at its start (a closed store), in its statements or in one read transaction's statements,
    and gives its reader connection back out of any transaction, for the next read."""
    store = SqliteStore(store_file)
    for snapshot in (False, True):
        failing = pytest.raises(StoreError, match="no such table: nowhere")
        with failing, store._reading(snapshot=snapshot) as db:
            db.execute("SELECT * FROM nowhere")
        with store._reading(snapshot=snapshot) as db:
            assert db.execute("SELECT 1").fetchone() == (1,)
    assert store._readers and not any(reader.in_transaction for reader in store._readers)
    with pytest.raises(ValueError, match="the read's own"), store._reading(snapshot=True):
        raise ValueError("the read's own")
    assert not any(reader.in_transaction for reader in store._readers)
    store.close()
    with pytest.raises(StoreError, match="closed"), store._reading():
        pass
