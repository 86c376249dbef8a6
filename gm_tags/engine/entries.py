"""Using what a character has: a catalog entry they picked, named by `[sheet: op="use"]` (`cast`
is the same op) or by `use=` on a check.

A character has an entry when a row of one of their lists carries its mark
(`_catalog: "<catalog>/<entry>"`). A name finds it by the entry's label or the row's own name (its
first text column), in any case and ignoring surrounding space; two different entries answering to
one name are `ambiguous-entry`, none `unknown-entry`. Using it pays its whole `mechanics.cost` or
nothing: each term from its pool, or from a pool group's first pool (declaration order) that can
afford it, no automatic climb; `pool=` names another pool of that group for a single-term cost (an
upcast), anything else `bad-pool`. Each list-row pool the entry wrote (a row carrying the same mark)
counts one use more, and one at 0 is `insufficient`. An entry without a cost is used for nothing.

An upcast climbs its group: the pools of a group, in declaration order, are its rungs, and paying
the price of a cost term naming one pool out of a later one of the same group is that many steps
up (the Engine's `rulesetCostSteps`). The price stays the price; an entry with `perCostStep` says
what the climb adds (`climb`), which the receipt names for the Game Master to narrate.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..reasons import Reason
from ..ruleset.catalogs import CATALOG_MARK
from ..ruleset.checks_combat import parse_dice
from ..ruleset.document import CatalogEntry
from ..ruleset.loader import Ruleset
from ..ruleset.sheet import TextColumn
from ..sheet.build import list_rows
from ..sheet.character import Character
from ..sheet.live import LiveState
from ..sheet.pools import PoolSlot
from .outcome import Outcome
from .pools import pools_of


@dataclass(frozen=True, slots=True)
class Owned:
    """An entry a character has: its mark, the entry, and the names their rows give it."""

    mark: str
    entry: CatalogEntry
    names: tuple[str, ...]

    @property
    def label(self) -> str:
        return self.entry.label


@dataclass(frozen=True, slots=True)
class Paid:
    """One pool a use took from, and how much."""

    pool: PoolSlot
    amount: int
    left: int

    @property
    def now(self) -> str:
        return f"{self.pool.label} {self.left}/{self.pool.maximum}"


def owned_entries(ruleset: Ruleset, character: Character) -> list[Owned]:
    """Every entry a row of the character's lists carries the mark of, in list order, once."""
    entries = {
        f"{catalog.id}/{entry.id}": entry
        for catalog in ruleset.definition.catalogs or ()
        for entry in catalog.entries or ()
    }
    names: dict[str, list[str]] = {}
    for sheet_list in ruleset.definition.sheet.lists:
        text = next((c.id for c in sheet_list.columns if isinstance(c, TextColumn)), None)
        for row in list_rows(sheet_list, character.build):
            mark = row.get(CATALOG_MARK)
            if not isinstance(mark, str) or mark not in entries:
                continue
            name = row.get(text) if text is not None else None
            names.setdefault(mark, [])
            if isinstance(name, str) and name.strip():
                names[mark].append(name.strip())
    return [Owned(mark, entries[mark], tuple(found)) for mark, found in names.items()]


def find_entry(ruleset: Ruleset, character: Character, name: str) -> Owned | Outcome:
    owned = owned_entries(ruleset, character)
    wanted = name.strip().casefold()
    found = [o for o in owned if wanted in {o.label.casefold(), *(n.casefold() for n in o.names)}]
    if len(found) == 1:
        return found[0]
    if found:
        labels = ", ".join(o.label for o in found)
        return Outcome.refused(Reason.AMBIGUOUS_ENTRY, f"{name!r} could be any of: {labels}")
    offered = ", ".join(o.label for o in owned) or "nothing"
    return Outcome.refused(
        Reason.UNKNOWN_ENTRY, f"{character.name} has nothing named {name!r}; they have: {offered}"
    )


def pay(
    ruleset: Ruleset,
    character: Character,
    live: LiveState,
    owned: Owned,
    *,
    pool: str | None = None,
    steps: int = 1,
) -> tuple[LiveState, list[Paid]] | Outcome:
    """The live state with the whole cost of `steps` uses paid, and what each pool gave; or why
    nothing was paid."""
    pools = pools_of(ruleset, character)
    cost = owned.entry.mechanics.cost if owned.entry.mechanics else None
    terms = [(term.pool, term.amount * steps) for term in cost or ()]
    if pool is not None and len(terms) != 1:
        return Outcome.refused(
            Reason.BAD_POOL, "pool= chooses where a cost of one pool group is paid from"
        )
    paid: list[Paid] = []
    for term, amount in terms:
        chosen = _source(ruleset, pools, term, pool, amount, live)
        if isinstance(chosen, Outcome):
            return chosen
        live, left = _take(live, chosen, amount)
        paid.append(Paid(chosen, amount, left))
    for counter in _counters(ruleset, character, owned.mark, pools):
        value, _ = counter.now(live) if isinstance(counter, PoolSlot) else (0, 0)
        if value < steps or not isinstance(counter, PoolSlot):
            name = counter.label if isinstance(counter, PoolSlot) else counter
            return Outcome.refused(
                Reason.INSUFFICIENT, f"{name} has {value} uses left, not {steps}"
            )
        live, left = _take(live, counter, steps)
        paid.append(Paid(counter, steps, left))
    return live, paid


