"""Progress clocks through `apply_reply`: every rule of the page's clock section."""

from __future__ import annotations

import pytest

from gm_tags import Clock, Game, Reason, Ruleset, load_ruleset
from tests.reply.conftest import RULESETS


def receipts(game: Game, reply: str) -> list[str]:
    return [receipt.tag for receipt in game.apply_reply(reply).receipts]


def fills(game: Game) -> list[tuple[str, str, bool]]:
    return [(clock.name, clock.fill, clock.done) for clock in game.clocks]


@pytest.mark.spec("CL-6")
def test_a_clock_is_created_empty_with_an_offered_size(game: Game) -> None:
    turn = game.apply_reply('The guards stir. [clock: name="Alarm raised" size="6"]')
    assert turn.receipts[0].tag == '[clock: name="Alarm raised" size="6" result="ok" now="0/6"]'
    assert fills(turn.game) == [("Alarm raised", "0/6", False)]


@pytest.mark.spec("CL-6")
@pytest.mark.parametrize("size", ["5", "12", "2", "six", "6.0"])
def test_a_size_the_ruleset_does_not_offer_refuses_the_clock(game: Game, size: str) -> None:
    turn = game.apply_reply(f'[clock: name="Alarm raised" size="{size}"]')
    assert turn.receipts[0].reason is Reason.BAD_SIZE
    assert turn.game.clocks == ()


@pytest.mark.spec("CL-3")
def test_sizes_default_to_four_six_and_eight() -> None:
    rajmarg = load_ruleset(RULESETS / "rajmarg.hi.json")  # "clocks": {}
    game = Game.new(rajmarg)
    outcomes = [
        receipt.result
        for receipt in game.apply_reply(
            "".join(f'[clock: name="c{size}" size="{size}"]' for size in (3, 4, 6, 8, 10))
        ).receipts
    ]
    assert outcomes == ["refused", "ok", "ok", "ok", "refused"]


@pytest.mark.spec("CL-7")
def test_ticks_add_and_remove_segments_within_the_size(game: Game) -> None:
    turn = game.apply_reply(
        '[clock: name="Alarm raised" size="6"] [clock: name="Alarm raised" tick="2"]'
        ' [clock: name="Alarm raised" tick="3"] [clock: name="Alarm raised" tick="-1"]'
        ' [clock: name="Alarm raised" tick="-9"] [clock: name="Alarm raised" tick="+99"]'
    )
    assert [receipt.now for receipt in turn.receipts] == ["0/6", "2/6", "5/6", "4/6", "0/6", "6/6"]


@pytest.mark.spec("CL-7")
@pytest.mark.parametrize("tick", ["0", "two", "1.5", "1234567890", "+"])
def test_a_tick_that_is_not_a_whole_number_other_than_zero_is_refused(
    game: Game, tick: str
) -> None:
    started = game.apply_reply('[clock: name="Gate" size="4"]').game
    turn = started.apply_reply(f'[clock: name="Gate" tick="{tick}"]')
    assert turn.receipts[0].reason is Reason.BAD_AMOUNT
    assert turn.game.clocks == started.clocks


def test_full_width_and_devanagari_digits_are_read_as_the_digits_they_are(game: Game) -> None:
    turn = game.apply_reply('[clock: name="門" size="６"] [clock: name="門" tick="३"]')
    assert [receipt.now for receipt in turn.receipts] == ["0/6", "3/6"]


@pytest.mark.spec("CL-8")
def test_a_full_clock_is_done_stays_and_counts_until_cleared(crew: Ruleset) -> None:
    game = Game.new(crew)
    names = [f"Threat {n}" for n in range(crew.definition.clocks.max)]  # type: ignore[union-attr]
    made = "".join(f'[clock: name="{name}" size="4"]' for name in names)
    game = game.apply_reply(made + '[clock: name="Threat 0" tick="4"]').game
    assert game.clocks[0] == Clock("Threat 0", 4, 4) and game.clocks[0].done
    refused = game.apply_reply('[clock: name="One more" size="4"]')
    assert refused.receipts[0].reason is Reason.CLOCKS_FULL
    reopened = game.apply_reply('[clock: name="Threat 0" tick="-1"]').game
    assert not reopened.clocks[0].done and reopened.clocks[0].fill == "3/4"
    cleared = game.apply_reply('[clock: name="Threat 0" clear] [clock: name="One more" size="4"]')
    assert [receipt.now for receipt in cleared.receipts] == ["cleared", "0/4"]


@pytest.mark.spec("CL-17")
def test_creating_beyond_max_is_refused_done_clocks_included(crew: Ruleset) -> None:
    game = Game(crew, clocks=tuple(Clock(f"Done {n}", 4, 4) for n in range(6)))
    turn = game.apply_reply('[clock: name="Seventh" size="4"]')
    assert turn.receipts[0].reason is Reason.CLOCKS_FULL
    assert turn.game.clocks == game.clocks


@pytest.mark.spec("CL-9")
def test_clear_removes_the_named_clock_and_only_it(game: Game) -> None:
    game = game.apply_reply('[clock: name="A" size="4"][clock: name="B" size="6"]').game
    turn = game.apply_reply('[clock: name="a" clear]')
    assert turn.receipts[0].tag == '[clock: name="A" clear result="ok" now="cleared"]'
    assert fills(turn.game) == [("B", "0/6", False)]


