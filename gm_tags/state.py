"""The game state: an immutable value, and the draft a reply's commands change.

A `GameState` is one game at one point of its story. Applying a reply returns a new one and leaves
this one as it was, so regenerating a reply or choosing a swipe is a choice of state. The stages
below the pipeline (the engine, the prompt) read states and return new ones; this module imports
none of them. `gm_tags.game.Game` is the same value with the convenience API on top.

A `Draft` is the working copy the pipeline applies one reply's commands to: the same reads, and
`set_` methods that change it in place, frozen into a new state once, at the end of the reply.
The engine writes only to a draft (`draft_of` refuses a snapshot); a snapshot has no method that
changes it, or that looks as if it might.
"""

from __future__ import annotations

import copy
import secrets
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Generic, Self, TypeVar

from .dice import Dice
from .errors import GameDocumentError, GmTagsError, Problem
from .game_document import PARTY_KEY, read_document
from .names import NameIndex, normalize_name
from .party import party_of, party_pools, party_value, with_members
from .ruleset import Ruleset
from .ruleset.layering import selection_problems
from .ruleset.refs import ValueRef
from .sheet.arithmetic import Number
from .sheet.build import Build
from .sheet.character import Character, SheetView
from .sheet.clocks import Clock
from .sheet.encounter import Encounter
from .sheet.inventory import Inventory
from .sheet.item_book import book_for, holding
from .sheet.live import MOST_LIVE_BYTES, LiveState, entry_bytes_bound, over_bounds
from .sheet.pools import PoolSlot
from .text import lone_surrogate_at

EMPTY: Mapping[str, Any] = MappingProxyType({})


def layer_ids(ruleset: Ruleset | None) -> set[str]:
    if ruleset is None:
        return set()
    return {layer.id for layer in (ruleset.base or ruleset).definition.layers or ()}


class UnknownCharacterError(GmTagsError, LookupError):
    """A name that matches no character, or more than one."""


def no_player(state: StateReads) -> str:
    """Why a command without `who=` names nobody."""
    if state.player is not None and state.characters:
        return f"the player {state.player!r} is no character of this game; name one with who="
    return "this game has no characters"


