"""Layers as the Engine reads and applies them, and the capability gates the Engine sets: worked
examples, each a ruleset or a game in and the refusal, ladder, guidance or value out."""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gm_tags import Game, GmTagsError, RulesetError, load_ruleset
from gm_tags.sheet.build import field_value
from tests.conftest import FIXTURES

REFERENCE = FIXTURES / "rulesets" / "reference"


def reference(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REFERENCE / f"{name}.json").read_text("utf-8"))
    return data


def refusals(data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(RulesetError) as refused:
        load_ruleset(data)
    return [(problem.path, problem.message) for problem in refused.value.problems]


def gravewatch_layers(*layers: dict[str, Any]) -> dict[str, Any]:
    data = reference("gravewatch")
    data["layers"] = [*data["layers"], *layers]
    return data


WARDEN = {"Wren": {"abilities": {"sinew": 3, "nerve": 2, "wits": 2}}}


def test_a_reference_layer_replaces_the_ladder_the_check_rolls_against() -> None:
    gravewatch = load_ruleset(REFERENCE / "gravewatch.json")
    plain = Game.new(gravewatch, WARDEN)
    night = Game.new(gravewatch, WARDEN, layers=["long_night"])
    check = '[skill_check: skill="Sinew" dc="1"]'
    # dc="1" names the "Plain work" step: at target 6 without the layer, 7 with it.
    assert 'threshold="6"' in plain.apply_reply(check, seed=2).receipts[0].tag
    assert 'threshold="7"' in night.apply_reply(check, seed=2).receipts[0].tag
    grim = night.apply_reply('[skill_check: skill="Sinew" difficulty="Grim"]', seed=2)
    assert 'dc="4"' in grim.receipts[0].tag and 'threshold="9"' in grim.receipts[0].tag
    assert "Grim 4 successes at target 9" in night.reminder()
    assert "Grim 4 successes at target 9" not in plain.reminder()


def test_layer_guidance_is_appended_with_a_space_to_each_guidance() -> None:
    ember = load_ruleset(REFERENCE / "ember-roads.json")
    winter = Game.new(ember, {"Mira": {}}, layers=["hard_winter"])
    base = ember.definition.gm
    layer = reference("ember-roads")["layers"][0]["gm"]
    assert winter.system_prompt().text.startswith(f"{base.check_guidance} {layer['guidance']}")
    world = f"{base.world_guidance} {layer['worldGuidance']}" if base.world_guidance else None
    assert winter.world_prompt() == (world or layer["worldGuidance"])
    # The loaded ruleset is not changed, and a game without the layer reads it as it was.
    assert Game.new(ember, {"Mira": {}}).system_prompt().text.startswith(base.check_guidance)
    assert ember.definition.gm.check_guidance == base.check_guidance
    assert winter.to_document()["gameRuleset"]["fingerprint"] == ember.fingerprint


def watch_of(game: Game, name: str) -> Any:
    """The Watch a character's sheet shows."""
    assert game.ruleset is not None
    return field_value(game.ruleset.index.fields, game.character(name).build, "watch")


def test_a_layer_takes_values_out_with_a_replacement_default() -> None:
    data = gravewatch_layers(
        {
            "id": "no_dusk",
            "label": "No dusk watch",
            "fields": [{"id": "watch", "removeValues": ["dusk"]}],
        },
        {
            "id": "endless_dawn",
            "label": "Endless dawn",
            "fields": [{"id": "watch", "removeValues": ["night", "dusk"], "default": "dawn"}],
        },
    )
    # Removing "night" is refused only where a hideWhen compares with it; this one does.
    assert (
        "layers.2.fields.0.removeValues.0",
        "a layer cannot remove 'night' from 'watch': a hideWhen compares with it at "
        "sheet.fields.2.hideWhen",
    ) in refusals(data)
    del data["sheet"]["fields"][2]["hideWhen"]
    ruleset = load_ruleset(data)
    sheets = {"Wren": {"fields": {"watch": "dusk"}}, "Ash": {}}
    dusk_gone = Game.new(ruleset, sheets, layers=["no_dusk"])
    assert [watch_of(dusk_gone, name) for name in sheets] == ["night", "night"]
    dawn = Game.new(ruleset, sheets, layers=["endless_dawn"])
    assert [watch_of(dawn, name) for name in sheets] == ["dawn", "dawn"]
    assert watch_of(Game.new(ruleset, sheets), "Wren") == "dusk"
    watch = dawn.ruleset.index.fields["watch"]  # type: ignore[union-attr]
    assert (watch.values, watch.default) == (["dawn"], "dawn")
    # The stored value is kept for the day the layer is off.
    stored = dawn.to_document()["gameCharacterCards"][0]["rulesetSheet"]["build"]
    assert stored["fields"]["watch"] == "dusk"


def test_two_layers_that_together_empty_an_enum_keep_the_earlier() -> None:
    """Each layer alone leaves Watch a value; together they would leave none (an IndexError
    before issue #30): the earlier layer's narrowing stands and the later one's is left out."""
    data = gravewatch_layers(
        {
            "id": "only_night",
            "label": "Only night",
            "fields": [{"id": "watch", "removeValues": ["dawn", "dusk"]}],
        },
        {
            "id": "no_night",
            "label": "No night",
            "fields": [{"id": "watch", "removeValues": ["night"], "default": "dawn"}],
        },
    )
    del data["sheet"]["fields"][2]["hideWhen"]
    game = Game.new(load_ruleset(data), {"Wren": {}}, layers=["only_night", "no_night"])
    watch = game.ruleset.index.fields["watch"]  # type: ignore[union-attr]
    assert (watch.values, watch_of(game, "Wren")) == (["night"], "night")
    assert game.sheet_block("Wren")


def test_a_layer_that_takes_the_default_away_names_the_one_that_stands_in() -> None:
    data = reference("gravewatch")
    del data["sheet"]["fields"][2]["hideWhen"]
    data["layers"] = [
        {"id": "day", "label": "Day", "fields": [{"id": "watch", "removeValues": ["night"]}]},
        {
            "id": "dusk",
            "label": "Dusk",
            "fields": [{"id": "watch", "removeValues": ["night"], "default": "midnight"}],
        },
        {
            "id": "none",
            "label": "None",
            "fields": [{"id": "watch", "removeValues": ["dusk", "night", "dawn"]}],
        },
        {"id": "odd", "label": "Odd", "fields": [{"id": "post", "removeValues": ["x"]}]},
        {"id": "lost", "label": "Lost", "fields": [{"id": "watch", "removeValues": ["noon"]}]},
    ]
    assert refusals(data) == [
        (
            "layers.0.fields.0.removeValues",
            "removing 'night' takes the default of 'watch' away; name the value that stands in "
            "with default",
        ),
        (
            "layers.1.fields.0.default",
            "default 'midnight' is not one of the values this layer leaves (dusk, dawn)",
        ),
        ("layers.2.fields.0.removeValues", "a layer must leave 'watch' at least one value"),
        ("layers.3.fields.0.id", "field 'post' is not an enum field"),
        ("layers.4.fields.0.removeValues.0", "'noon' is not one of the values of 'watch'"),
    ]


def test_the_older_layer_shape_is_refused_with_the_engines_shape_shown() -> None:
    data = reference("gravewatch")
    data["layers"] = [
        {
            "id": "no_dawn",
            "label": "No dawn",
            "removeValues": [{"field": "watch", "values": ["dawn"]}],
        }
    ]
    [(path, message)] = refusals(data)
    assert path == "layers.0.removeValues"
    assert '"fields": [{"id": FIELD, "removeValues": [VALUE, ...], "default": VALUE}]' in message


def test_a_ladder_of_the_other_kind_is_refused() -> None:
    ember = reference("ember-roads")
    ember["layers"][0]["difficultyLadder"] = [{"label": "Hard", "successes": 2}]
    assert refusals(ember) == [
        (
            "layers.0.difficultyLadder.0",
            'a layer replaces the ladder in the ruleset\'s own kind: a dice-sum step names "dc"',
        )
    ]
    gravewatch = reference("gravewatch")
    gravewatch["layers"][0]["difficultyLadder"][1] = {"label": "Awkward", "dc": 12}
    gravewatch["layers"][0]["difficultyLadder"][2]["target"] = 10
    assert [path for path, _ in refusals(gravewatch)] == [
        "layers.0.difficultyLadder.1",
    ]
    gravewatch["layers"][0]["difficultyLadder"][1] = {"label": "Awkward", "successes": 31}
    assert refusals(gravewatch) == [
        ("layers.0.difficultyLadder.1.successes", "found 31; one roll counts at most 30"),
        ("layers.0.difficultyLadder.2.target", "target 10 is outside 5..9"),
    ]


@pytest.mark.parametrize(
    ("guidance", "path", "message"),
    [
        ("Use [brackets]", "layers.0.gm.guidance", "square brackets"),
        ("Two\nlines", "layers.0.gm.guidance", "line"),
        ("x" * 4001, "layers.0.gm.guidance", "4000"),
        ("x" * 3900, "layers.0.gm", "at most 4000 characters of guidance in total"),
    ],
)
def test_layer_guidance_keeps_the_limits_of_guidance(
    guidance: str, path: str, message: str
) -> None:
    data = reference("gravewatch")
    data["layers"][0]["gm"]["guidance"] = guidance
    found = refusals(data)
    assert any(p == path and message in m for p, m in found), found


def conflicting_pair() -> Any:
    data = reference("gravewatch")
    data["layers"].append(
        {
            "id": "midsummer",
            "label": "Midsummer",
            "conflicts": ["long_night"],
            "gm": {"guidance": "It is midsummer; the nights are short."},
        }
    )
    return load_ruleset(data)


def test_conflicting_layers_cannot_start_a_game_and_the_later_one_is_dropped_on_read() -> None:
    ruleset = conflicting_pair()
    with pytest.raises(GmTagsError, match="'The long night' and 'Midsummer' cannot be turned on"):
        Game.new(ruleset, WARDEN, layers=["midsummer", "long_night"])
    with pytest.raises(GmTagsError, match="this ruleset has no layer 'winter'"):
        Game.new(ruleset, WARDEN, layers=["winter"])
    document = Game.new(ruleset, WARDEN, layers=["midsummer"]).to_document()
    both = Game.from_document(ruleset, {**document, "rulesetLayers": ["midsummer", "long_night"]})
    assert both.layers == ("long_night",)
    assert "midsummer" not in both.system_prompt().text
    assert both.to_document()["rulesetLayers"] == ["long_night"]


@pytest.mark.parametrize(
    ("conflicts", "message"),
    [(["long_night"], "a layer cannot conflict with itself"), (["dusk"], "unknown layer 'dusk'")],
)
def test_a_layer_conflicts_only_with_another_declared_layer(
    conflicts: list[str], message: str
) -> None:
    data = reference("gravewatch")
    data["layers"][0]["conflicts"] = conflicts
    [(path, found)] = refusals(data)
    assert path == "layers.0.conflicts.0" and found.startswith(message)


def test_a_catalog_hide_rule_names_a_filter_of_the_catalog_and_compares_its_kind() -> None:
    ember = reference("ember-roads")
    assert load_ruleset(copy.deepcopy(ember)).definition.layers
    hide = ember["layers"][0]["catalogs"][0]["hide"]
    hide.pop("above")
    hide["equals"] = "high"
    assert refusals(copy.deepcopy(ember)) == [
        ("layers.0.catalogs.0.hide", "filter 'grit' holds a number, so hide uses above or below")
    ]
    hide["filter"] = "school"
    assert refusals(copy.deepcopy(ember)) == [
        ("layers.0.catalogs.0.hide.filter", "catalog 'knacks' declares no filter 'school'")
    ]
    hide.pop("equals")
    assert any("exactly one of" in message for _, message in refusals(ember))


# Capability gates -------------------------------------------------------------------------


def package(folder: Path, data: dict[str, Any], minor: int) -> Path:
    raw = json.dumps(data).encode("utf-8")
    (folder / "ruleset.json").write_bytes(raw)
    manifest = {
        "schemaVersion": 2,
        "capabilityApi": {"major": 1, "minor": minor},
        "id": data["id"],
        "name": data["name"],
        "kind": ["ruleset"],
        "version": "1.0.0",
        "files": [
            {"path": "ruleset.json", "sha256": hashlib.sha256(raw).hexdigest(), "bytes": len(raw)}
        ],
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    return folder


def gated_paths(folder: Path, data: dict[str, Any], minor: int) -> list[str]:
    try:
        load_ruleset(package(folder, data, minor))
    except RulesetError as refused:
        return [p.path for p in refused.problems if "needs Capability API" in p.message]
    return []


def with_spend(**spend: Any) -> Callable[[dict[str, Any]], None]:
    return lambda data: data["resolution"]["spend"][0].update(spend)


def more_spends(data: dict[str, Any]) -> None:
    data["sheet"]["live"]["pools"] += [
        {"id": "grit", "label": "Grit", "max": {"const": 3}, "start": "full"},
        {"id": "luck", "label": "Luck", "max": {"const": 3}, "start": "full"},
    ]
    for pool in ("grit", "luck"):
        data["resolution"]["spend"].append(
            {"pool": pool, "amount": 1, "successes": 1, "perCheck": 1}
        )


def hidden_plain_track(data: dict[str, Any]) -> None:
    data["sheet"]["live"]["tracks"].append(
        {
            "id": "dread",
            "label": "Dread",
            "min": 0,
            "max": 5,
            "hideWhen": {"field": "watch", "equals": "night"},
        }
    )


@pytest.mark.parametrize(
    ("change", "path", "minor"),
    [
        (lambda data: None, "sheet.live.tracks.0.levels", 30),
        (with_spend(reroll={"upTo": 2, "mode": "once"}), "resolution.spend.0.reroll", 38),
        (with_spend(perCheck="pool"), "resolution.spend.0.perCheck", 38),
        (with_spend(perCheck={"abilityScore": "nerve"}), "resolution.spend.0.perCheck", 38),
        (more_spends, "resolution.spend.2", 38),
        (hidden_plain_track, "sheet.live.tracks.1.hideWhen", 37),
    ],
)
def test_features_are_gated_at_the_minor_the_engine_sets(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], path: str, minor: int
) -> None:
    data = reference("gravewatch")
    change(data)
    assert path in gated_paths(tmp_path, data, minor - 1)
    assert path not in gated_paths(tmp_path, data, minor)


def test_an_empty_layers_array_gates_nothing(tmp_path: Path) -> None:
    data = reference("gravewatch")
    assert "layers" in gated_paths(tmp_path, data, 24)
    data["layers"] = []
    assert "layers" not in gated_paths(tmp_path, data, 24)


def test_a_tier_that_multiplies_needs_a_proficiency_bonus() -> None:
    data = reference("ember-roads")
    data["resolution"]["proficiencyTiers"][1]["multiplier"] = 1
    assert refusals(copy.deepcopy(data)) == [
        (
            "resolution.proficiencyTiers.1.multiplier",
            "tier 'trained' multiplies the proficiency bonus, but resolution.proficiency.bonus "
            "is not set: set it, or give the tier a flat bonus instead",
        )
    ]
    data["resolution"]["proficiency"] = {"bonus": {"const": 2}}
    assert load_ruleset(data).definition.resolution.proficiency is not None
