"""The shared party sheet: commands, values worked out from the members, the party block, and
revision-checked saves."""

from __future__ import annotations

import json
import threading

import pytest

from gm_tags import Game, GameSession, PartySave, Reason, Ruleset
from tests.conftest import FIXTURES, ruleset_named, run_together


@pytest.fixture(scope="module")
def crew() -> Ruleset:
    return ruleset_named("crew-of-shadows")


def crew_game(crew: Ruleset) -> Game:
    document = json.loads((FIXTURES / "games" / "crew-mid-heist.json").read_text("utf-8"))
    return Game.from_document(crew, document)


@pytest.mark.spec("PT-8", "PT-10", "PT-12")
def test_party_pools_spend_and_restore_in_the_party_live_state(crew: Ruleset) -> None:
    turn = crew_game(crew).apply_reply(
        '[sheet: sheet="party" op="restore" pool="coin" amount="3"]'
        '[sheet: sheet="party" op="spend" pool="Coin" amount="1"]'
    )
    assert [r.tag for r in turn.receipts] == [
        '[sheet: sheet="party" op="restore" pool="coin" amount="3" result="ok" now="3/4"]',
        '[sheet: sheet="party" op="spend" pool="Coin" amount="1" result="ok" now="2/4"]',
    ]
    assert turn.game.to_document()["rulesetLive"]["$party"] == {"pools": {"coin": {"value": 2}}}


@pytest.mark.spec("PT-8", "PT-12")
def test_advance_changes_the_permanent_values_and_raises_the_revision(crew: Ruleset) -> None:
    game = crew_game(crew)
    turn = game.apply_reply(
        '[sheet: sheet="party" op="advance" field="heat" by="2"]'
        '[sheet: sheet="party" op="advance" field="Upgrades" to="Hidden vault"]'
    )
    assert [r.now for r in turn.receipts] == ["Heat 2", "Upgrades Hidden vault"]
    document = turn.game.to_document()
    assert document["gamePartySheet"] == {"fields": {"heat": 2, "upgrades": "Hidden vault"}}
    assert document["gamePartySheetRevision"] == 2
    assert Game.from_document(crew, document).party_value("heat") == 2
    assert game.party_revision == 0  # the snapshot before is untouched


@pytest.mark.spec("PT-9")
@pytest.mark.parametrize(
    ("tag", "reason"),
    [
        ('[sheet: sheet="crew" op="spend" pool="coin" amount="1"]', Reason.UNKNOWN_SHEET),
        ('[sheet: sheet="party" op="temp" pool="coin" amount="1"]', Reason.WRONG_SHEET),
        ('[sheet: sheet="party" op="spend" pool="coin" amount="1"]', Reason.INSUFFICIENT),
        ('[sheet: sheet="party" op="spend" pool="rep" amount="1"]', Reason.UNKNOWN_POOL),
        ('[sheet: sheet="party" op="advance" field="size" by="1"]', Reason.NO_ADVANCEMENT),
        ('[sheet: sheet="party" op="advance" field="heat" to="10"]', Reason.BAD_VALUE),
        ('[sheet: sheet="party" op="advance" field="lair" to="{{user}}"]', Reason.BAD_VALUE),
        ('[sheet: sheet="party" op="advance" field="lair" by="1"]', Reason.BAD_VALUE),
        ('[sheet: sheet="party" op="advance" field="rep" by="1"]', Reason.UNKNOWN_FIELD),
    ],
)
def test_party_refusals_change_nothing(crew: Ruleset, tag: str, reason: Reason) -> None:
    game = crew_game(crew)
    turn = game.apply_reply(tag)
    assert turn.receipts[0].reason is reason
    assert turn.game.party_revision == 0 and turn.game.party_live == game.party_live


@pytest.mark.spec("PT-8")
def test_who_party_means_every_character_and_never_the_shared_sheet(crew: Ruleset) -> None:
    turn = crew_game(crew).apply_reply('[sheet: who="party" op="restore" pool="coin" amount="1"]')
    assert turn.receipts[0].reason is Reason.UNKNOWN_POOL  # the characters have no coin
    assert "$party" not in turn.game.to_document().get("rulesetLive", {})


@pytest.mark.spec("PT-15")
def test_a_ruleset_without_a_party_sheet_behaves_as_before() -> None:
    ember = ruleset_named("ember-roads")
    game = Game.new(ember, {"Mira": {}})
    turn = game.apply_reply('[sheet: sheet="party" op="spend" pool="coin" amount="1"]')
    assert turn.receipts[0].reason is Reason.UNKNOWN_SHEET
    reminder = game.reminder()
    assert 'sheet="party"' not in reminder and "<party_sheet>" not in reminder