class StateReads(ABC):
    """What the engine and the prompt read of a state: a `GameState`'s or a `Draft`'s."""

    ruleset: Ruleset | None
    characters: tuple[Character, ...]
    player: str | None
    live: Mapping[str, LiveState]
    clocks: tuple[Clock, ...]
    party_sheet: Build | None
    party_revision: int
    # The fight that runs, if one does (`docs/fights.md`), and whether the player lets the GM
    # play bosses (FT-8, FT-9).
    fight: Encounter | None
    gm_bosses: bool
    inventory: Inventory

    @property
    @abstractmethod
    def names(self) -> NameIndex:
        """The cards by name (`names.NameIndex`), built once per snapshot."""

    # Characters ------------------------------------------------------------------------------

    @property
    def player_character(self) -> Character | None:
        """The card a command without `who=` means: the one named `player`, else the first. A
        `player` that names no card means none (never a guess at the first)."""
        if self.player is not None:
            found = self.names.exactly(normalize_name(self.player))
            return self.characters[found[0]] if found else None
        return self.characters[0] if self.characters else None

    def character(self, who: str | None = None) -> Character:
        """The character `who` names (the player's when None), as `who=` is matched; raises
        `UnknownCharacterError` for a name that matches none, or two that are not the player's."""
        if who is None:
            found = self.player_character
            if found is None:
                raise UnknownCharacterError(no_player(self))
            return found
        matches = self.named(who)
        if len(matches) == 1:
            return matches[0]
        problem = "matches no character" if not matches else "is shared by several characters"
        raise UnknownCharacterError(f"{who!r} {problem}")

    def named(self, who: str) -> list[Character]:
        """The cards `who=` names (`gm_tags.names.named`: the exact name, else a unique first
        name); when the player's own name is shared, the player's card alone."""
        key = normalize_name(who)
        matches = [self.characters[index] for index in self.names.keyed(key)]
        if len(matches) > 1:
            player = self.player_character
            if player is not None and player.key == key:
                return [player]
        return matches

    def live_of(self, character: Character) -> LiveState:
        return self.live.get(character.key) or LiveState()

    @property
    def party_live(self) -> LiveState:
        return self.live.get(PARTY_KEY) or LiveState()

    def sheet(self, who: str | None = None) -> SheetView:
        """Every value of one character's sheet as it stands now."""
        if self.ruleset is None:
            raise GmTagsError("a game without a ruleset has no sheets")
        character = self.character(who)
        return character.view(self.ruleset, self.live_of(character))

    def read(self, who: str | None, reference: ValueRef | Mapping[str, Any]) -> Number:
        """Any value reference of the ruleset format (`{"derived": "burden"}`), evaluated for one
        character as the sheet stands now."""
        ref = reference if isinstance(reference, ValueRef) else ValueRef.model_validate(reference)
        return self.sheet(who).read(ref)

    # The party sheet --------------------------------------------------------------------------

    def party_values(self) -> Build:
        """The party sheet as it reads now: stored values, `fromMembers` fields worked out."""
        party = party_of(self.ruleset)
        stored = self.party_sheet or Build()
        return stored if party is None else with_members(party, stored, self.characters)

    def party_value(self, field_id: str) -> Any:
        party = party_of(self.ruleset)
        return None if party is None else party_value(party, self.party_values(), field_id)

    def party_pools(self) -> list[PoolSlot]:
        party = party_of(self.ruleset)
        return [] if party is None else party_pools(party, self.party_values())

    def _holding(self, inventory: Inventory) -> tuple[Character, ...]:
        player = self.player_character
        return holding(
            self.characters,
            inventory,
            book_for(self.ruleset),
            player.key if player is not None else None,
        )


def _with_field(sheet: Build | None, field_id: str, value: Any) -> Build:
    stored = (sheet or Build()).to_json()
    stored.setdefault("fields", {})[field_id] = value
    return Build(MappingProxyType(stored))


