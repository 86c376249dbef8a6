"""Rolling a check on a dice pool: the pool from the sheet, the per-die target, doubles, explosions,
cancels, botches, exceptional results, named rerolls, situational dice and spending a pool."""

from __future__ import annotations

from typing import Any

from ..dice import Dice
from ..engine.outcome import Outcome
from ..engine.pools import find_pool, pools_of
from ..ruleset.loader import Ruleset
from ..ruleset.resolution import DicePool, FaceRule, Reroll
from ..sheet.character import Character
from ..sheet.live import LiveState
from .record import CheckRecord, CheckRequest

MAX_EXTRA_DICE = 100  # explosions stop somewhere, however the dice fall
MAX_REROLLS = 20


def roll_pool(
    ruleset: Ruleset,
    resolution: DicePool,
    request: CheckRequest,
    skill: str,
    dc: int,
    difficulty: str | None,
    step_target: int | None,
    number: int,
    harder: bool,
    penalty: int,
    adjust: int,
    who: str | None,
    with_label: str | None,
    character: Character | None,
    live: LiveState,
    dice: Dice,
) -> tuple[CheckRecord, LiveState]:
    sides = resolution.die.sides
    target = _target(resolution, request, step_target, harder)
    bonus = _clamped_bonus(resolution, request.bonus)
    spent, auto, bought_dice, bought_rerolls, live = _spend(
        ruleset, resolution, request, character, live
    )
    size = number + (bonus or 0) + penalty + adjust + bought_dice
    size = min(max(size, resolution.pool.min), resolution.pool.max)
    explode_from = _face(resolution.explode, request.explode, sides)
    double_from = _face(resolution.double, request.double, sides)
    faces = dice.roll(size, sides) if size > 0 else []
    rerolled = 0
    # A re-throw is named as every other name is: in any case, white space around it ignored.
    wanted = (request.reroll or "").strip().casefold()
    named = next((r for r in resolution.reroll or () if r.id.casefold() == wanted), None)
    if named is not None:
        rerolled += _reroll(faces, named, dice, sides, limit=len(faces))
    for rule, units in bought_rerolls:
        rerolled += _reroll(faces, rule, dice, sides, limit=units)
    first_thrown = list(faces)  # after re-throws, before explosions: what a botch looks at
    if explode_from is not None:
        extra = [face for face in faces if face >= explode_from]
        added = 0
        while extra and added < MAX_EXTRA_DICE:
            thrown = dice.roll(len(extra), sides)
            faces += thrown
            added += len(thrown)
            extra = [face for face in thrown if face >= explode_from]
    successes = sum(
        2 if double_from is not None and face >= double_from else 1
        for face in faces
        if face >= target
    )
    raw = successes
    if resolution.cancel is not None:
        successes = max(0, successes - sum(1 for face in faces if face <= resolution.cancel.up_to))
    total = successes + auto
    botch = _botch(resolution, faces, first_thrown, raw)
    result = "success" if total >= dc and botch != "critical" else "failure"
    if result == "success" and resolution.exceptional and total >= resolution.exceptional.successes:
        result = "critical_success"
    if botch == "critical":
        result = "critical_failure"
    record = CheckRecord(
        skill=skill,
        dc=dc,
        rolls=tuple(faces),
        used=successes,
        modifier=auto,
        total=total,
        result=result,  # type: ignore[arg-type]
        mode="normal",
        resolution="successes",
        dice=f"{len(faces)}d{sides}",  # every die thrown, explosions included
        threshold=target,
        pool=size,
        who=who,
        with_=with_label,
        bonus=bonus,
        spend=spent,
        auto=auto or None,
        rerolled=rerolled or None,
        penalty=penalty or None,
        difficulty=difficulty,
        explode=explode_from if request.explode is not None else None,
        double=double_from if request.double is not None else None,
        adjust=adjust or None,
        reroll=named.id if named is not None else None,
        complication=botch == "complication",
    )
    return record, live


