"""Catalog abilities in a fight: a row of a list `combat.abilities` names that carries its catalog
entry's mark, where the entry has `mechanics`. Each is priced by a dry run of the sheet's own use
(`engine/entries.py`): one the sheet could not pay for is not on the options. Using one pays its
cost through that same code, then strikes (`kind: "attack"`, rolled with the list's `toHit`) or
heals (`kind: "heal"`); other kinds are listed and refused `unsupported`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from ...dice import Dice
from ...ruleset.catalogs import CATALOG_MARK
from ...ruleset.checks_combat import parse_dice
from ...ruleset.combat import AbilitySource
from ...ruleset.loader import Ruleset
from ...ruleset.mechanics import Amount
from ...sheet.build import list_rows
from ...sheet.character import Character, SheetView
from ...sheet.encounter import Combatant
from ...state import StateReads, draft_of
from ..entries import Owned, Paid, owned_entries, pay
from ..outcome import Outcome
from .rolls import Option, SaveAsk, Strike, abilities_of, adjust, modifiers, penalty
from .saves import saving_throw

RUN = ("attack", "heal", "debuff", "buff", "utility")


@dataclass(frozen=True)
class Use:
    """What a used ability paid: as a receipt says it (`Resolve 3/4`), and each pool's amount."""

    paid: str
    pools: tuple[tuple[str, int], ...] = ()


def ability_options(
    ruleset: Ruleset,
    character: Character,
    view: SheetView,
    left: Callable[[str | None], bool],
    spent: Mapping[str, int],
) -> list[Option]:
    combat = ruleset.definition.combat
    assert combat is not None
    owned = {o.mark: o for o in owned_entries(ruleset, character)}
    found: list[Option] = []
    for position, source in enumerate(combat.abilities or ()):
        sheet_list = ruleset.index.lists.get(source.list_)
        if sheet_list is None:
            continue
        for row_at, row in enumerate(list_rows(sheet_list, character.build)):
            entry = owned.get(str(row.get(CATALOG_MARK)))
            mechanics = entry.entry.mechanics if entry is not None else None
            if entry is None or mechanics is None or mechanics.reaction:
                continue
            if isinstance(pay(ruleset, character, view.live, entry), Outcome):
                continue  # the sheet could not pay for it: not an option
            if _over_limit(ruleset, view, entry, spent):
                continue
            budget = mechanics.budget or source.budget
            found.append(
                Option(
                    f"ability:{position}:{row_at}",
                    entry.names[0] if entry.names else entry.label,
                    "ability",
                    budget,
                    left(budget),
                    _strike(ruleset, view, source, entry),
                    entry,
                    targets=_most_targets(entry),
                )
            )
    return found


def _most_targets(owned: Owned) -> int:
    """How many targets one use may name (`targetCount`; an area without one: up to six)."""
    mechanics = owned.entry.mechanics
    assert mechanics is not None
    if mechanics.target_count is not None:
        return mechanics.target_count
    return 6 if mechanics.area is not None else 1


def spend_key(pool: str) -> str:
    """How a pool's spending this turn (or round, or fight) is kept beside the budgets."""
    return f"pool:{pool}"


def _over_limit(ruleset: Ruleset, view: SheetView, owned: Owned, spent: Mapping[str, int]) -> bool:
    """Whether paying for `owned` would pass a `combat.spendLimits` entry (Gravewatch's one point
    of Resolve a turn)."""
    combat = ruleset.definition.combat
    mechanics = owned.entry.mechanics
    if combat is None or mechanics is None:
        return False
    limits = {limit.pool: limit for limit in combat.spend_limits or ()}
    for term in mechanics.cost or ():
        limit = limits.get(term.pool)
        if limit is not None:
            most = int(view.read(limit.max))
            if spent.get(spend_key(term.pool), 0) + term.amount > most:
                return True
    return False


def _strike(
    ruleset: Ruleset, view: SheetView, source: AbilitySource, owned: Owned
) -> Strike | None:
    mechanics = owned.entry.mechanics
    assert mechanics is not None
    if mechanics.kind != "attack" or mechanics.amount is None:
        return None
    dice = parse_dice(mechanics.amount.dice) if mechanics.amount.dice else (0, 0, 0)
    if dice is None:
        return None
    asks = None
    if mechanics.save is not None:
        if source.save_difficulty is None:
            return None  # a save against nothing is not run
        difficulty = int(view.read(source.save_difficulty))
        asks = SaveAsk(mechanics.save.save, difficulty, mechanics.save.on_success)
    ref = source.to_hit
    to_hit = int(view.read(ref)) if ref is not None else 0
    rolls_with = abilities_of(ruleset, ref.kind, ref.target) if ref is not None else set()
    to_hit += (
        penalty(ruleset, view)
        + adjust(ruleset, view, rolls_with)
        + modifiers(ruleset, view, "attacks")
    )
    flat = dice[2] + (mechanics.amount.flat or 0)
    auto = bool(mechanics.auto_hit) or not mechanics.attack_roll
    applies = tuple((a.condition, a.rounds) for a in mechanics.applies or ())
    against = int(view.read(source.save_difficulty)) if source.save_difficulty else 0
    ends_on = tuple(
        (a.condition, a.save_ends.save, a.save_ends.at, against)
        for a in mechanics.applies or ()
        if a.save_ends is not None
    )
    strike = Strike(to_hit, (dice[0], dice[1], 0), flat, mechanics.damage_type, auto, applies, asks)
    shared = mechanics.area is not None or asks is not None or auto
    return replace(strike, ends_on=ends_on, shared=shared)


