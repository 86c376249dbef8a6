"""Keys and tenants in process: how a keys file reads (and is refused), which tenant a key
names, and a store from before tenants: its chats become the default tenant's, as they were."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gm_tags import Game
from gm_tags.chats.served import ServedChats
from gm_tags.chats.tenancy import TenantChats
from gm_tags.guard.keys import KeysError, load_keys, parse_keys
from gm_tags.store import Chats, SqliteStore, UnknownChatError
from tests.conftest import FIXTURES, ruleset_named

CREW = {"path": str(FIXTURES / "rulesets" / "crew-of-shadows.json")}
KEY = "k" * 16


def test_each_key_names_its_tenant_and_a_tenant_may_have_several() -> None:
    keys = parse_keys(
        f"# two groups\nalpha={KEY}\n  alpha = {KEY}-next\nbeta={'b' * 20}, gamma={'g' * 16}",
        "keys.txt",
    )
    assert [keys.tenant(k) for k in (KEY, f"{KEY}-next", "b" * 20, "g" * 16)] == [
        "alpha",
        "alpha",
        "beta",
        "gamma",
    ]
    assert keys.tenant("k" * 15) is None
    assert keys.names == {"alpha", "beta", "gamma"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("alpha", "entry 1: an entry is TENANT=KEY"),
        ("alpha=short", "entry 1: a key is at least 16 characters"),
        (f"al/pha={KEY}", "entry 1: a tenant is 1 to 40 ASCII letters"),
        (f"alpha={KEY}\nbeta={KEY}", "entry 2: this key names another tenant already"),
        ("# nothing\n\n", "holds no key"),
    ],
)
def test_keys_that_do_not_read_are_refused_with_where(text: str, problem: str) -> None:
    with pytest.raises(KeysError, match=f"keys.txt: {problem}"):
        parse_keys(text, "keys.txt")


def test_the_file_comes_before_the_environment(tmp_path: Path) -> None:
    file = tmp_path / "keys.txt"
    file.write_text(f"alpha={KEY}\n", encoding="utf-8")
    environment = {"GM_TAGS_KEYS": f"beta={KEY}"}
    from_file = load_keys(str(file), environment)
    from_environment = load_keys(None, environment)
    assert from_file is not None and from_file.tenant(KEY) == "alpha"
    assert from_environment is not None and from_environment.tenant(KEY) == "beta"
    assert load_keys(None, {}) is None
    with pytest.raises(KeysError, match="cannot read the keys"):
        load_keys(str(tmp_path / "missing.txt"), {})


def test_a_store_from_before_tenants_keeps_its_chats_for_the_default_tenant(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite"
    old = SqliteStore(path)
    Chats(old).create("table", CREW, Game.new(ruleset_named("crew-of-shadows")))
    old.close()
    with sqlite3.connect(path) as raw:  # the store as schema 4, the one before tenants, left it
        raw.execute("DROP INDEX chats_by_tenant")
        raw.execute("ALTER TABLE chats DROP COLUMN tenant")
        raw.execute("ALTER TABLE chats DROP COLUMN title")  # schema 6's, after tenants
        raw.execute("ALTER TABLE messages DROP COLUMN written")  # schema 7's revisions
        raw.execute("ALTER TABLE swipes DROP COLUMN written")
        raw.execute("ALTER TABLE swipes DROP COLUMN thrown")  # schema 8's dice faces
        raw.execute("ALTER TABLE swipes DROP COLUMN rolls")  # schema 9's, each roll apart
        raw.execute("ALTER TABLE swipes DROP COLUMN joins")  # schema 10's joins
        raw.execute("UPDATE schema_version SET version = 4")
    raw.close()
    served = ServedChats(lambda: SqliteStore(path))
    default, alpha = TenantChats(served, "default"), TenantChats(served, "alpha")
    assert default.chat_ids() == ["table"] and alpha.chat_ids() == []
    assert default.read("table").game.to_document()
    alpha.create("table", CREW, Game.new(ruleset_named("crew-of-shadows")))
    assert alpha.chat_ids() == ["table"]  # the same name, another chat
    assert served.chat_ids() == ["alpha/table", "table"]
    for stranger in ("alpha/table", "default/table"):
        with pytest.raises(UnknownChatError, match=f"no chat '{stranger}'"):
            default.read(stranger)
    with pytest.raises(UnknownChatError, match=r"^no chat 'gone'$"):
        alpha.read("gone")  # said by the tenant's own id
    served.close()
