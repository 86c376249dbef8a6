"""The standard actions a ruleset lists (`combat.standard`): every party member's, each spending
the first budget (the Engine's convention: the first declared budget is the main one).

- `dodge`: until the dodger's own next turn, blows at them are thrown with disadvantage.
- `help`: an ally's next attack (before the end of that ally's next turn) is thrown with
  advantage; help goes to somebody else on one's own side who stands.
- `dash`, `disengage`, `hide`, `ready` and any other: the budget is spent and the receipt says
  so; a fight here has no board, no hiding and no reactions for them to change.

What a stance does to a roll is in `leans.py`; where the ruleset's rolls do not lean (no
`advantage` on its attack roll or pool) dodge and help change no number, and the receipt says so.
"""

from __future__ import annotations

from dataclasses import replace

from ...names import normalize_name
from ...reasons import Reason
from ...sheet.encounter import Combatant, Encounter
from ...state import StateReads
from ..outcome import Outcome
from .health import standing
from .leans import rolls_lean
from .rolls import Option


def take_standard(
    game: StateReads, fight: Encounter, actor: Combatant, option: Option, target: str | None
) -> tuple[Encounter, str] | Outcome:
    """The fight after `actor` takes the standard action `option` (its budget already spent),
    and what happened; or a refusal, changing nothing."""
    action = option.id.removeprefix("standard:")
    assert game.ruleset is not None and game.ruleset.definition.combat is not None
    leans = rolls_lean(game.ruleset.definition.combat)
    if action == "help":
        ally = _ally(game, fight, actor, target)
        if isinstance(ally, Outcome):
            return ally
        fight = fight.with_combatant(with_stance(ally, "helped"))
        said = "advantage on their next attack" if leans else "no roll here leans, so no number"
        return fight, f"{actor.name} helps {ally.name}: {said}"
    if action == "dodge":
        fight = fight.with_combatant(with_stance(actor, "dodge"))
        said = "blows at them have disadvantage until their next turn"
        return fight, f"{actor.name} dodges: " + (said if leans else "no roll here leans")
    return fight, f"{actor.name} takes {option.label}: no board or reaction here for it to change"


def with_stance(combatant: Combatant, stance: str) -> Combatant:
    if stance in combatant.stances:
        return combatant
    return replace(combatant, stances=(*combatant.stances, stance))


def without_stance(combatant: Combatant, stance: str) -> Combatant:
    if stance not in combatant.stances:
        return combatant
    return replace(combatant, stances=tuple(s for s in combatant.stances if s != stance))


def _ally(
    game: StateReads, fight: Encounter, actor: Combatant, target: str | None
) -> Combatant | Outcome:
    if target is None:
        return Outcome.refused(Reason.NO_SUCH_TARGET, "name the ally helped with target=")
    key = normalize_name(target)
    found = next(
        (c for c in fight.combatants if key in {normalize_name(c.name), normalize_name(c.id)}),
        None,
    )
    if found is None or found.side != actor.side or found.id == actor.id:
        return Outcome.refused(
            Reason.NO_SUCH_TARGET, f"help goes to an ally other than oneself, not {target!r}"
        )
    if not standing(game, found):
        return Outcome.refused(Reason.TARGET_DOWN, f"{found.name} is down")
    return found
