"""The rules of what the model reads, pinned one by one."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm_tags import Game, Ruleset, load_ruleset
from gm_tags.prompt.system import CHECK_PARAGRAPH, CUT_MARK, REFERENCE_HEADING
from tests.conftest import FIXTURES

RULESETS = FIXTURES / "rulesets"
# The command syntax being taught, and a check's faces as the Engine's summary line writes them.
COMMAND = re.compile(r"\[(?:sheet|clock|skill_check): [^\]]*\]|\[\d+(?:, \d+)*\]|\[\]")


def load(name: str) -> Ruleset:
    return load_ruleset(RULESETS / name)


def data(name: str) -> dict[str, Any]:
    return json.loads((RULESETS / name).read_text("utf-8"))


@pytest.mark.spec("GM-1")
def test_check_guidance_replaces_the_built_in_paragraph() -> None:
    ember = load("reference/ember-roads.json")
    text = Game.new(ember).system_prompt().text
    assert text.startswith(ember.definition.gm.check_guidance) and CHECK_PARAGRAPH not in text
    # checkGuidance is required, so the built-in paragraph is what a game without a ruleset gets.
    assert Game.new(None).system_prompt().text == CHECK_PARAGRAPH


@pytest.mark.spec("GM-2", "GM-3")
def test_sheet_guidance_is_in_every_turn_and_world_guidance_only_in_the_world_prompt() -> None:
    data_ = data("reference/ember-roads.json")
    data_["gm"]["worldGuidance"] = "Roads of ash between the last cities."
    game = Game.new(load_ruleset(data_), {"Mira": {}})
    assert data_["gm"]["sheetGuidance"] in game.reminder()
    assert "Roads of ash" not in game.reminder() and "Roads of ash" not in game.system_prompt().text
    assert game.world_prompt() == "Roads of ash between the last cities."


@pytest.mark.spec("RF-1", "RF-4")
def test_the_rules_reference_is_in_the_system_section_once_and_never_in_a_turn() -> None:
    keepers = load("packaged-lantern-keepers")
    game = Game.new(keepers, {"Odile": {}})
    reference = keepers.definition.gm_reference
    assert reference is not None
    text = game.system_prompt().text
    assert text.count(REFERENCE_HEADING) == 1 and text.count(reference) == 1
    assert reference not in game.reminder()
    assert (
        REFERENCE_HEADING not in Game.new(load("reference/ember-roads.json")).system_prompt().text
    )


@pytest.mark.spec("RF-3")
def test_a_tight_budget_cuts_the_reference_with_a_mark_before_anything_core() -> None:
    game = Game.new(load("packaged-lantern-keepers"))
    full = game.system_prompt()
    cut = game.system_prompt(budget=full.tokens - 10)
    assert cut.cut > 0 and cut.tokens <= full.tokens - 10
    assert cut.text.endswith(CUT_MARK) and REFERENCE_HEADING in cut.text
    guidance = game.ruleset.definition.gm.check_guidance  # type: ignore[union-attr]
    assert cut.text.startswith(guidance)
    bare = game.system_prompt(budget=1)  # nothing fits: the whole reference goes, the core stays
    assert bare.text.startswith(guidance) and bare.cut == len(
        game.ruleset.definition.gm_reference or ""
    )  # type: ignore[union-attr]
    characters = game.system_prompt(budget=full.tokens, count=len)
    assert characters.cut > 0  # the counter is pluggable: counting characters, it is tighter


@pytest.mark.spec("GM-7", "ST-6")
def test_commands_are_taught_only_for_what_the_ruleset_has_with_its_own_names() -> None:
    gravewatch = Game.new(load("reference/gravewatch.json"), {"Wren": {}}).reminder()
    assert '[sheet: who="Name" op="damage" track="Harm" kind="knock" amount="1"]' in gravewatch
    assert "Wound track Harm: from Scuffed to Down; kinds knock (K), tear (T)." in gravewatch
    assert '[sheet: who="Name" op="state" state="Light" value="Out"]' in gravewatch
    assert "State Light: Lit, Shuttered, Out." in gravewatch
    assert 'op="track"' not in gravewatch and 'op="note"' not in gravewatch
    no_states = Game.new(load("storyteller.json"), {"Lucien": {}}).reminder()
    assert 'op="state"' not in no_states and "State " not in no_states


@pytest.mark.spec("ST-6", "GM-9", "VR-7")
def test_every_block_gives_each_state_with_its_default_from_the_live_state() -> None:
    game = Game.new(load("reference/ember-roads.json"), {"Mira": {}, "Tobin": {}})
    game = game.apply_reply('[sheet: who="Tobin" op="state" state="stance" value="reckless"]').game
    assert "Stance Steady" in game.sheet_block("Mira")
    assert "Stance Reckless" in game.sheet_block("Tobin")


@pytest.mark.spec("TR-2")
def test_a_plain_track_at_its_default_shows_only_with_always_show() -> None:
    game = Game.new(load("storyteller.json"), {"Lucien": {"fields": {"willpower_rating": 5}}})
    block = game.sheet_block()
    assert "Humanity 7" in block  # alwaysShow
    assert "Temper" not in block  # at its default, not alwaysShow
    moved = game.apply_reply('[sheet: op="track" track="temper" by="2"]').game
    assert "Temper 2" in moved.sheet_block()


@pytest.mark.spec("PN-5", "WB-3", "GM-9")
def test_wound_tracks_show_the_rung_and_its_cost_or_boxes_marked_out_of_total() -> None:
    story = Game.new(load("storyteller.json"), {"Lucien": {}})
    hurt = story.apply_reply('[sheet: op="damage" track="health" kind="lethal" amount="4"]').game
    assert "Health 4/7 Wounded -2 to rolls" in hurt.sheet_block()
    assert "Health" not in story.sheet_block()  # clear and not alwaysShow
    ember = Game.new(load("reference/ember-roads.json"), {"Mira": {"abilities": {"heart": 3}}})
    strained = ember.apply_reply(
        '[sheet: op="damage" track="strain" kind="strain" amount="2"]'
    ).game
    assert "Strain 2/5" in strained.sheet_block()


@pytest.mark.spec("GM-9", "SH-1")
def test_sections_are_headings_in_the_block() -> None:
    block = Game.new(load("storyteller.json"), {"Lucien": {}}).sheet_block()
    assert block.splitlines()[1] == (
        "Physical: STR 1 die, DEX 1 die, STA 1 die; Social: CHA 1 die; Mental: WIT 1 die"
    )


@pytest.mark.spec("GM-5")
def test_the_sheet_summary_chooses_fields_derived_values_and_list_rows() -> None:
    game = Game.new(
        load("fifth-age.json"),
        {
            "Sable": {
                "fields": {"class": "rogue", "level": 5, "armor": "heavy"},
                "lists": {
                    "weapons": [
                        {"name": "Rapier", "damage": "1d8", "finesse": True},
                        {"name": "Club", "damage": "1d4"},
                    ]
                },
            }
        },
    )
    block = game.sheet_block()
    assert "Class Rogue, Level 5" in block and "Proficiency bonus 3" in block
    assert "Armor" not in block  # not in the summary
    assert "Weapons: Rapier 1d8 Finesse, Club 1d4" in block


@pytest.mark.spec("UT-7")
def test_the_reminder_lists_the_untrained_rules_by_section_or_skill() -> None:
    reminder = Game.new(load("reference/gravewatch.json"), {"Wren": {}}).reminder()
    assert (
        "Untrained: Labour (-1 die), Dig (cannot be attempted), Listen (one step harder)."
        in reminder
    )
    assert "Cannot attempt untrained: Dig" in reminder


def test_a_game_without_a_ruleset_gets_no_sheet_section() -> None:
    game = Game.new(None, {"Mira": None})
    assert game.reminder() == ""
    refused = game.apply_reply('[sheet: op="spend" pool="grit" amount="1"]').game
    assert refused.reminder().startswith("These did not happen in your last reply")
    assert "<character_sheets>" not in refused.reminder()


def test_refusals_reach_the_next_reminder_and_only_the_next() -> None:
    game = Game.new(load("reference/ember-roads.json"), {"Mira": {}})
    refused = game.apply_reply(
        '[sheet: op="spend" pool="luck" amount="9"][clock: name="x" tick="1"]'
    ).game
    first = refused.reminder().split("\n\n")[0]
    assert "Mira spend luck refused (insufficient)" in first
    assert "clock x tick refused (no-clocks)" in first
    assert "did not happen" not in refused.apply_reply("Quiet.").game.reminder()


hostile = st.text(min_size=1, max_size=30).filter(lambda name: name.strip())


@settings(max_examples=100, deadline=None)
@given(
    names=st.lists(hostile, min_size=1, max_size=3, unique=True),
    note=st.text(max_size=60),
    who=hostile,
)
def test_blocks_are_prompt_safe_whatever_names_and_notes_hold(
    names: list[str], note: str, who: str
) -> None:
    ruleset = load("storyteller.json")
    game = Game.new(ruleset, dict.fromkeys(names))
    quoted = note.replace('"', "'")
    game = game.apply_reply(
        f'[sheet: op="note" field="hunting" value="{quoted}"]'
        f'[sheet: who="{who}" op="spend" pool="blood" amount="1"]'
        f'[skill_check: who="{who}" skill="{quoted}" dc="3"]'
    ).game
    reminder = game.reminder()
    outside = COMMAND.sub("", reminder)
    assert "[" not in outside and "]" not in outside
    assert "{{" not in reminder and "}}" not in reminder.replace("{{ }}", "")
    assert not any(ord(char) < 32 and char != "\n" for char in reminder)
    assert reminder.count("<character_sheets>") == 1 and reminder.count("</character_sheets>") == 1
    assert reminder == game.reminder()
