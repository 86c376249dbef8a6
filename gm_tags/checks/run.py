"""Rolling one check: the number from the sheet, the penalty, the adjustments, the dice, and the
record of what each part added. Pure: the dice come in, the record and the live state (a spend
on the check pays from a pool) go out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..dice import Dice
from ..ruleset.loader import Ruleset
from ..ruleset.resolution import DicePool, DiceSum
from ..sheet.character import Character, SheetView
from ..sheet.live import LiveState
from ..sheet.plan import plan_for
from ..text import clean
from .effects import effects_for, roll_mode, roll_modifiers, sources_for
from .entry_use import use_entry
from .pools import roll_pool
from .record import CheckRecord, CheckRequest
from .target import CheckTarget, find_ability, normalized, resolve_target


@dataclass(frozen=True)
class Untrained:
    """A check that is not rolled: the character cannot attempt it untrained. `code` is what an
    HTTP layer answers with (a 400)."""

    skill: str
    dc: int
    who: str | None
    character: str | None = None
    code: str = "skill_check_untrained"

    @property
    def tag(self) -> str:
        who = f' who="{clean(self.who)}"' if self.who else ""
        head = f'[skill_check: skill="{clean(self.skill)}" dc="{self.dc}"{who}'
        return head + ' reason="untrained"]'  # UT-5: the Engine's settled form, no result=

    @property
    def summary(self) -> str:
        name = clean(self.who or self.character or "The character", 80)
        return f"{name} could not attempt {clean(self.skill, 80)}: untrained, so it was not rolled"


@dataclass(frozen=True)
class Number:
    """The check's number from the sheet, and the abilities it rolls with (for adjust)."""

    value: int
    abilities: frozenset[str]
    harder: bool = False


def roll_check(
    ruleset: Ruleset,
    character: Character | None,
    live: LiveState,
    request: CheckRequest,
    dice: Dice,
) -> tuple[CheckRecord | Untrained, LiveState]:
    resolution = ruleset.definition.resolution
    target = resolve_target(ruleset, request.skill)
    skill = target.label or request.skill
    dc, difficulty, step_target = _difficulty(resolution, request)
    # A `who=` that names nobody is written back as written, beside `sheet="none"`.
    who = character.name if character is not None and request.who is not None else request.who
    view = character.view(ruleset, live) if character is not None else None
    number = _number(ruleset, target, character, view, request)
    if isinstance(number, str):
        return Untrained(skill, dc, who, character.name if character else None), live
    with_ability = find_ability(ruleset, request.with_)
    with_label = _with_label(target, with_ability, number)
    penalty = _penalty(ruleset, view)
    adjust = adjust_for(ruleset, view, character, number.abilities)
    effects = effects_for(sources_for(ruleset, character, live), target)
    leans = isinstance(resolution, DiceSum) and resolution.advantage
    changed_by = effects.applied(leans=leans)
    if effects.fails:
        return _failed_unrolled(resolution, skill, dc, difficulty, who, changed_by), live
    added = roll_modifiers(effects, dice)
    if isinstance(resolution, DiceSum):
        record = _sum(
            resolution,
            skill,
            dc,
            difficulty,
            number,
            penalty,
            adjust,
            who,
            with_label,
            target,
            dice,
            roll_mode(request.mode, effects),
            added,
        )
        record = replace(record, effects=added or None, from_=changed_by)
        if character is None and request.who is not None:
            record = replace(record, sheet="none")
        return record, live
    # On a pool a `who=` naming nobody never gets here (`names_nothing` refuses it).
    assert isinstance(resolution, DicePool)
    used = use_entry(ruleset, request, character, live)
    if used is not None:
        live, request = used.live, used.request
    record, live = roll_pool(
        ruleset,
        resolution,
        request,
        skill,
        dc,
        difficulty,
        step_target,
        number.value,
        number.harder,
        penalty,
        adjust,
        who,
        with_label,
        character,
        live,
        dice,
        effects=added,
        entry=(used.dice, used.successes, used.reroll) if used else (0, 0, None),
    )
    if used is not None:
        record = replace(record, use=used.label, spend=record.spend or used.spent)
    return replace(record, effects=added or None, from_=changed_by), live


