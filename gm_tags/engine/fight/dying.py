"""Dying, as the ruleset's `combat.dying` block describes it (the Engine's `kind: "saves"`).

A party member whose health reaches nothing is down; where the ruleset has a dying rule they are
dying too: the rule's condition goes on their sheet and both count tracks start at nothing. On
each of their turns the engine throws their death save (the rule's dice against `succeedAt`) and
passes the turn on: a success or a failure counts one on its track, the die's highest face may
bring them back with 1 health (`revive-1`), its lowest count two failures. A full successes
track leaves them stable (both tracks back to nothing, no more throws), a full failures track
dead. A blow landing on somebody down counts failures (`damageWhileDown`, `criticalWhileDown`)
and ends a stable spell, the count opening again with it. Healing brings them back: tracks
cleared, condition off. Without a dying rule somebody down is simply down and passed over.

The tracks and the condition are the sheet's, written through the sheet's own operations, so the
sheet shows the count as the fight keeps it.
"""

from __future__ import annotations

from dataclasses import replace

from ...commands.sheet import TrackCommand
from ...dice import Dice
from ...ruleset.combat import Dying
from ...sheet.character import Character, SheetView
from ...sheet.encounter import Combatant
from ...state import StateReads, draft_of
from ..sheet import run_sheet
from .health import mend


def rule_of(game: StateReads) -> Dying | None:
    ruleset = game.ruleset
    combat = ruleset.definition.combat if ruleset is not None else None
    return combat.dying if combat is not None else None


def fall(game: StateReads, combatant: Combatant) -> Combatant:
    """A party member just brought to nothing: dying where the ruleset has a dying rule."""
    rule = rule_of(game)
    if rule is None or combatant.side != "party" or combatant.fate is not None:
        return combatant
    _count(game, combatant, rule, 0, 0)
    _condition(game, combatant, rule, True)
    return replace(combatant, fate="dying")


def hurt_while_down(
    game: StateReads, combatant: Combatant, critical: bool
) -> tuple[Combatant, str]:
    """A blow that landed on somebody already down: the failures it counts (a stable spell
    ends and the count opens again with them)."""
    rule = rule_of(game)
    if rule is None or combatant.fate not in ("dying", "stable"):
        return combatant, ""
    counted = rule.critical_while_down if critical else rule.damage_while_down
    failures = {"one-failure": 1, "two-failures": 2}.get(counted, 0)
    if not failures:
        return combatant, ""
    successes, failed = (0, 0) if combatant.fate == "stable" else _counts(game, combatant, rule)
    return _counted(game, replace(combatant, fate="dying"), rule, successes, failed + failures)


def death_save(game: StateReads, combatant: Combatant, dice: Dice) -> tuple[Combatant, str]:
    """A dying party member's turn: their death save, and what it leaves them."""
    rule = rule_of(game)
    assert rule is not None and combatant.fate == "dying"
    faces = dice.roll(rule.dice.count, rule.dice.sides)
    thrown = f"{combatant.name} death save ({' '.join(map(str, faces))}) vs {rule.succeed_at}"
    single = rule.dice.count == 1
    if single and faces[0] == rule.dice.sides and rule.naturals.max == "revive-1":
        back = revive(game, combatant)
        healed = mend(game, back, 1)
        return healed.combatant, f"{thrown}: back with 1 ({healed.now})"
    successes, failures = _counts(game, combatant, rule)
    if single and faces[0] == 1 and rule.naturals.min == "two-failures":
        failures += 2
    elif sum(faces) >= rule.succeed_at or (
        single and faces[0] == rule.dice.sides and rule.naturals.max == "success"
    ):
        successes += 1
    else:
        failures += 1
    changed, said = _counted(game, combatant, rule, successes, failures)
    return changed, f"{thrown}: {said}"


def revive(game: StateReads, combatant: Combatant) -> Combatant:
    """Somebody down brought back: both tracks cleared and the rule's condition off."""
    rule = rule_of(game)
    if rule is None or combatant.side != "party" or combatant.fate is None:
        return replace(combatant, down=False)
    _count(game, combatant, rule, 0, 0)
    _condition(game, combatant, rule, False)
    return replace(combatant, fate=None, down=False)


def _counted(
    game: StateReads, combatant: Combatant, rule: Dying, successes: int, failures: int
) -> tuple[Combatant, str]:
    most_successes, most_failures = _most(game, combatant, rule)
    if failures >= most_failures:
        _count(game, combatant, rule, 0, most_failures)
        return replace(combatant, fate="dead"), "dead"
    if successes >= most_successes:
        _count(game, combatant, rule, 0, 0)
        return replace(combatant, fate="stable"), "stable"
    _count(game, combatant, rule, successes, failures)
    return combatant, f"successes {successes}/{most_successes}, failures {failures}/{most_failures}"


def _counts(game: StateReads, combatant: Combatant, rule: Dying) -> tuple[int, int]:
    view = _view(game, combatant)
    return (
        int(view[("liveTrack", rule.successes, "value")]),
        int(view[("liveTrack", rule.failures, "value")]),
    )


def _most(game: StateReads, combatant: Combatant, rule: Dying) -> tuple[int, int]:
    """How many of each the tracks hold (their maximum on this sheet)."""
    view = _view(game, combatant)
    return (
        max(1, int(view[("trackMax", rule.successes)])),
        max(1, int(view[("trackMax", rule.failures)])),
    )


def _count(
    game: StateReads, combatant: Combatant, rule: Dying, successes: int, failures: int
) -> None:
    who = _character(game, combatant).name
    for track, value in ((rule.successes, successes), (rule.failures, failures)):
        run_sheet(TrackCommand(who, "track", (), track=track, to=value, by=None), draft_of(game))


def _condition(game: StateReads, combatant: Combatant, rule: Dying, on: bool) -> None:
    if rule.condition is None:
        return
    character = _character(game, combatant)
    draft_of(game).set_live(
        character.key, game.live_of(character).with_condition(rule.condition, on)
    )


def _view(game: StateReads, combatant: Combatant) -> SheetView:
    ruleset = game.ruleset
    assert ruleset is not None
    character = _character(game, combatant)
    return character.view(ruleset, game.live_of(character))


def _character(game: StateReads, combatant: Combatant) -> Character:
    return next(c for c in game.characters if c.key == combatant.id)
