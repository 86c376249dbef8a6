"""Who a sheet command names."""

from __future__ import annotations

import pytest

from gm_tags import Game, Reason, Ruleset
from gm_tags.names import normalize_name


@pytest.mark.parametrize(
    ("written", "normalized"),
    [
        ("Éowyn", "eowyn"),
        ("  Tobin   Vell ", "tobin vell"),
        ("O'Brien", "o brien"),
        ("ＭＩＲＡ", "mira"),
        ("灯里", "灯里"),
        ("अर्जुन", "अर्जुन"),
        ("林逸", "林逸"),
    ],
)
def test_names_normalize_as_the_engine_does(written: str, normalized: str) -> None:
    assert normalize_name(written) == normalized


def spend(game: Game, who: str | None) -> tuple[str, str | None, str | None]:
    attribute = f'who="{who}" ' if who is not None else ""
    (receipt,) = game.apply_reply(f'[sheet: {attribute}op="spend" pool="grit" amount="1"]').receipts
    return receipt.result, receipt.now, str(receipt.reason) if receipt.reason else None


def test_who_matches_unicode_names_and_is_written_back_as_the_card_name(ember: Ruleset) -> None:
    game = Game.new(ember, {"灯里": {}, "Éowyn": {}, "अर्जुन": {}})
    for who, card in (("灯里", "灯里"), ("EOWYN", "Éowyn"), ("अर्जुन", "अर्जुन")):
        (receipt,) = game.apply_reply(
            f'[sheet: who="{who}" op="spend" pool="grit" amount="1"]'
        ).receipts
        assert receipt.ok and receipt.tag.startswith(f'[sheet: who="{card}" op="spend"')


def test_no_who_means_the_players_card_and_names_it(ember: Ruleset) -> None:
    game = Game.new(ember, {"Tobin": {}, "Mira": {}}, player="Mira")
    turn = game.apply_reply('[sheet: op="spend" pool="grit" amount="2"]')
    assert (
        turn.receipts[0].tag
        == '[sheet: who="Mira" op="spend" pool="grit" amount="2" result="ok" now="4/6"]'
    )
    assert turn.game.read("Mira", {"livePool": "grit"}) == 4
    assert turn.game.read("Tobin", {"livePool": "grit"}) == 6
    first = Game.new(ember, {"Tobin": {}, "Mira": {}})  # no player named: the first card
    assert (
        first.apply_reply('[sheet: op="spend" pool="grit" amount="2"]')
        .receipts[0]
        .tag.startswith('[sheet: who="Tobin"')
    )


def test_unknown_and_shared_names_are_refused_keeping_what_the_model_wrote(ember: Ruleset) -> None:
    game = Game.new(ember, {"Mira": {}, "MIRA": {}, "Tobin": {}}, player="Tobin")
    turn = game.apply_reply(
        '[sheet: who="Nobody" op="spend" pool="grit" amount="1"]'
        '[sheet: who="mira" op="spend" pool="grit" amount="1"]'
    )
    assert [receipt.reason for receipt in turn.receipts] == [
        Reason.UNKNOWN_CHARACTER,
        Reason.AMBIGUOUS_CHARACTER,
    ]
    assert turn.receipts[0].tag.startswith('[sheet: who="Nobody" op="spend"')
    assert (
        Game.new(ember).apply_reply('[sheet: op="spend" pool="grit" amount="1"]').receipts[0].reason
        is Reason.UNKNOWN_CHARACTER
    )


def test_the_players_own_card_wins_a_shared_name(ember: Ruleset) -> None:
    game = Game.new(ember, {"Mira": {}, "mira": {}}, player="mira")
    turn = game.apply_reply('[sheet: who="MIRA" op="spend" pool="grit" amount="1"]')
    assert turn.receipts[0].ok
    assert turn.receipts[0].tag.startswith('[sheet: who="Mira"')  # the first card of that name