def _target(resolution: DicePool, request: CheckRequest, step: int | None, harder: bool) -> int:
    rule = resolution.target
    target = step if step is not None else rule.default
    if request.threshold is not None:
        target = request.threshold
    target = min(max(target, rule.min), rule.max)
    return min(target + 1, rule.max) if harder else target


def _clamped_bonus(resolution: DicePool, bonus: int | None) -> int | None:
    rule = resolution.situational_dice
    if bonus is None or rule is None:
        return None
    return min(max(bonus, rule.min), rule.max)


def _face(rule: FaceRule | None, asked: int | None, sides: int) -> int | None:
    """Where doubling or exploding starts: the rule's `from`, or the face the Game Master names,
    held between the rule's `min` and the die's highest face."""
    if rule is None:
        return None
    if asked is None:
        return rule.from_
    lowest = rule.min if rule.min is not None else rule.from_
    return min(max(asked, lowest or sides), sides)


def _reroll(faces: list[int], rule: Reroll, dice: Dice, sides: int, limit: int) -> int:
    count = 0
    for at, face in enumerate(faces):
        if count >= limit:
            break
        if face > rule.up_to:
            continue
        count += 1
        new = dice.roll(1, sides)[0]
        tries = 1
        while rule.mode == "until" and new <= rule.up_to and tries < MAX_REROLLS:
            new = dice.roll(1, sides)[0]
            tries += 1
        faces[at] = new
    return count


def _botch(resolution: DicePool, faces: list[int], first_thrown: list[int], raw: int) -> str | None:
    """ "critical" (a critical failure), "complication" or None, as the Engine reads a botch:
    `noSuccesses` needs zero raw successes (a success a one cancelled is a plain failure) and a
    low face; `halfOrMore` needs low faces on at least half the first-thrown dice, and is a
    critical failure with zero raw successes, else a complication beside the result."""
    rule = resolution.botch
    if rule is None or not faces:
        return None
    if rule.rule == "halfOrMore":
        low = sum(1 for face in first_thrown if face <= rule.up_to)
        if not first_thrown or low * 2 < len(first_thrown):
            return None
        return "critical" if raw == 0 else "complication"
    if raw == 0 and any(face <= rule.up_to for face in faces):
        return "critical"
    return None


def _spend(
    ruleset: Ruleset,
    resolution: DicePool,
    request: CheckRequest,
    character: Character | None,
    live: LiveState,
) -> tuple[str | None, int, int, list[tuple[Reroll, int]], LiveState]:
    """Paying a pool on the check (`spend="resolve:2"`): all or nothing, whole purchases only,
    clamped to the rule's limit per check. Returns what was paid, the successes and dice bought,
    the rerolls bought, and the live state after paying."""
    nothing: tuple[str | None, int, int, list[tuple[Reroll, int]], LiveState] = (
        None,
        0,
        0,
        [],
        live,
    )
    if request.spend is None or character is None or ":" not in request.spend:
        return nothing
    pool_id, _, amount_text = request.spend.partition(":")
    try:
        asked = int(amount_text.strip())
    except ValueError:
        return nothing
    rule = next((s for s in resolution.spend or () if s.pool == pool_id.strip()), None)
    if rule is None or asked <= 0 or asked % rule.amount:
        return nothing
    slot = find_pool(pools_of(ruleset, character), rule.pool)
    if isinstance(slot, Outcome):
        return nothing
    value, temp = slot.now(live)
    units = asked // rule.amount
    limit = _per_check(rule.per_check, character, ruleset, live, value // rule.amount)
    units = min(units, limit)
    cost = units * rule.amount
    if units <= 0 or value < cost:
        return nothing
    live = live.with_pool(slot.key, value - cost, temp, slot.default)
    rerolls = [(rule.reroll, units)] if rule.reroll is not None else []
    return (
        f"{rule.pool}:{cost}",
        units * (rule.successes or 0),
        units * (rule.dice or 0),
        rerolls,
        live,
    )


def _per_check(
    per_check: Any, character: Character, ruleset: Ruleset, live: LiveState, whole: int
) -> int:
    if per_check == "pool":
        return whole
    if isinstance(per_check, int):
        return per_check
    return int(character.view(ruleset, live).read(per_check))
