"""`use="Steady Hand"` on a check: an entry the character has (the same matcher as
`[sheet: op="use"]`) whose `mechanics.check` changes this one check, paid through the same
all-or-nothing payment before the dice are thrown.

An entry with `perCostStep` scales: `spend="resolve:2"` beside it, a whole multiple of the
entry's price in that pool, buys that many uses (at most `MOST_STEPS`), each adding its dice and
successes again (a re-throw does not scale). An entry without one is bought once, whatever was
offered. The `spend=` that paid for the entry is the entry's, never paid again by the ruleset's
own spend rule. Nothing happens when the character lacks the entry, it changes no check, or its
cost cannot be paid whole: the check is rolled as if `use=` were not there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine.entries import Owned, find_entry, pay
from ..engine.outcome import Outcome
from ..ruleset.loader import Ruleset
from ..ruleset.resolution import Reroll
from ..sheet.character import Character
from ..sheet.live import LiveState
from .record import CheckRequest

MOST_STEPS = 10


@dataclass(frozen=True)
class EntryUse:
    """What using the entry bought for this check, and the state after paying for it."""

    label: str
    spent: str | None
    live: LiveState
    request: CheckRequest
    dice: int = 0
    successes: int = 0
    reroll: Reroll | None = None


def use_entry(
    ruleset: Ruleset, request: CheckRequest, character: Character | None, live: LiveState
) -> EntryUse | None:
    if not request.use or character is None:
        return None
    owned = find_entry(ruleset, character, request.use)
    if isinstance(owned, Outcome) or owned.entry.mechanics is None:
        return None
    effect = owned.entry.mechanics.check
    if effect is None:
        return None
    steps, took_spend = _steps(ruleset, owned, request.spend)
    paid = pay(ruleset, character, live, owned, steps=steps)
    if isinstance(paid, Outcome):
        return None
    live, parts = paid
    first = parts[0] if parts else None
    spent = sum(part.amount for part in parts if first and part.pool.key == first.pool.key)
    changed = replace(
        request,
        spend=None if took_spend else request.spend,
        threshold=effect.threshold if effect.threshold is not None else request.threshold,
        explode=effect.explode if effect.explode is not None else request.explode,
        double=effect.double if effect.double is not None else request.double,
    )
    reroll = Reroll(up_to=effect.reroll.up_to, mode=effect.reroll.mode) if effect.reroll else None
    return EntryUse(
        owned.label,
        f"{first.pool.key}:{spent}" if first is not None else None,
        live,
        changed,
        (effect.dice or 0) * steps,
        (effect.successes or 0) * steps,
        reroll,
    )


def _steps(ruleset: Ruleset, owned: Owned, spend: str | None) -> tuple[int, bool]:
    """How many uses `spend=` buys, and whether it was offered for this entry at all."""
    mechanics = owned.entry.mechanics
    cost = mechanics.cost if mechanics is not None else None
    if not spend or not cost or ":" not in spend:
        return 1, False
    named, _, amount = spend.partition(":")
    price = cost[0]
    if not _names(ruleset, named, price.pool):
        return 1, False
    try:
        offered = int(amount.strip())
    except ValueError:
        return 1, True
    scales = mechanics is not None and mechanics.per_cost_step is not None
    if not scales or offered <= 0 or offered % price.amount:
        return 1, True
    return max(1, min(MOST_STEPS, offered // price.amount)), True


def _names(ruleset: Ruleset, named: str, term: str) -> bool:
    """Whether `named` (a pool's id or label, in any case) is the cost term's pool or group."""
    wanted = named.strip().casefold()
    for pool in ruleset.definition.sheet.live.pools:
        if term in (pool.id, pool.group) and wanted in (pool.id.casefold(), pool.label.casefold()):
            return True
    return wanted == term.casefold()