def test_party_means_every_card_with_one_now_each(ember: Ruleset) -> None:
    game = Game.new(ember, {"Mira": {}, "Tobin": {"fields": {"toughness": 0}}, "Ash": {}})
    game = game.apply_reply('[sheet: who="Ash" op="spend" pool="grit" amount="6"]').game
    turn = game.apply_reply('[sheet: who="party" op="spend" pool="grit" amount="5"]')
    (receipt,) = turn.receipts
    assert receipt.ok
    assert receipt.tag == (
        '[sheet: who="party" op="spend" pool="grit" amount="5" result="ok" '
        'now="Mira 1/6; Tobin refused (insufficient); Ash refused (insufficient)"]'
    )
    assert turn.game.read("Mira", {"livePool": "grit"}) == 1
    assert turn.game.read("Tobin", {"livePool": "grit"}) == 4


def test_party_is_refused_with_the_first_reason_when_every_member_is(ember: Ruleset) -> None:
    game = Game.new(ember, {"Mira": {}, "Tobin": {}})
    (receipt,) = game.apply_reply(
        '[sheet: who="Party" op="spend" pool="grit" amount="50"]'
    ).receipts
    assert receipt.reason is Reason.INSUFFICIENT
    assert receipt.tag == (
        '[sheet: who="party" op="spend" pool="grit" amount="50" '
        'result="refused" reason="insufficient"]'
    )


def test_party_skips_a_name_two_cards_share_unless_it_is_the_players(ember: Ruleset) -> None:
    game = Game.new(ember, {"Mira": {}, "mira": {}, "Tobin": {}}, player="Tobin")
    (receipt,) = game.apply_reply('[sheet: who="party" op="spend" pool="grit" amount="1"]').receipts
    assert receipt.now == "Tobin 5/6"


def test_a_unique_first_name_finds_its_card_on_a_sheet_tag(ember: Ruleset) -> None:
    game = Game.new(ember, {"Agnes Ward": {}, "Tobin Vell": {}}, player="Tobin Vell")
    turn = game.apply_reply('[sheet: who="agnes" op="spend" pool="grit" amount="2"]')
    (receipt,) = turn.receipts
    assert receipt.tag == (
        '[sheet: who="Agnes Ward" op="spend" pool="grit" amount="2" result="ok" now="4/6"]'
    )
    assert turn.game.read("Agnes", {"livePool": "grit"}) == 4


def test_an_exact_name_wins_over_a_first_name_and_a_shared_first_name_is_ambiguous(
    ember: Ruleset,
) -> None:
    game = Game.new(ember, {"Agnes Ward": {}, "Agnes": {}, "Tobin Vell": {}, "Tobin Ash": {}})
    turn = game.apply_reply(
        '[sheet: who="Agnes" op="spend" pool="grit" amount="1"]'
        '[sheet: who="Tobin" op="spend" pool="grit" amount="1"]'
        '[sheet: who="Ward" op="spend" pool="grit" amount="1"]'
    )
    exact, shared, last_name = turn.receipts
    assert exact.tag.startswith('[sheet: who="Agnes" op="spend"')
    assert shared.reason is Reason.AMBIGUOUS_CHARACTER and "Tobin Vell, Tobin Ash" in shared.detail
    assert last_name.reason is Reason.UNKNOWN_CHARACTER  # only the first word is a handle


def test_a_refusal_in_a_large_party_names_a_dozen_cards_and_counts_the_rest(
    ember: Ruleset,
) -> None:
    """A refused tag's receipt stays short however large the party: it names the first dozen
    cards and says how many more there are, never all 40 (or 500)."""
    cards = {f"Runner {at:02}": {} for at in range(40)}
    game = Game.new(ember, cards, player="Runner 00")
    unknown, shared = game.apply_reply(
        '[sheet: who="Nobody" op="spend" pool="grit" amount="1"]'
        '[sheet: who="Runner" op="spend" pool="grit" amount="1"]'
    ).receipts
    assert unknown.reason is Reason.UNKNOWN_CHARACTER
    assert unknown.detail == (
        "no character is named 'Nobody'; the characters are: "
        + ", ".join(f"Runner {at:02}" for at in range(12))
        + " and 28 more"
    )
    assert shared.reason is Reason.AMBIGUOUS_CHARACTER
    assert shared.detail is not None and shared.detail.endswith(
        "Runner 11 and 28 more; name one exactly"
    )
