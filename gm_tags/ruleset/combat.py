"""The `combat` block and the bestiary's creatures: how a fight is resolved by the ruleset's own
numbers (`docs/fights.md`). The keys a fight reads are typed; the ones it does not read yet
(positions, contests, dying, concentration, ...) are named so a misspelt key is still refused, and
carried as data. Cross-references are checked in `checks_combat.py`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from .base import PROMPT_SAFE, Carried, Label, SheetId, Strict, length
from .effects import CombatCondition, CombatLevel
from .refs import ValueRef

DamageType = Annotated[str, length(40), PROMPT_SAFE]
# A standard action's name (dodge, help, dash...): what the reminder lists and a tag's with= names.
StandardAction = Annotated[str, length(40), PROMPT_SAFE]


class CombatDice(Strict):
    count: Annotated[int, Field(ge=1, le=100)]
    sides: Annotated[int, Field(ge=2, le=1000)]


class CombatHealth(Strict):
    pool: SheetId | None = None
    track: SheetId | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> CombatHealth:
        if (self.pool is None) == (self.track is None):
            raise ValueError("combat health names exactly one of: pool, track")
        return self


class DamageKinds(Strict):
    default: SheetId
    by_type: dict[str, SheetId] = {}
    marks: Literal["per-blow", "per-point"]


class Initiative(Strict):
    dice: CombatDice
    modifier: ValueRef | None = None
    each: Literal["round", "fight"] = "fight"


class Naturals(Strict):
    max: Literal["critical", "hit", "none"] = "none"
    min: Literal["miss", "none"] = "none"


class AttackRoll(Strict):
    dice: CombatDice
    advantage: bool = False
    naturals: Naturals = Naturals()
    critical: Literal["double-dice", "max-dice", "none"] = "none"


class Soak(Strict):
    roll: bool = True
    by_kind: dict[str, ValueRef] = {}


class PoolFight(Strict):
    """What a dice-pool fight throws damage and soak against."""

    advantage: bool = False
    damage_target: Annotated[int, Field(ge=1, le=1000)]
    soak: Soak | None = None


class Budget(Strict):
    id: SheetId
    label: Label
    per: Literal["turn", "round"]
    count: Annotated[int, Field(ge=1, le=10)] = 1


class Economy(Strict):
    budgets: Annotated[list[Budget], Field(min_length=1, max_length=8)]
    movement: ValueRef | None = None


class Column(Strict):
    column: SheetId


class AttackToHit(Strict):
    ability: Column | None = None
    skill: Column | None = None
    proficiency: Column | None = None
    bonus: Column | None = None


class AttackDamage(Strict):
    dice: Column
    ability: Column | None = None
    bonus: Column | None = None
    type: Column | None = None


class AttackSource(Carried):
    """A sheet list whose rows are attacks (reach, range and strikes are carried)."""

    list_: SheetId = Field(alias="list")
    budget: SheetId
    name: SheetId
    to_hit: AttackToHit = AttackToHit()
    damage: AttackDamage


class AbilitySource(Carried):
    list_: SheetId = Field(alias="list")
    budget: SheetId
    only_when: SheetId | None = None
    to_hit: ValueRef | None = None
    save_difficulty: ValueRef | None = None


class SpendLimit(Strict):
    pool: SheetId
    max: ValueRef
    per: Literal["turn", "round", "fight"]


class ThreatTier(Strict):
    id: SheetId
    label: Label
    health: Annotated[
        list[Annotated[int, Field(ge=1, le=100000)]], Field(min_length=2, max_length=2)
    ]
    defense: Annotated[int, Field(ge=0, le=100)]
    to_hit: Annotated[int, Field(ge=-20, le=50)]
    damage_per_round: Annotated[
        list[Annotated[int, Field(ge=0, le=10000)]], Field(min_length=2, max_length=2)
    ]
    save_difficulty: Annotated[int, Field(ge=0, le=100)]


class Threat(Strict):
    tiers: Annotated[list[ThreatTier], Field(min_length=1, max_length=40)]


class DyingNaturals(Strict):
    max: Literal["revive-1", "success", "none"] = "none"
    min: Literal["two-failures", "failure", "none"] = "none"


class Dying(Strict):
    """What a party member at no health does on their turn (`docs/fights.md`, Dying): throws
    `dice` against `succeedAt`, counting on two plain tracks of the sheet, until one is full."""

    kind: Literal["saves"]
    successes: SheetId
    failures: SheetId
    dice: CombatDice
    succeed_at: Annotated[int, Field(ge=1, le=1000)]
    naturals: DyingNaturals = DyingNaturals()
    damage_while_down: Literal["one-failure", "none"] = "none"
    critical_while_down: Literal["two-failures", "one-failure", "none"] = "none"
    condition: SheetId | None = None


class Concentration(Strict):
    """How an ability that needs its user's concentration is held: named in a live text of the
    sheet, lost to a failed `save` when its user is hurt (against the higher of `floor` and
    `fromDamage` times the damage), to going down, or to a second one."""

    text: SheetId
    save: SheetId
    floor: Annotated[int, Field(ge=0, le=1000)] = 10
    from_damage: Annotated[float, Field(ge=0, le=10)] = 0.5


class FightCheck(Strict):
    """A number a contest reads (`combat.checks[]`), by its own id."""

    id: SheetId
    label: Label
    value: ValueRef


class ContestSide(Carried):
    checks: Annotated[list[SheetId], Field(min_length=1, max_length=8)]


class ContestFrom(Carried):
    holding: SheetId


class ContestCondition(Carried):
    condition: SheetId
    on: Literal["actor", "target"] = "target"


class ContestWin(Carried):
    applies: Annotated[list[ContestCondition], Field(max_length=4)] = []
    ends: Annotated[list[ContestCondition], Field(max_length=4)] = []
    push: Annotated[int, Field(ge=0, le=1000)] | None = None


class Contest(Carried):
    """One side's check against the other's (`combat.contests[]`): the same dice an attack
    throws, plus the best of each side's checks; the higher wins, `ties` to the defender unless it
    says otherwise."""

    id: SheetId
    label: Label
    budget: SheetId
    attacker: ContestSide
    defender: ContestSide
    from_: ContestFrom | None = Field(default=None, alias="from")
    ties: Literal["attacker", "defender"] = "defender"
    on_win: ContestWin = ContestWin()


class Combat(Strict):
    kind: Literal["attack-vs-defense", "dice-pool"]
    health: CombatHealth
    defense: ValueRef
    initiative: Initiative
    attack_roll: AttackRoll | None = None
    pool: PoolFight | None = None
    economy: Economy
    damage_types: Annotated[list[DamageType], Field(max_length=40)] | None = None
    damage_kinds: DamageKinds | None = None
    attacks: Annotated[list[AttackSource], Field(max_length=8)] | None = None
    abilities: Annotated[list[AbilitySource], Field(max_length=8)] | None = None
    conditions: Annotated[list[CombatCondition], Field(max_length=80)] | None = None
    levels: Annotated[list[CombatLevel], Field(max_length=60)] | None = None
    spend_limits: Annotated[list[SpendLimit], Field(max_length=12)] | None = None
    threat: Threat | None = None
    dying: Dying | None = None
    concentration: Concentration | None = None
    checks: Annotated[list[FightCheck], Field(max_length=24)] | None = None
    contests: Annotated[list[Contest], Field(max_length=12)] | None = None
    standard: Annotated[list[StandardAction], Field(max_length=12)] | None = None
    # Read by parts of a fight gm-tags does not run yet: checked for shape only, carried.
    standard_effects: dict[str, Any] | None = None
    distance: dict[str, Any] | None = None
    ranged: dict[str, Any] | None = None
    cover: dict[str, Any] | None = None
    opportunity: dict[str, Any] | None = None
    off_hand: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _kind_blocks(self) -> Combat:
        if self.kind == "attack-vs-defense" and self.attack_roll is None:
            raise ValueError("an attack-vs-defense fight needs attackRoll")
        if self.kind == "dice-pool" and self.pool is None:
            raise ValueError("a dice-pool fight needs pool (damageTarget, soak)")
        return self


# The bestiary: a catalog that holds creatures.


class CreatureDamage(Carried):
    dice: str | None = None
    flat: int = 0
    type: str | None = None
    plus: list[CreatureDamage] = []


class CreatureSave(Strict):
    """The save an opponent's action asks of each target instead of a to-hit roll: thrown by
    the target (the engine's dice), against the block's own `difficulty`."""

    save: SheetId
    difficulty: Annotated[int, Field(ge=0, le=100)] | None = None
    on_success: Literal["none", "half", "negates"]


class CreatureAction(Carried):
    id: str
    name: Annotated[str, length(80), PROMPT_SAFE]
    budget: SheetId | None = None
    to_hit: int | None = None
    auto_hit: bool = False
    damage: CreatureDamage | None = None
    save: CreatureSave | None = None
    save_difficulty: Annotated[int, Field(ge=0, le=100)] | None = None


class RolledHealth(Strict):
    dice: str
    flat: int = 0


class CreatureSoak(Strict):
    all: int = 0
    by_kind: dict[str, int] = {}


class Resistance(Carried):
    type: str
    except_: list[str] = Field(default=[], alias="except")


class Creature(Carried):
    tier: SheetId | None = None
    health: Annotated[int, Field(ge=1, le=100000)] | RolledHealth | None = None
    defense: int | None = None
    initiative_modifier: int = 0
    soak: CreatureSoak | None = None
    resist: list[str | Resistance] = []
    immune: list[str] = []
    vulnerable: list[str] = []
    actions: list[CreatureAction] = []