def runs(option: Option) -> bool:
    """Whether using this ability is something a fight here does (else `unsupported`)."""
    owned = option.owned
    mechanics = owned.entry.mechanics if owned is not None else None
    if mechanics is None or mechanics.kind not in RUN:
        return False
    if mechanics.kind == "debuff":
        return bool(mechanics.applies)
    if mechanics.kind in ("buff", "utility"):
        return bool(mechanics.applies or mechanics.temporary or mechanics.gives)
    return mechanics.kind == "heal" or option.strike is not None


def heal_amount(option: Option, roll: Callable[[int, int], list[int]]) -> int:
    owned = option.owned
    assert owned is not None and owned.entry.mechanics is not None
    amount = owned.entry.mechanics.amount
    return 1 if amount is None else rolled(amount, roll)


def rolled(amount: Amount, roll: Callable[[int, int], list[int]]) -> int:
    """An amount thrown: its dice (if any) plus its flat part, at least 1."""
    dice = parse_dice(amount.dice) if amount.dice else (0, 0, 0)
    thrown = sum(roll(dice[0], dice[1])) if dice and dice[0] else 0
    return max(1, thrown + (dice[2] if dice else 0) + (amount.flat or 0))


def use(game: StateReads, character: Character, option: Option) -> Use | Outcome:
    """The ability's cost paid off the character's sheet, through the sheet's own use."""
    ruleset = game.ruleset
    assert ruleset is not None and option.owned is not None
    paid = pay(ruleset, character, game.live_of(character), option.owned)
    if isinstance(paid, Outcome):
        return paid
    live, pools = paid
    draft_of(game).set_live(character.key, live)
    return Use(", ".join(_paid(p) for p in pools), tuple((p.pool.key, p.amount) for p in pools))


def _paid(paid: Paid) -> str:
    return paid.now


def afflict(
    game: StateReads,
    actor: Combatant,
    target: Combatant,
    option: Option,
    dice: Dice,
    round_: int,
) -> tuple[Combatant, str]:
    """A debuff: the target's save against the list's `saveDifficulty` (`saves.py`), and on a
    failed one (or none asked) the conditions it `applies`, each for its rounds; a save that
    holds keeps them all off, whatever its `onSuccess`. The target as it now stands, and what
    happened."""
    ruleset = game.ruleset
    assert ruleset is not None and option.owned is not None
    mechanics = option.owned.entry.mechanics
    assert mechanics is not None
    head = f"{actor.name} {option.label} at {target.name}"
    save = mechanics.save
    if save is not None:
        thrown = saving_throw(game, target, save.save, _difficulty(game, actor, option), dice)
        head += f": {thrown.words}"
        if thrown.held:
            return target, head
    applied = []
    for entry in mechanics.applies or ():
        condition = entry.condition
        if condition not in ruleset.index.conditions:
            continue
        ends = entry.save_ends
        until = (ends.save, ends.at, _difficulty(game, actor, option)) if ends else None
        target = put_on(game, target, condition, entry.rounds, round_, until)
        applied.append(ruleset.index.conditions[condition].label)
    return target, head + (f"; {', '.join(applied)}" if applied else "")


def put_on(
    game: StateReads,
    target: Combatant,
    condition: str,
    rounds: int | None,
    round_: int,
    ends: tuple[str, str, int] | None = None,
) -> Combatant:
    """`condition` onto `target` (an opponent's own list, a party member's sheet), for `rounds`
    when it says (off as the holder's turn begins that many rounds on), and until a save when
    `ends` says which (save, when, against what)."""
    timed = dict(target.timed)
    if rounds is not None:
        timed[condition] = max(timed.get(condition, 0), round_ + rounds)
    if ends is not None:
        target = replace(target, ends_on=MappingProxyType({**target.ends_on, condition: ends}))
    if target.side == "enemy":
        held = (
            target.conditions if condition in target.conditions else (*target.conditions, condition)
        )
        return replace(target, conditions=held, timed=MappingProxyType(timed))
    character = next(c for c in game.characters if c.key == target.id)
    draft_of(game).set_live(character.key, game.live_of(character).with_condition(condition, True))
    return replace(target, timed=MappingProxyType(timed))


def take_off(game: StateReads, member: Combatant, condition: str) -> Combatant:
    """`condition` off `member` (an opponent's own list, a party member's sheet), and its
    rounds with it."""
    timed = MappingProxyType({c: r for c, r in member.timed.items() if c != condition})
    ends_on = {c: e for c, e in member.ends_on.items() if c != condition}
    member = replace(member, ends_on=MappingProxyType(ends_on))
    if member.side == "enemy":
        kept = tuple(c for c in member.conditions if c != condition)
        return replace(member, conditions=kept, timed=timed)
    character = next(c for c in game.characters if c.key == member.id)
    draft_of(game).set_live(character.key, game.live_of(character).with_condition(condition, False))
    return replace(member, timed=timed)


def _difficulty(game: StateReads, actor: Combatant, option: Option) -> int:
    ruleset = game.ruleset
    assert ruleset is not None and ruleset.definition.combat is not None
    position = int(option.id.split(":")[1])
    source = (ruleset.definition.combat.abilities or [])[position]
    if source.save_difficulty is None:
        return 0
    character = next(c for c in game.characters if c.key == actor.id)
    return int(character.view(ruleset, game.live_of(character)).read(source.save_difficulty))