def _failed_unrolled(
    resolution: Any,
    skill: str,
    dc: int,
    difficulty: str | None,
    who: str | None,
    changed_by: tuple[str, ...],
) -> CheckRecord:
    """A save something fails without a roll: no dice thrown, a failure (as the Engine writes
    it: `rolls="" dice="0d20" automatic="true"`)."""
    sides = resolution.dice.sides if isinstance(resolution, DiceSum) else resolution.die.sides
    return CheckRecord(
        skill=skill,
        dc=dc,
        rolls=(),
        used=0,
        modifier=0,
        total=0,
        result="failure",
        mode="normal",
        resolution="sum" if isinstance(resolution, DiceSum) else "successes",
        dice=f"0d{sides}",
        who=who,
        difficulty=difficulty,
        from_=changed_by,
        automatic=True,
    )


def _with_label(target: CheckTarget, with_ability: Any, number: Number) -> str | None:
    """`with=` as the record says it: only when it changed the check (a skill or save rolled with
    another ability, a second ability added to a pool's pair), never a claim of what did not
    happen."""
    if with_ability is None or with_ability.id not in number.abilities:
        return None
    own = target.entry.id if target.kind == "ability" else getattr(target.entry, "ability", None)
    return str(with_ability.label) if with_ability.id != own else None


def ladder_step(resolution: Any, label: str) -> Any:
    """The one ladder step `label` names, compared as the Engine compares names: without case,
    punctuation or runs of white space ("grim!" and "Plain  work" find Grim and Plain work)."""
    wanted = normalized(label)
    matches = [step for step in resolution.difficulty_ladder if normalized(step.label) == wanted]
    return matches[0] if len(matches) == 1 else None


def unknown_difficulty(resolution: Any, request: CheckRequest) -> str | None:
    """Why a check without a dc cannot be rolled: its `difficulty=` names no step of the ladder
    (rolling it against nothing would be an automatic success). None when it can."""
    if request.dc is not None or request.difficulty is None:
        return None
    if ladder_step(resolution, request.difficulty) is not None:
        return None
    labels = ", ".join(step.label for step in resolution.difficulty_ladder)
    return (
        f"difficulty={clean(request.difficulty, 40)!r} is not on the ladder; "
        f"write one of {labels}, or a dc"
    )


def names_nothing(
    ruleset: Ruleset,
    request: CheckRequest,
    found: Character | None,
    characters: Sequence[Character],
) -> tuple[str, str] | None:
    """On a dice-pool ruleset, why a check cannot be rolled because it names nothing: its
    `who=` matches no character, or its `skill=` no skill, save or ability (kebab-case code and
    detail). Either would throw no dice and fail, unexplained; on a sum the Engine rolls plain
    dice with no modifier, and so do we."""
    if not isinstance(ruleset.definition.resolution, DicePool):
        return None
    if request.who is not None and found is None:
        known = ", ".join(character.name for character in characters) or "none"
        return (
            "unknown-character",
            f"no character is named {request.who!r}; the characters: {known}",
        )
    if resolve_target(ruleset, request.skill).kind == "none":
        sheet = ruleset.definition.sheet
        offered = [
            str(entry.label)
            for group in (sheet.skills, sheet.saves, sheet.abilities)
            for entry in group
        ]
        shown = ", ".join(offered[:12]) + (", ..." if len(offered) > 12 else "")
        return "unknown-skill", f"no skill, save or ability is named {request.skill!r}: {shown}"
    return None


def _difficulty(resolution: Any, request: CheckRequest) -> tuple[int, str | None, int | None]:
    """The dc (a dc the model wrote wins over a ladder label), the label used, and on a pool the
    per-die target the ladder step sets. On a pool, as on the Engine, a bare dc is held between 1
    and the most successes one roll can count, and names the one step that asks for that many
    successes, taking its target (`dc="1"` on Gravewatch counts successes at 6, Plain work's;
    two steps asking as many name neither)."""
    step = None
    if request.difficulty is not None:
        step = ladder_step(resolution, request.difficulty)
    if request.dc is not None and isinstance(resolution, DicePool):
        dc = min(resolution.most_successes, max(1, request.dc))
        if step is not None:
            # Both written: the number wins, and the named step's target (or the default) applies.
            return dc, None, step.target
        named = [s for s in resolution.difficulty_ladder if s.successes == dc]
        return dc, None, named[0].target if len(named) == 1 else None
    if request.dc is not None or step is None:
        return max(0, request.dc or 0), None, None
    if isinstance(resolution, DiceSum):
        return step.dc, step.label, None
    return step.successes, step.label, step.target