@pytest.mark.spec("PT-16", "PT-13")
def test_member_fields_follow_the_characters_at_once(crew: Ruleset) -> None:
    game = crew_game(crew)
    assert (game.party_value("size"), game.party_value("stashed")) == (2, 0)
    richer = Game.new(
        crew,
        {"Mira": {"fields": {"coin_stash": 3}}, "Tobin": {"fields": {"coin_stash": 4}}, "Ash": {}},
    )
    assert (richer.party_value("size"), richer.party_value("stashed")) == (3, 7)


@pytest.mark.spec("PT-11")
def test_the_party_block_gives_label_fields_and_pools_beside_the_sheets(crew: Ruleset) -> None:
    game = (
        crew_game(crew)
        .apply_reply('[sheet: sheet="party" op="restore" pool="coin" amount="2"]')
        .game
    )
    reminder = game.reminder()
    block = reminder.split("<party_sheet>\n")[1].split("\n</party_sheet>")[0]
    assert block.splitlines()[:3] == ["Crew", "Heat 0, Tier 0, Crew size 2", "Coin 2/4"]
    assert '[sheet: sheet="party" op="advance" field="Heat" by="1"]' in reminder
    laser = Game.from_document(
        ruleset_named("lasers-and-feelings"),
        json.loads((FIXTURES / "games" / "laser-hearts.json").read_text("utf-8")),
    )
    ship = laser.reminder().split("<party_sheet>\n")[1]
    assert ship.splitlines()[:3] == [
        "The Raptor",
        "Ship The Raptor, Problem Fuel cells running dry, Shield rating 3, Crew aboard 2",
        "Shields 1/3",
    ]


@pytest.mark.spec("PT-14", "PT-18")
def test_a_save_opened_before_another_landed_is_refused_with_the_newer_sheet(crew: Ruleset) -> None:
    game = crew_game(crew)
    mira = {"fields": {"lair": "The Leaky Bucket cellar"}}
    tobin = {"fields": {"lair": "A barge on the canal"}}
    first = game.save_party_sheet(mira, 0)
    assert first.saved and first.game.party_revision == 1
    second = first.game.save_party_sheet(tobin, 0)
    assert not second.saved and second.game is first.game
    assert second.sheet["fields"]["lair"] == "The Leaky Bucket cellar" and second.draft == tobin
    again = first.game.save_party_sheet(second.draft, second.game.party_revision)
    assert again.saved and again.game.party_value("lair") == "A barge on the canal"


def test_a_story_change_makes_an_open_draft_stale(crew: Ruleset) -> None:
    game = crew_game(crew)
    moved = game.apply_reply('[sheet: sheet="party" op="advance" field="heat" by="1"]').game
    assert not moved.save_party_sheet({"fields": {"heat": 5}}, 0).saved


def test_a_draft_with_values_the_sheet_cannot_hold_is_refused_whole(crew: Ruleset) -> None:
    result = crew_game(crew).save_party_sheet(
        {
            "fields": {"heat": 12, "lair": "x" * 200, "fame": 1, "size": 9},
            "lists": {"contacts": [{"friendly": "yes"}]},
        },
        0,
    )
    assert not result.saved and result.game.party_revision == 0
    assert sorted(p.path for p in result.problems) == [
        "fields.fame",
        "fields.heat",
        "fields.lair",
        "lists.contacts.0.friendly",
        "lists.contacts.0.name",
    ]


def test_two_players_saving_at_once_land_exactly_one(crew: Ruleset) -> None:
    def save(
        session: GameSession, barrier: threading.Barrier, results: list[PartySave], lair: str
    ) -> None:
        barrier.wait()
        results.append(session.save_party_sheet({"fields": {"lair": lair}}, 0))

    for attempt in range(20):
        session = GameSession(crew_game(crew))
        barrier = threading.Barrier(2)
        results: list[PartySave] = []
        run_together(save, [(session, barrier, results, f"Lair {n} {attempt}") for n in (1, 2)])
        assert sorted(r.saved for r in results) == [False, True]
        assert session.game.party_revision == 1
        loser = next(r for r in results if not r.saved)
        assert loser.sheet["fields"]["lair"] == session.game.party_value("lair")


def test_no_update_is_lost_under_a_thousand_interleaved_saves_and_story_changes(
    crew: Ruleset,
) -> None:
    session = GameSession(crew_game(crew))
    landed = []
    lock = threading.Lock()

    def player(name: str) -> None:
        for n in range(250):
            opened = session.game.party_revision
            result = session.save_party_sheet({"fields": {"lair": f"{name} {n}"}}, opened)
            if result.saved:
                with lock:
                    landed.append(result.game.party_revision)

    def story() -> None:
        for _ in range(250):
            session.apply_reply('[sheet: sheet="party" op="advance" field="tier" to="1"]', seed=1)

    def act(role: str) -> None:
        return story() if role == "story" else player(role)

    run_together(act, [("A",), ("B",), ("C",), ("story",)])
    # Every landed save and every story change raised the revision by exactly one.
    assert session.game.party_revision == len(landed) + 250
    assert len(set(landed)) == len(landed)
