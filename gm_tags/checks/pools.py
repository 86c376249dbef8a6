"""Rolling a check on a dice pool: the pool from the sheet, the per-die target, doubles, explosions,
cancels, botches, exceptional results, named rerolls, situational dice and spending a pool."""

from __future__ import annotations

import math
from typing import Any

from ..dice import Dice
from ..engine.outcome import Outcome
from ..engine.pools import find_pool, pools_of
from ..ruleset.loader import Ruleset
from ..ruleset.resolution import DicePool, FaceRule, Reroll, Spend
from ..sheet.character import Character
from ..sheet.live import LiveState
from .record import CheckRecord, CheckRequest

# The Engine's ceilings: explosions add at most this many dice (and never more than the pool's
# max), and one check throws again at most this many times, however the dice fall.
MAX_EXTRA_DICE = 100
MAX_RETHROWS = 100


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
    *,
    effects: int = 0,
    entry: tuple[int, int, Reroll | None] = (0, 0, None),
) -> tuple[CheckRecord, LiveState]:
    """`effects` is the dice what the character holds or suffers adds (or takes away); `entry`
    the dice, successes and re-throw an entry used on the check bought (already paid for)."""
    sides = resolution.die.sides
    target = _target(resolution, request, step_target, harder)
    bonus = _clamped_bonus(resolution, request.bonus)
    spent, auto, bought_dice, bought_reroll, live = _spend(
        ruleset, resolution, request, character, live, number
    )
    auto, bought_dice = auto + entry[1], bought_dice + entry[0]
    bought_reroll = _wider(bought_reroll, entry[2])
    size = number + (bonus or 0) + penalty + adjust + effects + bought_dice
    size = min(max(size, resolution.pool.min), resolution.pool.max)
    explode_from = _face(resolution.explode, request.explode, sides)
    double_from = _face(resolution.double, request.double, sides)
    faces = dice.roll(size, sides) if size > 0 else []
    # A re-throw is named as every other name is: in any case, white space around it ignored.
    wanted = (request.reroll or "").strip().casefold()
    named = next((r for r in resolution.reroll or () if r.id.casefold() == wanted), None)
    # One re-throw per check: of a bought one and a named one, the wider.
    rethrow = _wider(bought_reroll, named)
    rerolled = _rethrow(faces, rethrow, dice, sides) if rethrow is not None else 0
    first_thrown = list(faces)  # after re-throws, before explosions: what a botch looks at
    if explode_from is not None:
        # Chained: a die an explosion adds is itself read, in the order the dice fell.
        cap, at = min(resolution.pool.max, MAX_EXTRA_DICE), 0
        while at < len(faces) and len(faces) - len(first_thrown) < cap:
            if faces[at] >= explode_from:
                faces.append(dice.roll(1, sides)[0])
            at += 1
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
        # On a pool the sheet's number bought the dice: the record's used and total are both the
        # net successes, bought ones included, and nothing is a modifier (as the Engine writes it).
        used=total,
        modifier=0,
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
        explode=_moved(resolution.explode, request.explode, explode_from),
        double=_moved(resolution.double, request.double, double_from),
        adjust=adjust or None,
        reroll=named.id if named is not None and rethrow is named and rerolled else None,
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


def _moved(rule: FaceRule | None, asked: int | None, face: int | None) -> int | None:
    """The face a record says `explode=`/`double=` moved the rule to: only when the check asked,
    the rule can move (`min`) and the face is not the file's own; a record never claims what
    did not happen."""
    if asked is None or rule is None or rule.min is None or face == rule.from_:
        return None
    return face


def _wider(bought: Reroll | None, named: Reroll | None) -> Reroll | None:
    """The re-throw a check throws when a bought one and a named one both apply: the one that
    reaches more faces, and at equal reach `until` over `once` (the bought one when they tie)."""
    if bought is None or named is None:
        return bought or named
    if bought.up_to != named.up_to:
        return bought if bought.up_to > named.up_to else named
    return named if named.mode == "until" and bought.mode != "until" else bought


def _rethrow(faces: list[int], rule: Reroll, dice: Dice, sides: int) -> int:
    """Every die within the rule's reach thrown again (`until`: until it is out of reach), in
    place; returns how many throws that took, at most `MAX_RETHROWS` for the whole check."""
    thrown = 0
    if not 1 <= rule.up_to < sides:
        return 0
    for at in range(len(faces)):
        if thrown >= MAX_RETHROWS:
            break
        if faces[at] > rule.up_to:
            continue
        faces[at] = dice.roll(1, sides)[0]
        thrown += 1
        while rule.mode == "until" and faces[at] <= rule.up_to and thrown < MAX_RETHROWS:
            faces[at] = dice.roll(1, sides)[0]
            thrown += 1
    return thrown


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
    number: int,
) -> tuple[str | None, int, int, Reroll | None, LiveState]:
    """Paying a pool on the check (`spend="resolve:2"`, the pool by id or label): all or nothing,
    whole purchases only, clamped to the rule's limit per check (`"pool"`: the check's own
    `number` of dice). Returns what was paid, the successes and dice bought, the re-throw bought
    (once, however many purchases), and the live state after paying."""
    nothing: tuple[str | None, int, int, Reroll | None, LiveState] = (None, 0, 0, None, live)
    if request.spend is None or character is None or ":" not in request.spend:
        return nothing
    named, _, amount_text = request.spend.partition(":")
    try:
        asked = int(amount_text.strip())
    except ValueError:
        return nothing
    rule = _spend_rule(ruleset, resolution, named.strip().casefold())
    if rule is None or asked <= 0 or asked % rule.amount:
        return nothing
    slot = find_pool(pools_of(ruleset, character), rule.pool)
    if isinstance(slot, Outcome):
        return nothing
    value, temp = slot.now(live)
    units = min(asked // rule.amount, _per_check(rule.per_check, character, ruleset, live, number))
    cost = units * rule.amount
    if units <= 0 or value < cost:
        return nothing
    live = live.with_pool(slot.key, value - cost, temp, slot.default)
    return (
        f"{rule.pool}:{cost}",
        units * (rule.successes or 0),
        units * (rule.dice or 0),
        rule.reroll,
        live,
    )


def _spend_rule(ruleset: Ruleset, resolution: DicePool, wanted: str) -> Spend | None:
    for rule in resolution.spend or ():
        pool = ruleset.index.pools.get(rule.pool)
        label = pool.label.strip().casefold() if pool is not None else None
        if rule.pool.casefold() == wanted or label == wanted:
            return rule
    return None


def _per_check(
    per_check: Any, character: Character, ruleset: Ruleset, live: LiveState, number: int
) -> int:
    """How many purchases one check may make: the rule's number, the check's own dice, or a value
    off the roller's sheet; whole, never below none nor above the most dice a pool holds."""
    if isinstance(per_check, int):
        return per_check
    limit = number if per_check == "pool" else character.view(ruleset, live).read(per_check)
    if not math.isfinite(limit):
        return 0
    return max(0, min(MAX_EXTRA_DICE, math.floor(limit)))
