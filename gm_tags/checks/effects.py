"""What changes one character's check outside a fight (Capability API 1.53): their active
conditions (`combat.conditions[]`), the levels their tracks or derived values have reached
(`combat.levels[]`, named "Exhaustion 2") and what their items do while worn or only carried.

A check reads the check leans and the modifiers `to: "checks"`; a save the save leans, the
modifiers `to: "saves"` and `failsSaves`. A modifier narrowed by its own `skills`/`saves` (else its
source's) changes only what it names; a check the ruleset cannot name reads only what is narrowed
to nothing, and an ability check is no skill. Numbers add up (dice thrown, `minus` taking them
away); any advantage and any disadvantage cancel, the Game Master's `mode=` counting as one more.
One item's effect counts once, however many stacks of it a character holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..dice import Dice
from ..ruleset.effects import CHECK_LEANS, SAVE_LEANS, EffectSource, ItemEffect, Modifier
from ..ruleset.loader import Ruleset
from ..sheet.character import Character, SheetView
from ..sheet.item_book import book_for
from ..sheet.live import LiveState
from .target import CheckTarget


@dataclass(frozen=True)
class Source:
    """One thing that changes checks, by the name a record calls it."""

    name: str
    parts: EffectSource


@dataclass(frozen=True)
class HeldEffect:
    """An item a character holds, as the check reads it: what a record calls it (the stack's
    name), which item it is (two stacks of one item share `item`), and its effects."""

    name: str
    item: str
    worn: bool
    while_worn: ItemEffect | None = None
    while_carried: ItemEffect | None = None


@dataclass(frozen=True)
class Effects:
    """What the sources do to one check or save, each part by the name of what does it."""

    modifiers: tuple[tuple[str, Modifier], ...] = ()
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    fails: tuple[str, ...] = ()
    # Every source's name, in the order the sources come (what a record lists them in).
    order: tuple[str, ...] = field(default=())

    def applied(self, *, leans: bool) -> tuple[str, ...]:
        """The sources that changed this check; a lean only where the roll can lean."""
        found = set(self.fails) | {name for name, _ in self.modifiers}
        if leans:
            found |= set(self.advantage) | set(self.disadvantage)
        return tuple(dict.fromkeys(name for name in self.order if name in found))


def held_effects(ruleset: Ruleset, character: Character) -> tuple[HeldEffect, ...]:
    """Each of the ruleset's items a character holds in the game's inventory, with its worn and
    carried effects (`sheet.item_book`)."""
    book = book_for(ruleset)
    if book is None:
        return ()
    found = []
    for held in character.held:
        book_item = book.by_id.get(held.item) if held.item is not None else None
        if book_item is not None:
            found.append(
                HeldEffect(
                    held.name,
                    book_item.id,
                    held.worn,
                    book_item.while_worn,
                    book_item.while_carried,
                )
            )
    return tuple(found)


def check_sources(
    ruleset: Ruleset,
    view: SheetView,
    live: LiveState,
    held: Iterable[HeldEffect] = (),
) -> list[Source]:
    """Active conditions in the order `combat.conditions` maps them, then reached levels in the
    order `combat.levels` gives them, then items."""
    definition = ruleset.definition
    combat, index = definition.combat, ruleset.index
    sources: list[Source] = []
    if combat is not None:
        active = set(live.conditions)
        for condition in combat.conditions or ():
            if condition.condition in active and condition.condition in index.conditions:
                sources.append(Source(index.conditions[condition.condition].label, condition))
        for level in combat.levels or ():
            if level.derived is not None:
                value = view[("derived", level.derived)]
                label = index.derived[level.derived].label
            else:
                value = view[("liveTrack", level.reads, "value")]
                label = index.tracks[level.reads].label
            if value >= level.at:
                sources.append(Source(f"{label} {level.at}", level))
    return sources + item_sources(held)


def item_sources(held: Iterable[HeldEffect]) -> list[Source]:
    """A worn item's `worn` effect and any other's `carried` one, each item's once."""
    sources: list[Source] = []
    seen: set[tuple[str, bool]] = set()
    for item in held:
        effect = item.while_worn if item.worn else item.while_carried
        if effect is None or (item.item, item.worn) in seen:
            continue
        seen.add((item.item, item.worn))
        sources.append(Source(item.name, effect))
    return sources


def _about(narrowed: Sequence[str] | None, entry_id: str | None) -> bool:
    return narrowed is None or (entry_id is not None and entry_id in narrowed)


def effects_for(sources: Iterable[Source], target: CheckTarget) -> Effects:
    modifiers: list[tuple[str, Modifier]] = []
    leans: dict[str, list[str]] = {"advantage": [], "disadvantage": []}
    fails: list[str] = []
    sources = list(sources)
    save = target.entry.id if target.kind == "save" else None
    skill = target.entry.id if target.kind == "skill" else None

    def lean(side: str, name: str) -> None:
        if name not in leans[side]:
            leans[side].append(name)

    for source in sources:
        parts, name = source.parts, source.name
        if save is not None:
            if save in (parts.fails_saves or ()) and name not in fails:
                fails.append(name)
            if _about(parts.saves, save):
                for effect, side in zip(SAVE_LEANS, ("advantage", "disadvantage"), strict=True):
                    if effect in parts.effects:
                        lean(side, name)
        elif _about(parts.skills, skill):
            for effect, side in zip(CHECK_LEANS, ("advantage", "disadvantage"), strict=True):
                if effect in parts.effects:
                    lean(side, name)
        for modifier in parts.modifiers or ():
            if save is not None:
                applies = modifier.to == "saves" and _about(modifier.saves or parts.saves, save)
            else:
                applies = modifier.to == "checks" and _about(modifier.skills or parts.skills, skill)
            if not applies:
                continue
            if modifier.mode is not None:
                lean(modifier.mode, name)
            if modifier.flat is not None or modifier.dice is not None:
                modifiers.append((name, modifier))
    return Effects(
        tuple(modifiers),
        tuple(leans["advantage"]),
        tuple(leans["disadvantage"]),
        tuple(fails),
        tuple(source.name for source in sources),
    )


def roll_mode(asked: str | None, effects: Effects) -> str:
    """Advantage and disadvantage from anywhere cancel, whatever the count of each."""
    advantage = asked == "advantage" or bool(effects.advantage)
    disadvantage = asked == "disadvantage" or bool(effects.disadvantage)
    if advantage == disadvantage:
        return "normal"
    return "advantage" if advantage else "disadvantage"


def roll_modifiers(effects: Effects, dice: Dice) -> int:
    """The numbers the sources add: flat parts, and dice thrown (`minus` takes them away)."""
    total = 0
    for _, modifier in effects.modifiers:
        total += modifier.flat or 0
        if modifier.dice is None:
            continue
        count, rest = modifier.dice.split("d", 1)
        sides, flat = rest, 0
        for sign in "+-":
            if sign in rest:
                sides, extra = rest.split(sign, 1)
                flat = int(extra) if sign == "+" else -int(extra)
        thrown = sum(dice.roll(int(count), int(sides))) + flat
        total += -thrown if modifier.minus else thrown
    return total


def sources_for(ruleset: Ruleset, character: Character | None, live: LiveState) -> list[Source]:
    """What changes this character's checks now; nothing for a character nobody can name."""
    if character is None or ruleset.definition.combat is None:
        return item_sources(held_effects(ruleset, character)) if character else []
    view = character.view(ruleset, live)
    return check_sources(ruleset, view, live, held_effects(ruleset, character))
