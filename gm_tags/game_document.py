"""Reading a game document (the JSON a game is saved as) into checked parts.

    {"gameCharacterCards": [{"name": "Mira", "rulesetSheet": {"v": 1, "build": {...}},
                             "items": [...]}],
     "gamePlayer": "Mira",
     "rulesetLive": {"mira": {"pools": {"grit": {"value": 3}}}, "$party": {...}},
     "rulesetClocks": [{"name": "Alarm raised", "size": 6, "filled": 2}],
     "gamePartySheet": {...}, "gamePartySheetRevision": 3}

Shapes are checked and every problem is reported with its path, as ruleset problems are. Values
the sheet no longer offers are not problems: they are read as the page says (a state value no
longer offered reads as the default) and kept. Keys this build does not read are carried
unchanged, so a document written by a newer build or by the Engine loses nothing here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from .errors import GameDocumentError, Problem
from .ruleset.base import Number
from .ruleset.problems import problems_from
from .sheet.build import Build, Item
from .sheet.character import Character
from .sheet.clocks import Clock
from .sheet.encounter import Encounter
from .sheet.inventory import MOST_MONEY, MOST_QUANTITY, MOST_STACKS, Inventory, Stack
from .sheet.live import PARTY_ENTRY, LiveState, over_bounds
from .text import name_key, unsafe_reason

KNOWN_KEYS = (
    "gameRecentOutcomes",
    "gameRecentChecks",
    "gamePartySheet",
    "gamePartySheetRevision",
    "gameDice",
    "gameTurn",
    "gameCharacterCards",
    "gamePlayer",
    "rulesetLive",
    "rulesetClocks",
    "rulesetLayers",
    "gameRuleset",
    "rulesetFight",
    "gameGmBosses",
    "gameInventory",
    "gameMoney",
)
PARTY_KEY = PARTY_ENTRY
LIMIT = 1_000_000
# Keys this build does not read are carried into every snapshot: at most this much of them, as
# JSON (the Engine's own bound on a stored live blob).
CARRIED_LIMIT = 64 * 1024

Key = Annotated[str, Field(min_length=1, max_length=200)]
Amount = Annotated[int, Field(ge=-LIMIT, le=LIMIT)]
Scalar = Number | str | bool | None


def _clock_name(name: str) -> str:
    reason = unsafe_reason(name)
    if reason:
        raise ValueError(f"a clock name {reason}")
    if '"' in name:
        raise ValueError("a clock name cannot contain double quotes")
    return name


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class _Open(BaseModel):
    """A stored object that may carry keys this build does not read (kept as they are)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True, defer_build=True)


class ClockRecord(_Shape):
    name: Annotated[str, Field(min_length=1, max_length=100), AfterValidator(_clock_name)]
    size: Annotated[int, Field(ge=2, le=12)]
    filled: Annotated[int, Field(ge=0)] = 0

    @model_validator(mode="after")
    def _within_size(self) -> ClockRecord:
        if self.filled > self.size:
            raise ValueError(f"filled is {self.filled}, more than the size {self.size}")
        return self


class BuildRecord(_Open):
    abilities: dict[Key, Number] = {}
    skills: dict[Key, str] = {}
    saves: dict[Key, str] = {}
    bonuses: dict[Key, Number] = {}
    fields: dict[Key, Scalar] = {}
    lists: dict[Key, Annotated[list[dict[Key, Scalar]], Field(max_length=500)]] = {}


class SheetRecord(_Open):
    v: int
    build: BuildRecord


class ItemRecord(_Open):
    name: Annotated[str, Field(min_length=1, max_length=200)]
    worn: bool = False
    category: str | None = None
    slot: str | None = None
    tags: list[str] = []
    stats: dict[Key, Number] = {}


class CardRecord(_Open):
    name: Annotated[str, Field(min_length=1, max_length=200)]
    ruleset_sheet: SheetRecord | None = Field(default=None, alias="rulesetSheet")
    items: Annotated[list[ItemRecord], Field(max_length=500)] | None = None


class PoolRecord(_Shape):
    value: Amount
    temp: Annotated[int, Field(ge=0, le=LIMIT)] = 0


class WoundsRecord(_Shape):
    marks: Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=64)] = []
    overflow: Annotated[int, Field(ge=0, le=LIMIT)] = 0


