"""The SQLite store on its own: schema versions and migrations, a step that fails half-way, and
files it must not touch."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.cli import main
from gm_tags.store import MIGRATIONS, Chats, SqliteStore, StoreError
from gm_tags.store import sql as store_module
from tests.conftest import FIXTURES, ruleset_named

CREW = {"path": str(FIXTURES / "rulesets" / "crew-of-shadows.json")}


def tick(amount: int) -> str:
    return f'[clock: name="Plan" tick="{amount}"]'


def started(path: Path) -> tuple[SqliteStore, Chats, Any]:
    store = SqliteStore(path)
    chats = Chats(store)
    game = Game.new(ruleset_named("crew-of-shadows")).apply_reply('[clock: name="Plan" size="8"]')
    chat = chats.create("c", CREW, game.game)
    return store, chats, chat


def test_a_new_store_is_at_the_newest_schema(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "gm.sqlite")
    assert store.schema_version == len(MIGRATIONS)
    store.close()


@pytest.mark.spec("EN-3")
def test_an_older_store_is_migrated_forward_on_open_keeping_its_chats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "gm.sqlite"
    store, chats, chat = started(path)
    after, _ = chat.reply(tick(3))
    chats.save("c", chat, after)
    store.close()

    newer = (*MIGRATIONS, "CREATE TABLE notes (chat_id TEXT NOT NULL, note TEXT NOT NULL)")
    monkeypatch.setattr(store_module, "MIGRATIONS", newer)
    migrated = SqliteStore(path)
    assert migrated.schema_version == len(newer)
    assert Chats(migrated).open("c").game.clocks[0].filled == 3
    migrated.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM notes").fetchone() == (0,)


def test_a_migration_that_fails_leaves_the_store_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "gm.sqlite"
    store, _, _ = started(path)
    store.close()
    broken = (*MIGRATIONS, "CREATE TABLE notes (note TEXT); CREATE TABLE chats (again TEXT)")
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    with pytest.raises(StoreError, match=f"migrating to store schema {len(broken)} failed"):
        SqliteStore(path)
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS)
    reopened = SqliteStore(path)
    assert reopened.schema_version == len(MIGRATIONS)
    assert reopened.chat_ids() == ["c"]
    reopened.close()
    with sqlite3.connect(path) as raw:
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert "notes" not in tables  # the half-run migration was rolled back whole


def test_a_store_from_a_newer_gm_tags_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "gm.sqlite"
    SqliteStore(path).close()
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="newer gm-tags"):
        SqliteStore(path)
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchone() == (99,)


def test_a_file_that_is_not_a_store_is_a_clear_error_in_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database, just words\n" * 100, encoding="utf-8")
    code = main(["replay", str(FIXTURES / "sessions" / "heist.jsonl"), "--db", str(notes)])
    assert code == 2
    assert "not a gm-tags store" in capsys.readouterr().err
    assert notes.read_text(encoding="utf-8").startswith("not a database")


def test_a_step_that_fails_while_being_written_leaves_the_last_one_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "gm.sqlite"
    store, chats, chat = started(path)
    one, _ = chat.reply(tick(2))
    chats.save("c", chat, one)
    two, _ = one.reply(tick(3))
    regenerated, _ = two.regenerate(tick(5))

    real_dumps = store_module.json.dumps
    calls = {"n": 0}

    def failing_dumps(value: Any, **options: Any) -> str:
        calls["n"] += 1
        if calls["n"] == 3:  # the second swipe's receipts: after the first swipe's rows went in
            raise OSError("disk gone")
        return real_dumps(value, **options)

    monkeypatch.setattr(store_module.json, "dumps", failing_dumps)
    with pytest.raises(OSError, match="disk gone"):
        chats.save("c", one, regenerated)
    monkeypatch.setattr(store_module.json, "dumps", real_dumps)
    store.close()

    reopened = SqliteStore(path)
    stored = Chats(reopened).open("c")
    reopened.close()
    assert len(stored.messages) == 1 and stored.game.clocks[0].filled == 2


def test_a_chat_opens_after_its_ruleset_file_moved(tmp_path: Path) -> None:
    ruleset_file = tmp_path / "crew.json"
    ruleset_file.write_bytes((FIXTURES / "rulesets" / "crew-of-shadows.json").read_bytes())
    store = SqliteStore(tmp_path / "gm.sqlite")
    chats = Chats(store)
    start = Game.new(load_ruleset(ruleset_file))
    chat = chats.create("c", {"path": str(ruleset_file)}, start)
    after, _ = chat.reply('[clock: name="Plan" size="8"]')
    chats.save("c", chat, after)
    store.close()
    ruleset_file.unlink()  # moved away, or edited beyond recognition

    reopened = SqliteStore(tmp_path / "gm.sqlite")
    chat = Chats(reopened).open("c")
    assert chat.game.clocks[0].name == "Plan"
    assert (
        chat.game.ruleset is not None and chat.game.ruleset.fingerprint == start.ruleset.fingerprint
    )
    reopened.close()


def test_play_refuses_to_resume_a_chat_with_another_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "gm.sqlite")
    crew = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
    fifth = str(FIXTURES / "rulesets" / "fifth-age.json")
    monkeypatch.setattr("sys.stdin", io.StringIO("/quit\n"))
    assert main(["play", "--ruleset", crew, "--db", db, "--chat", "c"], out=io.StringIO()) == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("/quit\n"))
    code = main(["play", "--ruleset", fifth, "--db", db, "--chat", "c"], out=io.StringIO())
    assert code == 1
    err = capsys.readouterr().err
    assert "'Crew of Shadows' (crew-of-shadows" in err and "'Fifth Age' (fifth-age" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("/quit\n"))
    assert main(["play", "--db", db, "--chat", "c"], out=io.StringIO()) == 0


def test_a_store_of_schema_1_is_migrated_and_its_chats_open_from_their_ruleset_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "gm.sqlite"
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS[:1])
    store = SqliteStore(path)
    with store._transaction() as db:  # a chat as schema 1 stored it: the ruleset by path only
        db.execute("INSERT INTO chats VALUES ('old', ?, '{}')", (json.dumps(CREW),))
    store.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS)
    migrated = SqliteStore(path)
    assert migrated.schema_version == len(MIGRATIONS)
    assert Chats(migrated).open("old").game.ruleset is not None
    migrated.close()