def _number(
    ruleset: Ruleset,
    target: CheckTarget,
    character: Character | None,
    view: SheetView | None,
    request: CheckRequest,
) -> Number | str:
    """The check's number, or "untrained" when the character cannot attempt it."""
    plan = plan_for(ruleset)
    if target.kind == "none" or view is None or character is None:
        return Number(0, frozenset())
    with_ability = find_ability(ruleset, request.with_)
    if target.kind == "ability":
        ability = target.entry
        value = view[("abilityMod", ability.id)]
        abilities = {ability.id}
        pair = (
            isinstance(ruleset.definition.resolution, DicePool)
            and ruleset.definition.resolution.pool.ability_plus_ability
        )
        if with_ability is not None and pair and with_ability.id != ability.id:
            value += view[("abilityMod", with_ability.id)]
            abilities.add(with_ability.id)
        return Number(int(value), frozenset(abilities))
    part = "skills" if target.kind == "skill" else "saves"
    kind = "skillMod" if part == "skills" else "saveMod"
    entry = target.entry
    rule = plan.untrained(entry)
    _, untrained = plan.tier_of(part, entry.id, character.build)
    if untrained and character.has_sheet and rule == "refuse":
        return "untrained"
    value = view[(kind, entry.id)]
    ability = entry.ability
    if with_ability is not None and with_ability.id != entry.ability:
        raw = view[("checkRaw", part, entry.id)]
        own = view[("abilityMod", entry.ability)] if entry.ability else 0
        value = raw - own + view[("abilityMod", with_ability.id)]
        if entry.cap is not None:
            value = min(value, view.read(entry.cap))
        ability = with_ability.id
    harder = untrained and character.has_sheet and rule == "harder"
    return Number(int(value), frozenset({ability} if ability else ()), harder)


def _penalty(ruleset: Ruleset, view: SheetView | None) -> int:
    track = ruleset.definition.resolution.penalty_from
    if track is None or view is None:
        return 0
    return int(view[("liveTrack", track, "penalty")])


def adjust_for(
    ruleset: Ruleset, view: SheetView | None, character: Character | None, abilities: frozenset[str]
) -> int:
    """Every `resolution.adjust` entry that applies to a check rolling with `abilities`, added up.
    A character nobody made a sheet for gets nothing from it."""
    if view is None or character is None or not character.has_sheet:
        return 0
    total = 0
    for entry in ruleset.definition.resolution.adjust or ():
        if entry.abilities is None or abilities & set(entry.abilities):
            total += int(view.read(entry.value))
    return total


def _sum(
    resolution: DiceSum,
    skill: str,
    dc: int,
    difficulty: str | None,
    number: Number,
    penalty: int,
    adjust: int,
    who: str | None,
    with_label: str | None,
    target: CheckTarget,
    dice: Dice,
    leaned: str,
    added: int,
) -> CheckRecord:
    """`leaned` is the Game Master's mode= and the character's leans together; `added` what
    their conditions, levels and items add."""
    count, sides = resolution.dice.count, resolution.dice.sides
    mode = leaned if resolution.advantage else "normal"
    first = dice.roll(count, sides)
    rolls, kept = first, first
    if mode != "normal":
        second = dice.roll(count, sides)
        rolls = first + second
        better, worse = (first, second) if sum(first) >= sum(second) else (second, first)
        kept = better if mode == "advantage" else worse
    used = sum(kept)
    modifier = number.value + penalty + adjust + added
    total = used + modifier
    result = "success" if total >= dc else "failure"
    rule = resolution.naturals.save if target.kind == "save" else resolution.naturals.check
    if count == 1 and rule != "none":
        if kept[0] == sides and rule in ("both", "max-only"):
            result = "critical_success"
        elif kept[0] == 1 and rule in ("both", "min-only"):
            result = "critical_failure"
    return CheckRecord(
        skill=skill,
        dc=dc,
        rolls=tuple(rolls),
        used=used,
        modifier=modifier,
        total=total,
        result=result,  # type: ignore[arg-type]
        mode=mode,
        resolution="sum",
        dice=f"{len(rolls)}d{sides}",  # the dice thrown: both throws under (dis)advantage
        who=who,
        with_=with_label,
        penalty=penalty or None,
        difficulty=difficulty,
        adjust=adjust or None,
    )
