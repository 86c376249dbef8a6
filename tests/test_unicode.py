"""Names and labels in Japanese, Chinese and Hindi work everywhere: who=, pool labels, clock names,
the narration, the sheet blocks and the store. A name written in another Unicode form (decomposed,
half-width) is the same name, and the receipt writes back the name as the game holds it."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.store import Chats, SqliteStore
from tests.conftest import FIXTURES

# (ruleset, game, character, pool label, clock name, how a model might write the clock name,
#  a clock the reply clears first so there is room for another)
GAMES = [
    ("hearts-and-hollows.ja", "hollows-village.ja", "蒼", "ホールド", "ガス灯", "ｶﾞｽ灯", "村の不安"),
    ("jade-river.zh", "jade-river.zh", "苏晴", "内力", "天劫将至", "天劫将至", "密信送达"),
    # ज़ is U+095B, which decomposes into ज and the nukta U+093C.
    ("rajmarg.hi", "rajmarg.hi", "मीरा", "दम", "ज़मींदार के सिपाही", "ज़मींदार के सिपाही", None),
]


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def start(ruleset: str, game: str) -> tuple[str, Game]:
    path = str(FIXTURES / "rulesets" / f"{ruleset}.json")
    document = json.loads((FIXTURES / "games" / f"{game}.json").read_text("utf-8"))
    return path, Game.from_document(load_ruleset(path), document)


@pytest.mark.spec("EN-4")
@pytest.mark.parametrize(("ruleset", "game", "who", "pool", "clock", "written", "full"), GAMES)
def test_names_in_any_script_match_across_unicode_forms(
    ruleset: str,
    game: str,
    who: str,
    pool: str,
    clock: str,
    written: str,
    full: str | None,
    tmp_path: Path,
) -> None:
    path, before = start(ruleset, game)
    prose = f"{who}は息を整える。"
    clear = f'[clock: name="{nfd(full)}" clear]' if full else ""
    reply = (
        f'{prose}[sheet: who="{nfd(who)}" op="restore" pool="{pool}" amount="1"]{clear}'
        f'[clock: name="{clock}" size="4"][clock: name="{nfd(written)}" tick="1"]'
    )
    turn = before.apply_reply(reply)

    assert all(receipt.ok for receipt in turn.receipts), [r.summary for r in turn.receipts]
    sheet, *_, ticked = turn.receipts
    assert sheet.tag.startswith(f'[sheet: who="{who}" op="restore"')
    assert ticked.tag == f'[clock: name="{clock}" tick="1" result="ok" now="1/4"]'
    assert turn.narration == prose
    reminder = turn.game.reminder()
    assert who in reminder and clock in reminder

    store = SqliteStore(tmp_path / "chats.sqlite")
    chats = Chats(store)
    chat = chats.create("c", {"path": path}, before)
    after, _ = chat.reply(reply)
    chats.save("c", chat, after)
    store.close()
    reopened = Chats(SqliteStore(tmp_path / "chats.sqlite")).open("c")
    assert reopened.game.to_document() == turn.game.to_document()
    assert reopened.messages[-1].swipe.text == reply
