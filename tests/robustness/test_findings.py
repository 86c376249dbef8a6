"""What a fuzzing run found breaking a game, one test each: each failed before its fix."""

from __future__ import annotations

import json

import pytest

from gm_tags import Game, GmTagsError, Reason
from gm_tags.history import Chat, HistoryError
from gm_tags.scan import scan
from tests.fuzzing import fixture_game, outcome_in_raw

BELL = '[clock: name="Bell tower" size="6"]'


@pytest.fixture
def crew() -> Game:
    return fixture_game("crew-of-shadows.json", "crew-mid-heist.json")


@pytest.fixture
def fifth() -> Game:
    return fixture_game("fifth-age.json", "fifth-age.json")


def test_a_reply_holding_every_private_use_character_is_still_narrated(crew: Game) -> None:
    private = "".join(chr(code) for code in range(0xE000, 0xF900))
    turn = crew.apply_reply(f"{private} {BELL} The end.")
    assert turn.narration == f"{private} The end."
    assert turn.receipts[0].ok


@pytest.mark.parametrize("amount", ["100000", "-100000"])
def test_huge_wound_amounts_leave_a_document_that_reads_back(crew: Game, amount: str) -> None:
    tag = f'[sheet: who="Mira" op="damage" track="Harm" kind="lesser" amount="{amount}"]'
    turn = crew.apply_reply(" ".join([tag] * 11))
    reread = Game.from_document(crew.ruleset, json.loads(json.dumps(turn.game.to_document())))
    assert reread.to_document() == turn.game.to_document()


def test_overflow_is_held_at_the_stored_limit(crew: Game) -> None:
    tag = '[sheet: who="Mira" op="damage" track="Harm" kind="lesser" amount="100000"]'
    turn = crew.apply_reply(" ".join([tag] * 11))
    assert turn.receipts[-1].now == "Harm 3/3 Severe +1000000 over"
    wounds = turn.game.to_document()["rulesetLive"]["mira"]["wounds"]["harm"]
    assert wounds["overflow"] == 1_000_000


def test_marks_beyond_the_track_are_worked_out_without_counting_them_one_by_one(
    crew: Game,
) -> None:
    """The closed form gives what marking one at a time gives: fill, upgrade, then overflow."""
    one_by_one = crew
    for _ in range(20):
        one_by_one = one_by_one.apply_reply(
            '[sheet: who="Mira" op="damage" track="Harm" kind="lesser" amount="1"]'
        ).game
    at_once = crew.apply_reply(
        '[sheet: who="Mira" op="damage" track="Harm" kind="lesser" amount="20"]'
    ).game
    assert at_once.to_document()["rulesetLive"] == one_by_one.to_document()["rulesetLive"]


def test_a_wound_amount_above_the_limit_is_refused_with_the_limit(crew: Game) -> None:
    turn = crew.apply_reply(
        '[sheet: who="Mira" op="damage" track="Harm" kind="lesser" amount="100001"]'
    )
    receipt = turn.receipts[0]
    assert receipt.reason is Reason.BAD_AMOUNT
    assert "100000" in receipt.detail


def test_healing_clears_overflow_then_marks(crew: Game) -> None:
    hurt = crew.apply_reply(
        '[sheet: who="Mira" op="damage" track="Harm" kind="lesser" amount="100"]'
    ).game
    # 3 boxes of lesser harm, 6 moves up the ladder to severe, 91 over.
    healed = hurt.apply_reply('[sheet: who="Mira" op="damage" track="Harm" amount="-90"]')
    assert healed.receipts[0].now == "Harm 3/3 Severe +1 over"
    cleared = hurt.apply_reply('[sheet: who="Mira" op="damage" track="Harm" amount="-100000"]')
    assert cleared.receipts[0].now == "Harm 0/3"


@pytest.mark.parametrize(
    "reply",
    [
        '[[clock: name="x" tick="1"]clock: name="Alarm raised" tick="9"]',
        '[ [clock: name="x" tick="1"]clock: name="Alarm raised" tick="9"]',
        '[skill_chec[clock: name="x" tick="1"]k: skill="Prowl" dc="2"]',
        '[[[clock: name="a" tick="1"]clock: name="b" tick="1"]clock: name="c" tick="9"]',
    ],
)
def test_removing_a_tag_never_joins_the_text_around_it_into_a_tag(crew: Game, reply: str) -> None:
    turn = crew.apply_reply(reply)
    assert scan(turn.narration) == []
    assert "[clock:" not in turn.narration.replace(" ", "")


def test_an_unknown_difficulty_is_refused_with_the_ladders_labels(fifth: Game) -> None:
    turn = fifth.apply_reply('[skill_check: skill="Stealth" difficulty="Trivial-ish"]')
    receipt = turn.receipts[0]
    assert receipt.reason is Reason.UNKNOWN_DIFFICULTY
    assert receipt.tag == (
        '[skill_check: skill="Stealth" difficulty="Trivial-ish" result="refused" '
        'reason="unknown-difficulty"]'
    )
    ladder = [step.label for step in fifth.ruleset.definition.resolution.difficulty_ladder]
    assert all(label in receipt.detail for label in ladder)
    assert all(label in turn.game.reminder() for label in ladder)