@dataclass(frozen=True)
class GameState(StateReads):
    """One game's state at one point of its story.

    `characters` are the cards in play; `player` names the card a command without `who=` means
    (the first card when unset). `live` is each character's live state by normalized name (and
    the party's under "$party"). `clocks` are the progress clocks in the order they were made.
    `carried` holds the document keys later stages own, as read.
    """

    ruleset: Ruleset | None
    characters: tuple[Character, ...] = ()
    player: str | None = None
    live: Mapping[str, LiveState] = field(default_factory=lambda: EMPTY)
    clocks: tuple[Clock, ...] = ()
    carried: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    layers: tuple[str, ...] = ()
    # What the model must hear next turn because it did not happen: the refused commands of the
    # reply that made this snapshot, as summary lines.
    recent: tuple[str, ...] = ()
    # The summary line of every check in that reply, for the Game Master to narrate from.
    rolled: tuple[str, ...] = ()
    # Dice: "reroll" gives a regenerated reply fresh dice; "keep" seeds each message's dice from
    # `dice_seed` and the message's place (`turn`), so a regenerated reply throws the same faces.
    dice_policy: str = "reroll"
    dice_seed: int = 0
    turn: int = 0
    # The shared party sheet's permanent values (`gamePartySheet`, None until something is
    # stored) and its revision, raised by every save and by every change the story makes.
    party_sheet: Build | None = None
    party_revision: int = 0
    fight: Encounter | None = None
    gm_bosses: bool = False
    # What the party carries (`gameInventory`) and each character's money (`gameMoney`).
    inventory: Inventory = field(default_factory=Inventory)

    def __post_init__(self) -> None:
        # The state holds the ruleset the game plays by: the loaded one with its layers applied
        # (a later layer conflicting with an earlier one is not, and is not kept in `layers`).
        if self.ruleset is not None and (self.layers or self.ruleset.base is not None):
            ruleset = self.ruleset.with_layers(self.layers)
            if ruleset is not self.ruleset:
                object.__setattr__(self, "ruleset", ruleset)
            if ruleset.layers != self.layers:
                object.__setattr__(self, "layers", ruleset.layers)
        # Each character holds what the inventory says it carries.
        if self.inventory.stacks:
            object.__setattr__(self, "characters", self._holding(self.inventory))

    @classmethod
    def new(
        cls,
        ruleset: Ruleset | None,
        characters: Mapping[str, Mapping[str, Any] | None] | None = None,
        player: str | None = None,
        layers: tuple[str, ...] | list[str] = (),
        dice_policy: str = "reroll",
        dice_seed: int | None = None,
        gm_bosses: bool = False,
    ) -> Self:
        """A game nothing has happened in yet. `characters` maps each name to a build in the
        Engine's shape (`abilities`, `skills`, `saves`, `bonuses`, `fields`, `lists`), or to None
        for a character nobody made a sheet for (it plays on the blank build). `layers` are the
        ids of the ruleset's layers this game plays with. `gm_bosses` is the player letting the
        GM play bosses in fights (`docs/fights.md`)."""
        unstorable = lone_surrogate_at(dict(characters or {}), "characters")
        if unstorable:
            raise GmTagsError(f"{unstorable[0]} {unstorable[1]}")
        refused = (
            selection_problems((ruleset.base or ruleset).definition, layers)
            if ruleset is not None
            else []
        )
        if ruleset is None and layers:
            refused = [f"there is no ruleset to take the layer {layers[0]!r} from"]
        if refused:
            raise GmTagsError("; ".join(refused))
        version = ruleset.definition.sheet.version if ruleset is not None else 1
        cards = []
        for name, build in (characters or {}).items():
            card: dict[str, Any] = {"name": name}
            if build is not None:
                card["rulesetSheet"] = {"v": version, "build": copy.deepcopy(dict(build))}
            cards.append(
                Character(
                    name=name,
                    build=Build(MappingProxyType(copy.deepcopy(dict(build or {})))),
                    has_sheet=build is not None,
                    card=MappingProxyType(card),
                )
            )
        if dice_policy not in ("reroll", "keep"):
            raise GmTagsError(f'dice_policy is "reroll" or "keep", not {dice_policy!r}')
        seed = dice_seed if dice_seed is not None else 0
        if dice_policy == "keep" and dice_seed is None:
            seed = secrets.randbits(32)
        return cls(
            ruleset,
            tuple(cards),
            player,
            layers=tuple(layers),
            dice_policy=dice_policy,
            dice_seed=seed,
            gm_bosses=gm_bosses,
        )

    @classmethod
    def from_document(cls, ruleset: Ruleset | None, document: Mapping[str, Any]) -> Self:
        """A game from its JSON document; raises `GameDocumentError` listing every problem."""
        read = read_document(document, layer_ids(ruleset))
        belongs = read.ruleset
        if ruleset is not None and belongs is not None and belongs.id != ruleset.id:
            raise GameDocumentError(
                [
                    Problem(
                        "gameRuleset.id",
                        f"this game belongs to the ruleset {belongs.name or belongs.id!r} "
                        f"({belongs.id}), not {ruleset.name!r} ({ruleset.id})",
                    )
                ]
            )
        carried = {key: copy.deepcopy(value) for key, value in read.carried.items()}
        return cls(
            ruleset,
            read.characters,
            read.player,
            read.live,
            read.clocks,
            MappingProxyType(carried),
            read.layers,
            read.recent,
            read.rolled,
            read.dice_policy,
            read.dice_seed,
            read.turn,
            read.party_sheet,
            read.party_revision,
            read.fight,
            read.gm_bosses,
            read.inventory,
        )

    def to_document(self) -> dict[str, Any]:
        """The game as a JSON-ready document. Live state is stored sparsely, and keys with
        nothing in them are left out."""
        document = {key: copy.deepcopy(value) for key, value in self.carried.items()}
        if self.ruleset is not None:
            document["gameRuleset"] = {
                "id": self.ruleset.id,
                "name": self.ruleset.name,
                "fingerprint": self.ruleset.fingerprint,
            }
        if self.characters:
            document["gameCharacterCards"] = [character.to_card() for character in self.characters]
        if self.player is not None:
            document["gamePlayer"] = self.player
        if self.layers:
            document["rulesetLayers"] = list(self.layers)
        if self.recent:
            document["gameRecentOutcomes"] = list(self.recent)
        if self.rolled:
            document["gameRecentChecks"] = list(self.rolled)
        if self.party_sheet is not None:
            document["gamePartySheet"] = self.party_sheet.to_json()
        if self.party_revision:
            document["gamePartySheetRevision"] = self.party_revision
        # The message count matters only for dice kept per message.
        if self.dice_policy == "keep":
            document["gameDice"] = {"policy": self.dice_policy, "seed": self.dice_seed}
            document["gameTurn"] = self.turn
        live = {key: state.to_json() for key, state in self.live.items() if not state.empty}
        if live:
            document["rulesetLive"] = live
        if self.fight is not None:
            document["rulesetFight"] = self.fight.to_json()
        if self.gm_bosses:
            document["gameGmBosses"] = True
        document.update(self.inventory.to_document())
        if self.clocks:
            document["rulesetClocks"] = [
                {"name": clock.name, "size": clock.size, "filled": clock.filled}
                for clock in self.clocks
            ]
        return document

    # New states -------------------------------------------------------------------------------

    @cached_property
    def names(self) -> NameIndex:
        """Built on first use; a state evolved from this one (same cards) keeps it."""
        return NameIndex([character.key for character in self.characters])

    def _evolve(self, **changes: Any) -> Self:
        """A copy with `changes` to fields `__post_init__` does not read (characters and layers
        are not among them, so it is skipped). Every command makes one of these, and this costs
        a tenth of `dataclasses.replace`."""
        evolved = object.__new__(type(self))
        evolved.__dict__.update(self.__dict__, **changes)
        return evolved

    def dice_for_reply(self, seed: int | str | None = None, *, read_again: bool = False) -> Dice:
        """The dice a reply to this state throws; `read_again`: those a stored reply read again
        throws past the faces it kept (`chats.cut.thrown_again`). Under `keep` those are seeded
        apart from the reply's own, which threw the faces kept: an extra die would throw the
        reply's first face again."""
        if seed is not None:
            return Dice(seed)
        if self.dice_policy == "keep":
            return Dice(f"{self.dice_seed}:{self.turn}" + (":again" if read_again else ""))
        return Dice()