@pytest.mark.parametrize("spelling", ['clear="true"', "CLEAR", 'clear="yes"'])
def test_clear_may_be_written_as_an_attribute_or_in_capitals(game: Game, spelling: str) -> None:
    game = game.apply_reply('[clock: name="A" size="4"]').game
    assert game.apply_reply(f'[clock: name="A" {spelling}]').game.clocks == ()


@pytest.mark.spec("CL-16")
@pytest.mark.parametrize("other", ["ALARM RAISED", "alarm raised", " Alarm  raised "])
def test_names_are_compared_case_insensitively(game: Game, other: str) -> None:
    turn = game.apply_reply(
        f'[clock: name="Alarm raised" size="6"] [clock: name="{other}" size="4"]'
    )
    assert turn.receipts[1].reason is Reason.CLOCK_EXISTS
    assert fills(turn.game) == [("Alarm raised", "0/6", False)]


@pytest.mark.spec("CL-16")
def test_names_are_compared_unicode_aware(game: Game) -> None:
    turn = game.apply_reply(
        '[clock: name="ÉCLUSE" size="4"] [clock: name="écluse" tick="1"]'
        ' [clock: name="Straße" size="4"] [clock: name="STRASSE" tick="2"]'
        ' [clock: name="ＡＬＡＲＭ" size="4"] [clock: name="alarm" tick="3"]'
    )
    assert [receipt.now for receipt in turn.receipts] == ["0/4", "1/4", "0/4", "2/4", "0/4", "3/4"]


@pytest.mark.spec("CL-10")
@pytest.mark.parametrize(
    "name",
    [
        "x" * 101,
        "Alarm {{user}}",
        "Alarm }} raised",
        "Tab\there",
        "Line\u2028break",
        'The "Big" one',
    ],
)
def test_names_break_no_name_rule(game: Game, name: str) -> None:
    quoted = f"'{name}'" if '"' in name else f'"{name}"'
    turn = game.apply_reply(f'[clock: name={quoted} size="4"]')
    assert turn.receipts[0].reason is Reason.BAD_NAME
    assert turn.game.clocks == ()
    assert '"Big"' not in turn.reply and "{{" not in turn.reply


@pytest.mark.spec("CL-10")
@pytest.mark.parametrize("name", ["x" * 100, "鐘楼の警報", "दरबार की साज़िश", "A", "Émeute 🔔"])
def test_names_up_to_a_hundred_characters_in_any_script_are_taken(game: Game, name: str) -> None:
    turn = game.apply_reply(f'[clock: name="{name}" size="4"]')
    assert turn.receipts[0].ok
    assert turn.game.clocks[0].name == name


@pytest.mark.spec("CL-12")
def test_ticking_or_clearing_an_unknown_clock_is_refused(game: Game) -> None:
    turn = game.apply_reply('[clock: name="Ghost" tick="1"] [clock: name="Ghost" clear]')
    assert [receipt.reason for receipt in turn.receipts] == [Reason.UNKNOWN_CLOCK] * 2


@pytest.mark.spec("CL-12", "TG-2")
@pytest.mark.parametrize(
    "body",
    [
        'name="Alarm" size="6" tick="2"',
        'name="Alarm" tick="1" clear',
        'name="Alarm" size="6" clear',
        'name="Alarm"',
        'size="6"',
        "Alarm raised tick=2",
    ],
)
def test_a_tag_asking_for_no_action_or_two_is_malformed(game: Game, body: str) -> None:
    turn = game.apply_reply(f"[clock: {body}]")
    assert turn.receipts[0].reason is Reason.MALFORMED
    assert turn.game.clocks == ()


@pytest.mark.spec("CL-1")
def test_without_a_clocks_block_clock_commands_are_refused(no_clocks: Ruleset) -> None:
    turn = Game.new(no_clocks).apply_reply('[clock: name="Alarm" size="6"]')
    assert turn.receipts[0].reason is Reason.NO_CLOCKS
    assert turn.game.clocks == ()


def test_a_game_without_a_ruleset_refuses_clock_commands() -> None:
    turn = Game.new(None).apply_reply('[clock: name="Alarm" size="6"]')
    assert turn.receipts[0].reason is Reason.NO_CLOCKS


@pytest.mark.spec("CL-11")
def test_outcome_attributes_the_model_wrote_are_discarded(game: Game) -> None:
    turn = game.apply_reply(
        '[clock: name="Alarm" size="6" result="refused" now="6/6" reason="whim"]'
        '[clock: name="Alarm" tick="1" now="5/6" result="ok"]'
    )
    assert [receipt.tag for receipt in turn.receipts] == [
        '[clock: name="Alarm" size="6" result="ok" now="0/6"]',
        '[clock: name="Alarm" tick="1" result="ok" now="1/6"]',
    ]


@pytest.mark.spec("CL-18")
def test_a_display_reads_name_fill_size_and_done_off_the_snapshot(game: Game) -> None:
    game = game.apply_reply('[clock: name="Heat" size="4"][clock: name="Heat" tick="4"]').game
    (clock,) = game.clocks
    assert (clock.name, clock.filled, clock.size, clock.done) == ("Heat", 4, 4, True)