class LiveRecord(_Open):
    pools: Annotated[dict[Key, PoolRecord], Field(max_length=600)] = {}
    tracks: Annotated[dict[Key, Amount], Field(max_length=30)] = {}
    wounds: Annotated[dict[Key, WoundsRecord], Field(max_length=30)] = {}
    text: Annotated[dict[Key, Annotated[str, Field(max_length=500)]], Field(max_length=12)] = {}
    conditions: Annotated[list[Key], Field(max_length=80)] = []
    states: Annotated[dict[Key, Annotated[str, Field(max_length=80)]], Field(max_length=30)] = {}


class StackRecord(_Open):
    """A stack in the Engine's shape (`gameInventory`), with gm-tags' own counts beside it."""

    id: Annotated[str, Field(min_length=1, max_length=80)]
    name: Annotated[str, Field(min_length=1, max_length=200)]
    quantity: Annotated[int, Field(ge=1, le=MOST_QUANTITY)]
    holder: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    nickname: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    item: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    equipped: Annotated[int, Field(ge=0, le=MOST_QUANTITY)] = 0
    bound: Annotated[int, Field(ge=0, le=MOST_QUANTITY)] = 0
    charges: Annotated[int, Field(ge=0, le=100)] | None = None

    @model_validator(mode="after")
    def _within_quantity(self) -> StackRecord:
        for key in ("equipped", "bound"):
            if getattr(self, key) > self.quantity:
                raise ValueError(f"{key} is {getattr(self, key)}, more than the quantity")
        return self


Purse = Annotated[dict[Key, Annotated[int, Field(ge=0, le=MOST_MONEY)]], Field(max_length=4)]


class DiceRecord(_Shape):
    policy: Literal["reroll", "keep"] = "reroll"
    seed: Annotated[int, Field(ge=0, lt=2**63)] = 0


class RulesetRecord(_Open):
    """Which ruleset the game belongs to: its id, name and content fingerprint."""

    id: Annotated[str, Field(min_length=1, max_length=200)]
    name: Annotated[str, Field(max_length=200)] = ""
    fingerprint: Annotated[str, Field(max_length=64)] = ""


class GameDocument(_Open):
    model_config = ConfigDict(populate_by_name=True)

    cards: list[CardRecord] = Field(default=[], alias="gameCharacterCards")
    player: str | None = Field(default=None, alias="gamePlayer")
    live: dict[Key, LiveRecord] = Field(default={}, alias="rulesetLive")
    clocks: list[ClockRecord] | None = Field(default=None, alias="rulesetClocks")
    layers: Annotated[list[str], Field(max_length=12)] = Field(default=[], alias="rulesetLayers")
    recent: Annotated[list[str], Field(max_length=200)] = Field(
        default=[], alias="gameRecentOutcomes"
    )
    rolled: Annotated[list[str], Field(max_length=200)] = Field(
        default=[], alias="gameRecentChecks"
    )
    party_sheet: BuildRecord | None = Field(default=None, alias="gamePartySheet")
    party_revision: Annotated[int, Field(ge=0)] = Field(default=0, alias="gamePartySheetRevision")
    dice: DiceRecord | None = Field(default=None, alias="gameDice")
    turn: Annotated[int, Field(ge=0)] = Field(default=0, alias="gameTurn")
    ruleset: RulesetRecord | None = Field(default=None, alias="gameRuleset")
    fight: dict[str, Any] | None = Field(default=None, alias="rulesetFight")
    gm_bosses: bool = Field(default=False, alias="gameGmBosses")
    inventory: Annotated[list[StackRecord], Field(max_length=MOST_STACKS)] = Field(
        default=[], alias="gameInventory"
    )
    money: Annotated[dict[Key, Purse], Field(max_length=64)] = Field(default={}, alias="gameMoney")


@dataclass(frozen=True, slots=True)
class ReadDocument:
    characters: tuple[Character, ...]
    player: str | None
    live: Mapping[str, LiveState]
    clocks: tuple[Clock, ...]
    carried: dict[str, Any]
    layers: tuple[str, ...]
    recent: tuple[str, ...]
    rolled: tuple[str, ...]
    dice_policy: str
    dice_seed: int
    turn: int
    party_sheet: Build | None
    party_revision: int
    ruleset: RulesetRecord | None = None
    fight: Encounter | None = None
    gm_bosses: bool = False
    inventory: Inventory = field(default_factory=Inventory)