S = TypeVar("S", bound=GameState)


class Draft(StateReads, Generic[S]):
    """The working copy of a state that one reply's commands change, in place: no new state per
    command. `freeze()` gives the state the reply leaves (the draft is done with then);
    `checkpoint()` and `restore()` let a command that fails half-way cost that command only."""

    def __init__(self, base: S) -> None:
        self.base = base
        self.ruleset = base.ruleset
        self.characters = base.characters
        self.player = base.player
        self.live: dict[str, LiveState] = dict(base.live)
        self.clocks = base.clocks
        self.party_sheet = base.party_sheet
        self.party_revision = base.party_revision
        self.fight = base.fight
        self.gm_bosses = base.gm_bosses
        self.inventory = base.inventory
        # What each change replaced, so a command that fails half-way can be undone.
        self._undo: list[tuple[str, str, Any]] = []
        # An upper bound of each live entry's stored bytes, taken from the first live write on,
        # and their sum: the exact size is measured only when the sum nears the limit.
        self._bounds: dict[str, int] | None = None
        self._bounded = 0

    @property
    def names(self) -> NameIndex:
        return self.base.names  # a reply's commands change no card

    def set_clocks(self, clocks: tuple[Clock, ...]) -> None:
        self._undo.append(("clocks", "", self.clocks))
        self.clocks = clocks

    def set_fight(self, fight: Encounter | None) -> None:
        self._undo.append(("fight", "", self.fight))
        self.fight = fight

    def set_live(self, key: str, state: LiveState) -> None:
        self._undo.append(("live", key, self.live.get(key)))
        self.live[key] = state

    def set_party_live(self, state: LiveState) -> None:
        self.set_live(PARTY_KEY, state)

    def set_inventory(self, inventory: Inventory) -> None:
        """What the party carries changed: stored, and each character's held items with it."""
        self._undo.append(("inventory", "", (self.inventory, self.characters)))
        self.characters = self._holding(inventory)
        self.inventory = inventory

    def set_party_field(self, field_id: str, value: Any) -> None:
        """The story changed a party field: stored, and the revision raised."""
        self._undo.append(("party", "", (self.party_sheet, self.party_revision)))
        self.party_sheet = _with_field(self.party_sheet, field_id, value)
        self.party_revision += 1

    def checkpoint(self) -> int:
        return len(self._undo)

    def restore(self, checkpoint: int) -> None:
        """Undo every change made since `checkpoint`."""
        reverted = set()
        while len(self._undo) > checkpoint:
            what, key, before = self._undo.pop()
            if what == "clocks":
                self.clocks = before
            elif what == "fight":
                self.fight = before
            elif what == "party":
                self.party_sheet, self.party_revision = before
            elif what == "inventory":
                self.inventory, self.characters = before
            else:
                reverted.add(key)
                if before is None:
                    del self.live[key]
                else:
                    self.live[key] = before
        self._rebound(reverted)

    def over_bounds(self, checkpoint: int) -> str | None:
        """Why the live state the changes since `checkpoint` left cannot be stored (the Engine's
        bounds on it), or None when it can."""
        first: dict[str, LiveState | None] = {}
        for what, key, before in self._undo[checkpoint:]:
            if what == "live":
                first.setdefault(key, before)
        if not first:
            return None
        self._rebound(set(first))
        added = any(
            (before is None or before.empty) and not self.live[key].empty
            for key, before in first.items()
            if key in self.live
        )
        if added or self._bounded > MOST_LIVE_BYTES:
            return over_bounds(self.live, added)
        return None

    def _rebound(self, keys: set[str]) -> None:
        if self._bounds is None:
            if not keys:
                return
            self._bounds = {key: entry_bytes_bound(key, state) for key, state in self.live.items()}
            self._bounded = 2 + sum(self._bounds.values()) + len(self._bounds)
            return
        for key in keys:
            state = self.live.get(key)
            bound = entry_bytes_bound(key, state) if state is not None else 0
            self._bounded += bound - self._bounds.get(key, 0)
            self._bounds[key] = bound

    def freeze(self, **changes: Any) -> S:
        """The state this draft has come to (with `changes` to the fields a draft does not hold,
        such as what the next reminder must say)."""
        return self.base._evolve(
            live=MappingProxyType(self.live),
            clocks=self.clocks,
            party_sheet=self.party_sheet,
            party_revision=self.party_revision,
            fight=self.fight,
            inventory=self.inventory,
            characters=self.characters,
            **changes,
        )


def draft_of(state: StateReads) -> Draft[Any]:
    """`state` as the draft the engine writes to; a snapshot is never written to."""
    if not isinstance(state, Draft):
        kind = type(state).__name__
        raise TypeError(f"the engine writes only to a reply's Draft, never to a {kind}")
    return state