def _source(
    ruleset: Ruleset,
    pools: list[PoolSlot],
    term: str,
    asked: str | None,
    amount: int,
    live: LiveState,
) -> PoolSlot | Outcome:
    declared = ruleset.index.pools
    group = [p for p in pools if not p.row and declared[p.key].group == term]
    named = next((p for p in pools if not p.row and p.key == term), None)
    if asked is not None:
        # An upcast: the price out of another pool of the family the term names, or of the
        # family of the pool it names (a pool of no family has nothing to choose among).
        family = term if group else getattr(declared.get(term), "group", None)
        offered = [p for p in pools if not p.row and family and declared[p.key].group == family]
        wanted = asked.strip().casefold()
        choice = next(
            (p for p in offered if wanted in (p.key.casefold(), p.label.casefold())), None
        )
        if choice is None:
            return Outcome.refused(
                Reason.BAD_POOL, f"{asked!r} is not a pool this cost ({term}) can be paid from"
            )
        group, named = [], choice
    if named is not None:
        value, _ = named.now(live)
        if value < amount:
            return Outcome.refused(
                Reason.INSUFFICIENT, f"{named.label} has {value}, not enough to pay {amount}"
            )
        return named
    for candidate in group:
        if candidate.now(live)[0] >= amount:
            return candidate
    if not group:
        return Outcome.refused(
            Reason.INSUFFICIENT, f"this character has no {term} to pay {amount} from"
        )
    return Outcome.refused(
        Reason.INSUFFICIENT, f"no pool of {term} holds {amount}: " + _holding(group, live)
    )


def _holding(group: list[PoolSlot], live: LiveState) -> str:
    return ", ".join(f"{p.label} {p.now(live)[0]}" for p in group)


def _take(live: LiveState, pool: PoolSlot, amount: int) -> tuple[LiveState, int]:
    value, temp = pool.now(live)
    return live.with_pool(pool.key, value - amount, temp, pool.default), value - amount


def _counters(
    ruleset: Ruleset, character: Character, mark: str, pools: list[PoolSlot]
) -> list[PoolSlot | str]:
    """The row pools the entry wrote (rows carrying its mark in a list with pools); a row whose
    pool does not exist (its maximum is 0) by its name."""
    by_key = {pool.key: pool for pool in pools if pool.row}
    found: list[PoolSlot | str] = []
    for sheet_list in ruleset.definition.sheet.lists:
        if sheet_list.pools is None:
            continue
        for row in list_rows(sheet_list, character.build):
            name = row.get(sheet_list.pools.name_column)
            if row.get(CATALOG_MARK) != mark or not isinstance(name, str) or not name.strip():
                continue
            key = f"{sheet_list.id}:{name.strip().lower()}"
            counter = by_key.get(key, name.strip())
            if counter not in found:
                found.append(counter)
    return found


def climb(ruleset: Ruleset, owned: Owned, paid: list[Paid]) -> str | None:
    """What paying a one-term cost out of a later pool of its group adds, by the entry's
    `perCostStep` (`2 steps up: +2d6`), or None when the payment climbed nothing."""
    mechanics = owned.entry.mechanics
    per_step = mechanics.per_cost_step if mechanics is not None else None
    cost = mechanics.cost if mechanics is not None else None
    if per_step is None or not cost or len(cost) != 1 or not paid:
        return None
    declared = ruleset.index.pools
    named = declared.get(cost[0].pool)
    group = named.group if named is not None else None
    rungs = [
        pool.id for pool in ruleset.definition.sheet.live.pools if group and pool.group == group
    ]
    chosen = paid[0].pool.key
    if cost[0].pool not in rungs or chosen not in rungs:
        return None
    steps = rungs.index(chosen) - rungs.index(cost[0].pool)
    if steps <= 0:
        return None
    count, sides, flat = (parse_dice(per_step.dice) or (0, 0, 0)) if per_step.dice else (0, 0, 0)
    flat = (flat + (per_step.flat or 0)) * steps
    added = (f"+{count * steps}d{sides}" if count else "") + (f"{flat:+d}" if flat else "")
    return f"{steps} step{'s' if steps != 1 else ''} up: {added or '+0'}"