def read_document(document: Mapping[str, Any], layers: set[str] | None = None) -> ReadDocument:
    """The document's parts; `layers` are the layer ids the ruleset offers (None: any)."""
    if not isinstance(document, Mapping):
        raise GameDocumentError([Problem("(root)", "a game document is a JSON object")])
    data = dict(document)
    try:
        checked = GameDocument.model_validate(data)
    except ValidationError as error:
        raise GameDocumentError(problems_from(error, data, GameDocument)) from None
    clocks = tuple(
        Clock(record.name, record.size, record.filled) for record in checked.clocks or ()
    )
    _no_shared_names(clocks)
    carried = {key: value for key, value in data.items() if key not in KNOWN_KEYS}
    carried_size = len(json.dumps(carried, ensure_ascii=False).encode("utf-8")) if carried else 0
    if carried_size > CARRIED_LIMIT:
        largest = max(carried, key=lambda key: len(json.dumps(carried[key], ensure_ascii=False)))
        raise GameDocumentError(
            [
                Problem(
                    largest,
                    f"keys this build does not read hold {carried_size} bytes; at most "
                    f"{CARRIED_LIMIT} are carried",
                )
            ]
        )
    unknown = [
        Problem(f"rulesetLayers.{at}", f"the ruleset has no layer {layer!r}")
        for at, layer in enumerate(checked.layers)
        if layers is not None and layer not in layers
    ]
    if unknown:
        raise GameDocumentError(unknown)
    raw_cards = data.get("gameCharacterCards") or []
    raw_live = data.get("rulesetLive") or {}
    live = {key: LiveState.from_json(raw_live[key]) for key in checked.live}
    # A stored live state past the Engine's bounds (64 characters, 64 KB) is refused here, at
    # load, not only by the next command that would write it.
    full = over_bounds(live)
    if full is not None:
        raise GameDocumentError([Problem("rulesetLive", full.replace(" would ", " "))])
    return ReadDocument(
        characters=tuple(
            character_from(raw, record)
            for raw, record in zip(raw_cards, checked.cards, strict=True)
        ),
        player=checked.player,
        live=MappingProxyType(live),
        clocks=clocks,
        carried=carried,
        layers=tuple(checked.layers),
        recent=tuple(checked.recent),
        rolled=tuple(checked.rolled),
        dice_policy=checked.dice.policy if checked.dice else "reroll",
        dice_seed=checked.dice.seed if checked.dice else 0,
        turn=checked.turn,
        party_sheet=(
            Build(MappingProxyType(dict(data["gamePartySheet"])))
            if checked.party_sheet is not None
            else None
        ),
        party_revision=checked.party_revision,
        ruleset=checked.ruleset,
        fight=_fight(checked.fight),
        gm_bosses=checked.gm_bosses,
        inventory=_inventory(data, checked),
    )


def _fight(record: dict[str, Any] | None) -> Encounter | None:
    if record is None:
        return None
    try:
        return Encounter.from_json(record)
    except (KeyError, TypeError, ValueError, StopIteration) as error:
        raise GameDocumentError([Problem("rulesetFight", f"not a fight: {error}")]) from None


def _inventory(data: dict[str, Any], checked: GameDocument) -> Inventory:
    stacks = tuple(Stack.from_json(raw) for raw in data.get("gameInventory") or ())
    seen: dict[str, int] = {}
    for at, stack in enumerate(stacks):
        if stack.id in seen:
            raise GameDocumentError(
                [Problem(f"gameInventory.{at}.id", f"{stack.id!r} is also stack {seen[stack.id]}")]
            )
        seen[stack.id] = at
    money = {key: MappingProxyType(dict(purse)) for key, purse in checked.money.items() if purse}
    return Inventory(stacks, MappingProxyType(money))


def character_from(raw: Mapping[str, Any], record: CardRecord) -> Character:
    """A character from its stored card (the raw card is kept whole for the round trip)."""
    sheet = raw.get("rulesetSheet")
    build = sheet.get("build") if isinstance(sheet, Mapping) else None
    items = tuple(
        Item(
            name=item.name,
            worn=item.worn,
            category=item.category,
            slot=item.slot,
            tags=tuple(item.tags),
            stats=MappingProxyType(dict(item.stats)),
        )
        for item in record.items or ()
    )
    return Character(
        name=record.name,
        build=Build(MappingProxyType(dict(build or {}))),
        items=items,
        has_sheet=record.ruleset_sheet is not None,
        card=MappingProxyType(dict(raw)),
    )


def _no_shared_names(clocks: tuple[Clock, ...]) -> None:
    seen: dict[str, int] = {}
    problems = []
    for at, clock in enumerate(clocks):
        key = name_key(clock.name)
        if key in seen:
            problems.append(
                Problem(
                    f"rulesetClocks.{at}.name",
                    f"{clock.name!r} is also the name of clock {seen[key]}; names must differ",
                )
            )
        seen.setdefault(key, at)
    if problems:
        raise GameDocumentError(problems)
