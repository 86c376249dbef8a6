"""A fight as plain state: who is in it, the order they act in, whose turn it is, what each has
spent this turn, the opponents' health and the round. It is part of the game snapshot (stored as
`rulesetFight`), so a regenerated reply begins from the fight as it stood before it.

Party members' health is not here: it is their sheet's, read and written through the sheet's own
operations. Opponents live here whole, their stat block copied in when the fight began.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

Side = Literal["party", "enemy"]
# The lines of what happened lately, kept for the reminder (the engine's own turns above all).
LOG_LIMIT = 12
# When a save that ends a condition is thrown.
AT = ("turn-end", "turn-start")


@dataclass(frozen=True)
class Combatant:
    """One side's member. `id` is a character's key or an opponent's own id; `spent` is what it
    has used of each budget; `down` marks a party member taken out by a blow no box could take
    (a full track or an empty pool is down without it)."""

    id: str
    name: str
    side: Side
    initiative: int = 0
    modifier: int = 0
    spent: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    down: bool = False
    # A party member at no health where the ruleset has a dying rule: "dying" (throwing death
    # saves on their turns), "stable" (no more throws until hurt) or "dead".
    fate: str | None = None
    boss: bool = False
    # Conditions a blow put on this combatant for some rounds: each comes off as the holder's
    # turn begins in the round named.
    timed: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    # The standard actions in force on it (`dodge` until its own next turn, `helped` until its
    # next attack or the end of its next turn).
    stances: tuple[str, ...] = ()
    # Conditions on it that a save ends: condition -> (save, "turn-end" or "turn-start", what
    # the save is thrown against).
    ends_on: Mapping[str, tuple[str, str, int]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    # What a party member's concentration holds: (combatant id, condition) pairs.
    holds: tuple[tuple[str, str], ...] = ()
    # Opponents only: the conditions on them (a party member's are on their sheet), health, its
    # most, and the stat block (creature keys, as the ruleset writes them).
    conditions: tuple[str, ...] = ()
    health: int = 0
    most: int = 0
    block: Mapping[str, Any] | None = None

    @property
    def acted(self) -> bool:
        return any(self.spent.values())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "name": self.name, "side": self.side}
        data["initiative"], data["modifier"] = self.initiative, self.modifier
        if self.spent:
            data["spent"] = dict(self.spent)
        if self.down:
            data["down"] = True
        if self.fate is not None:
            data["fate"] = self.fate
        if self.boss:
            data["boss"] = True
        if self.timed:
            data["timed"] = dict(self.timed)
        if self.conditions:
            data["conditions"] = list(self.conditions)
        if self.stances:
            data["stances"] = list(self.stances)
        if self.holds:
            data["holds"] = [list(pair) for pair in self.holds]
        if self.ends_on:
            data["endsOn"] = {c: list(end) for c, end in self.ends_on.items()}
        if self.side == "enemy":
            data["health"], data["max"] = self.health, self.most
            data["block"] = dict(self.block or {})
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Combatant:
        side = data["side"]
        if side not in ("party", "enemy"):
            raise ValueError(f"side is party or enemy, not {side!r}")
        spent = {str(k): _int(v) for k, v in dict(data.get("spent") or {}).items()}
        timed = {str(k): _int(v) for k, v in dict(data.get("timed") or {}).items()}
        block = data.get("block")
        fate = data.get("fate")
        if fate not in (None, "dying", "stable", "dead"):
            raise ValueError(f"fate is dying, stable or dead, not {fate!r}")
        return cls(
            id=str(data["id"]),
            name=str(data["name"]),
            side=side,
            initiative=_int(data.get("initiative", 0)),
            modifier=_int(data.get("modifier", 0)),
            spent=MappingProxyType(spent),
            down=data.get("down") is True,
            fate=fate,
            boss=data.get("boss") is True,
            timed=MappingProxyType(timed),
            conditions=tuple(str(c) for c in data.get("conditions") or ()),
            stances=tuple(str(s) for s in data.get("stances") or ()),
            holds=tuple(_pair(h) for h in data.get("holds") or ()),
            ends_on=MappingProxyType(
                {str(c): _ending(e) for c, e in dict(data.get("endsOn") or {}).items()}
            ),
            health=_int(data.get("health", 0)),
            most=_int(data.get("max", 0)),
            block=MappingProxyType(dict(block)) if isinstance(block, Mapping) else None,
        )


@dataclass(frozen=True)
class Encounter:
    """The fight. `order` holds combatant ids in initiative order and `turn` the place of whoever
    acts; `outcome` is "victory" or "defeat" once one side is all down (the fight stays until
    the GM ends it)."""

    combatants: tuple[Combatant, ...]
    order: tuple[str, ...]
    turn: int = 0
    round: int = 1
    outcome: str | None = None
    log: tuple[str, ...] = ()

    def get(self, combatant_id: str) -> Combatant:
        return next(c for c in self.combatants if c.id == combatant_id)

    @property
    def actor(self) -> Combatant:
        return self.get(self.order[self.turn])

    def with_combatant(self, changed: Combatant) -> Encounter:
        members = tuple(changed if c.id == changed.id else c for c in self.combatants)
        return replace(self, combatants=members)

    def logged(self, *lines: str) -> Encounter:
        return replace(self, log=(*self.log, *lines)[-LOG_LIMIT:])

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "round": self.round,
            "turn": self.turn,
            "order": list(self.order),
            "combatants": [c.to_json() for c in self.combatants],
        }
        if self.outcome is not None:
            data["outcome"] = self.outcome
        if self.log:
            data["log"] = list(self.log)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Encounter:
        """The stored fight; raises ValueError (or KeyError, TypeError) when it is not one."""
        combatants = tuple(Combatant.from_json(c) for c in data["combatants"])
        ids = {c.id for c in combatants}
        order = tuple(str(i) for i in data["order"])
        if not order or set(order) != ids or len(order) != len(ids):
            raise ValueError("order names every combatant once")
        turn = _int(data.get("turn", 0))
        if not 0 <= turn < len(order):
            raise ValueError(f"turn {turn} is outside the order")
        outcome = data.get("outcome")
        if outcome not in (None, "victory", "defeat"):
            raise ValueError(f"outcome is victory or defeat, not {outcome!r}")
        log = tuple(str(line) for line in data.get("log") or ())[-LOG_LIMIT:]
        return cls(combatants, order, turn, max(1, _int(data.get("round", 1))), outcome, log)


def _pair(value: Any) -> tuple[str, str]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"a hold is [combatant, condition], not {value!r}")
    return str(value[0]), str(value[1])


def _ending(value: Any) -> tuple[str, str, int]:
    if not isinstance(value, list | tuple) or len(value) != 3 or value[1] not in AT:
        raise ValueError(f"a save that ends a condition is [save, at, difficulty], not {value!r}")
    return str(value[0]), str(value[1]), _int(value[2])


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, found {value!r}")
    return value