def test_an_unknown_difficulty_beside_a_dc_rolls_against_the_dc(fifth: Game) -> None:
    turn = fifth.apply_reply('[skill_check: skill="Stealth" dc="12" difficulty="Trivial-ish"]')
    assert turn.receipts[0].ok and 'dc="12"' in turn.receipts[0].tag


def test_game_check_refuses_an_unknown_difficulty(fifth: Game) -> None:
    with pytest.raises(GmTagsError) as refused:
        fifth.check("Sable", "Stealth", difficulty="Trivial-ish")
    assert getattr(refused.value, "code", None) == "skill_check_difficulty_unknown"


@pytest.mark.parametrize(
    "tag",
    [
        '[clock: name="x\ud800y" size="4"]',
        '[sheet: who="Mira" op="note" field="load" value="\udc00"]',
    ],
)
def test_a_tag_holding_a_lone_surrogate_is_refused(crew: Game, tag: str) -> None:
    turn = crew.apply_reply(tag)
    receipt = turn.receipts[0]
    assert receipt.reason is Reason.MALFORMED
    assert "surrogate" in receipt.detail
    assert receipt.tag.encode("utf-8")  # the receipt itself is text
    json.dumps(turn.game.to_document(), ensure_ascii=False).encode("utf-8")


def test_lone_surrogates_are_refused_where_text_enters_the_python_api(crew: Game) -> None:
    with pytest.raises(GmTagsError, match="surrogate"):
        Game.new(crew.ruleset, {"Mi\ud800ra": {}})
    with pytest.raises(HistoryError, match="surrogate"):
        Chat(crew).user("hello \ud800")


@pytest.mark.parametrize(
    ("family", "tag"),
    [
        ("clock", '[clock: name="x" resu{{lt="ok" tick=1 2]'),
        ("clock", '[clock: name="x" ｒｅｓｕｌｔ＝"ok" now: 3/4 ~]'),
        ("clock", '[clock: name="x" result result="a"="b" ~]'),
        ("skill_check", '[skill_check: skill="Stealth" dice="2d20" resolution="sum" pool="3" ~]'),
    ],
)
def test_a_refusals_raw_text_carries_no_outcome_in_any_spelling(
    fifth: Game, family: str, tag: str
) -> None:
    receipt = fifth.apply_reply(tag).receipts[0]
    assert receipt.reason is Reason.MALFORMED
    raw = dict(receipt.request)["raw"]
    assert raw is not None and not outcome_in_raw(family, raw)


def test_continuing_a_reply_keeps_what_the_next_reminder_must_hear(fifth: Game) -> None:
    chat, _ = Chat(fifth).reply(
        'Sable creeps. [skill_check: skill="Stealth" dc="12"] [clock: name="x" tick="1"]', seed=1
    )
    before = chat.game
    chat, turn = chat.continue_reply(' Then she waits. [sheet: op="spend" pool="Nope" amount="1"]')
    assert chat.game.rolled == before.rolled
    assert chat.game.recent == (*before.recent, turn.receipts[0].summary)
    reminder = chat.game.reminder()
    assert "Stealth check" in reminder and "no-clocks" in reminder and "unknown-pool" in reminder


def test_a_continuations_receipts_point_into_the_joined_text(fifth: Game) -> None:
    first = 'Sable creeps. [clock: name="x" tick="1"]'
    more = ' Then. [sheet: op="spend" pool="Nope" amount="1"]'
    chat, _ = Chat(fifth).reply(first)
    chat, _ = chat.continue_reply(more)
    swipe = chat.messages[-1].swipe
    for receipt in swipe.receipts:
        start, end = receipt["span"]
        assert swipe.text[start:end] == receipt["written"]


def test_a_tag_read_past_its_closing_bracket_is_refused_not_raised() -> None:
    """Found by the long fuzz run: a typographic quote inside a single-quoted value made the
    scanner read on past the tag's `]`, where the grammar expects only the end of the tag (Lark
    names no terminal for it): the refusal's wording raised IndexError out of apply_reply."""
    game = fixture_game("storyteller.json", "nightfall.json")
    reply = (
        '[SHEET: pool=\'B\u201clod\' who="part" op="damage" amount=x]'
        '[skill_check: who="Detective Hale" skill="Medicine" dc="8"]'
        '[ sheet : op="damage" amount=1 pool=\u201cWillpower\u201d]'
    )
    turn = game.apply_reply(reply, seed=6650460)
    receipt = turn.receipts[0]
    assert receipt.reason is Reason.MALFORMED
    assert "expected the end of the tag" in receipt.detail
