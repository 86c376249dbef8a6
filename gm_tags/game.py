"""The game snapshot: an immutable value. Applying a reply returns a new one and leaves this one
as it was, so regenerating a reply or choosing a swipe is a choice of snapshot."""

from __future__ import annotations

import copy
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, NamedTuple

from .checks.record import CheckRecord, CheckRequest
from .checks.run import Untrained, roll_check, unknown_difficulty
from .commands.sheet import RestCommand, SheetCommand
from .dice import Dice
from .engine.clocks import Clock
from .engine.outcome import Outcome
from .engine.pools import PoolSlot
from .engine.sheet import run_sheet
from .engine.wounds import set_box
from .errors import GmTagsError, Problem
from .game_document import PARTY_KEY, read_document
from .names import normalize_name
from .party import party_of, party_pools, party_problems, party_value, with_members
from .pipeline import Turn, process
from .prompt.reminder import reminder
from .prompt.sheet_block import sheet_block
from .prompt.system import SystemPrompt, TokenCounter, estimate_tokens, system_prompt, world_prompt
from .reasons import Reason
from .ruleset import Ruleset
from .ruleset.refs import ValueRef
from .sheet.arithmetic import Number
from .sheet.build import Build
from .sheet.character import Character, SheetView
from .sheet.columns import ColumnRollError, roll_cell
from .sheet.live import LiveState
from .sheet.pickers import StateChoice, state_choices
from .text import lone_surrogate_at

EMPTY: Mapping[str, Any] = MappingProxyType({})


def layer_ids(ruleset: Ruleset | None) -> set[str]:
    if ruleset is None:
        return set()
    return {layer.id for layer in ruleset.definition.layers or ()}


def removed_values(
    ruleset: Ruleset | None, layers: tuple[str, ...]
) -> Mapping[str, frozenset[Any]]:
    """The enum values the game's layers take out, by field."""
    removed: dict[str, set[Any]] = {}
    for layer in (ruleset.definition.layers or ()) if ruleset is not None else ():
        if layer.id in layers:
            for entry in layer.remove_values or ():
                removed.setdefault(entry.field, set()).update(entry.values)
    return MappingProxyType({key: frozenset(values) for key, values in removed.items()})


class ColumnRoll(NamedTuple):
    """A roll column thrown: the new snapshot (the cell written), the faces, and the total."""

    game: Game
    rolls: tuple[int, ...]
    total: int


class PartySave(NamedTuple):
    """What saving the shared sheet came to. `game` is the new snapshot when `saved`, else the
    same one; `sheet` is the sheet as it stands after (the newer one when the draft was refused);
    `draft` is the player's draft, kept either way; `problems` say why a draft was refused for
    its values (empty when it was refused for being out of date)."""

    game: Game
    saved: bool
    sheet: dict[str, Any]
    draft: dict[str, Any]
    problems: tuple[Problem, ...]


class CheckRefused(GmTagsError):
    """A check the character cannot attempt untrained. `code` is `skill_check_untrained`, which an
    HTTP layer answers with a 400."""

    code = "skill_check_untrained"

    def __init__(self, skill: str, who: str | None) -> None:
        self.skill, self.who = skill, who
        super().__init__(f"{who or 'the character'} cannot attempt {skill} untrained")


class UnknownDifficultyError(GmTagsError):
    """A check without a dc whose difficulty names no step of the ruleset's ladder. `code` is
    `unknown_difficulty`, which an HTTP layer answers with a 400."""

    code = "unknown_difficulty"


class UnknownCharacterError(GmTagsError, LookupError):
    """A name that matches no character, or more than one."""


class SheetEdit(NamedTuple):
    """What an edit made outside a reply came to: the new snapshot (the same one when refused),
    and the `now` or the refusal, as a receipt would say them."""

    game: Game
    now: str | None
    reason: Reason | None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.reason is None


@dataclass(frozen=True)
class Game:
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

    def __post_init__(self) -> None:
        if not self.layers and not any(c.build.removed for c in self.characters):
            return
        removed = removed_values(self.ruleset, self.layers)
        characters = tuple(
            character
            if character.build.removed == removed
            else replace(character, build=replace(character.build, removed=removed))
            for character in self.characters
        )
        if characters != self.characters:
            object.__setattr__(self, "characters", characters)

    @classmethod
    def new(
        cls,
        ruleset: Ruleset | None,
        characters: Mapping[str, Mapping[str, Any] | None] | None = None,
        player: str | None = None,
        layers: tuple[str, ...] | list[str] = (),
        dice_policy: str = "reroll",
        dice_seed: int | None = None,
    ) -> Game:
        """A game nothing has happened in yet. `characters` maps each name to a build in the
        Engine's shape (`abilities`, `skills`, `saves`, `bonuses`, `fields`, `lists`), or to None
        for a character nobody made a sheet for (it plays on the blank build). `layers` are the
        ids of the ruleset's layers this game plays with."""
        unstorable = lone_surrogate_at(dict(characters or {}), "characters")
        if unstorable:
            raise GmTagsError(f"{unstorable[0]} {unstorable[1]}")
        unknown = [layer for layer in layers if layer not in layer_ids(ruleset)]
        if unknown:
            raise GmTagsError(f"the ruleset has no layer {unknown[0]!r}")
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
        )

    @classmethod
    def from_document(cls, ruleset: Ruleset | None, document: Mapping[str, Any]) -> Game:
        """A game from its JSON document; raises `GameDocumentError` listing every problem."""
        read = read_document(document, layer_ids(ruleset))
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
        )

    def to_document(self) -> dict[str, Any]:
        """The game as a JSON-ready document. Live state is stored sparsely, and keys with
        nothing in them are left out."""
        document = {key: copy.deepcopy(value) for key, value in self.carried.items()}
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
        if self.clocks:
            document["rulesetClocks"] = [
                {"name": clock.name, "size": clock.size, "filled": clock.filled}
                for clock in self.clocks
            ]
        return document

    # Characters ------------------------------------------------------------------------------

    @property
    def player_character(self) -> Character | None:
        """The card a command without `who=` means: the one named `player`, else the first."""
        if self.player is not None:
            key = normalize_name(self.player)
            named = next((c for c in self.characters if c.key == key), None)
            if named is not None:
                return named
        return self.characters[0] if self.characters else None

    def character(self, who: str | None = None) -> Character:
        """The character `who` names (the player's when None), as `who=` is matched; raises
        `UnknownCharacterError` for a name that matches none, or two that are not the player's."""
        if who is None:
            found = self.player_character
            if found is None:
                raise UnknownCharacterError("this game has no characters")
            return found
        key = normalize_name(who)
        matches = [character for character in self.characters if character.key == key]
        if len(matches) == 1:
            return matches[0]
        player = self.player_character
        if matches and player is not None and player.key == key:
            return player
        problem = "matches no character" if not matches else "is shared by several characters"
        raise UnknownCharacterError(f"{who!r} {problem}")

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

    # New snapshots ---------------------------------------------------------------------------

    def _evolve(self, **changes: Any) -> Game:
        """A copy with `changes` to fields `__post_init__` does not read (characters and layers
        are not among them, so it is skipped). Every command makes one of these, and this costs
        a tenth of `dataclasses.replace`."""
        evolved = object.__new__(Game)
        evolved.__dict__.update(self.__dict__, **changes)
        return evolved

    def with_clocks(self, clocks: tuple[Clock, ...]) -> Game:
        return self._evolve(clocks=clocks)

    def with_live(self, key: str, state: LiveState) -> Game:
        live = dict(self.live)
        live[key] = state
        return self._evolve(live=MappingProxyType(live))

    def rest(self, rest: str, who: str | None = None) -> SheetEdit:
        """Take a rest (by id or label) for one character, the player's by default, or for
        every character with `who="party"`, as `[sheet: op="rest"]` does."""
        return self._edit(RestCommand(who, "rest", (("rest", rest),), rest))

    def set_box(self, who: str | None, track: str, box: int, kind: str | None) -> SheetEdit:
        """Mark (`kind`) or clear (`kind=None`) one box of a wound track by hand, as a player
        does on the sheet screen, under the same rules as the command."""
        if self.ruleset is None:
            return SheetEdit(self, None, Reason.NO_SHEET, "this game has no ruleset")
        try:
            character = self.character(who)
        except UnknownCharacterError as error:
            return SheetEdit(self, None, Reason.UNKNOWN_CHARACTER, str(error))
        result = set_box(self.ruleset, character, self.live_of(character), track, box, kind)
        if isinstance(result, Outcome):
            return SheetEdit(self, None, result.reason, result.detail)
        return SheetEdit(self.with_live(character.key, result[0]), result[1], None)

    def check(
        self,
        who: str | None,
        skill: str,
        *,
        dc: int | None = None,
        difficulty: str | None = None,
        with_: str | None = None,
        mode: str | None = None,
        threshold: int | None = None,
        bonus: int | None = None,
        seed: int | str | None = None,
    ) -> CheckRecord:
        """Roll a check for one character as the sheet stands now and return its record; the
        game is not changed. Raises `CheckRefused` (code `skill_check_untrained`) when the
        character cannot attempt it untrained, and `GmTagsError` without a dc or difficulty."""
        if self.ruleset is None:
            raise GmTagsError("a game without a ruleset has no checks to roll")
        if dc is None and difficulty is None:
            raise GmTagsError("a check needs a dc or a difficulty from the ladder")
        request = CheckRequest(skill, dc, difficulty, who, with_, mode, threshold, bonus)
        unknown = unknown_difficulty(self.ruleset.definition.resolution, request)
        if unknown:
            raise UnknownDifficultyError(unknown)
        try:
            character: Character | None = self.character(who)
        except UnknownCharacterError:
            character = None
        live = self.live_of(character) if character is not None else LiveState()
        record, _ = roll_check(self.ruleset, character, live, request, self.dice_for_reply(seed))
        if isinstance(record, Untrained):
            raise CheckRefused(record.skill, record.who or record.character)
        return record

    def states(self, who: str | None = None) -> list[StateChoice]:
        """Each live state the character's sheet shows, with its values, their labels and the
        value it holds now: what a sheet screen's pickers offer."""
        if self.ruleset is None:
            return []
        character = self.character(who)
        return state_choices(self.ruleset, character, self.live_of(character))

    def roll_column(
        self,
        who: str | None,
        list_id: str,
        row: int | str,
        column: str,
        *,
        seed: int | str | None = None,
    ) -> ColumnRoll:
        """Throw the dice of a roll column for one row (by position, or by the text in its first
        text column) and write the total, held to the column's range. Raises `ColumnRollError`
        when the sheet has no such list, row or roll column."""
        if self.ruleset is None:
            raise ColumnRollError("a game without a ruleset has no sheets")
        character = self.character(who)
        rolled = roll_cell(
            self.ruleset, character, self.live_of(character), list_id, row, column, Dice(seed)
        )
        characters = tuple(rolled.character if c is character else c for c in self.characters)
        return ColumnRoll(replace(self, characters=characters), rolled.rolls, rolled.total)

    def _edit(self, command: SheetCommand) -> SheetEdit:
        game, outcome = run_sheet(command, self)
        return SheetEdit(game, outcome.now, outcome.reason, outcome.detail)

    # The party sheet ----------------------------------------------------------------------

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

    def with_party_live(self, state: LiveState) -> Game:
        return self.with_live(PARTY_KEY, state)

    def with_party_field(self, field_id: str, value: Any) -> Game:
        """The story changed a party field: stored, and the revision raised."""
        stored = (self.party_sheet or Build()).to_json()
        stored.setdefault("fields", {})[field_id] = value
        build = Build(MappingProxyType(stored))
        return replace(self, party_sheet=build, party_revision=self.party_revision + 1)

    def save_party_sheet(self, draft: Mapping[str, Any], opened_at_revision: int) -> PartySave:
        """Save a player's draft of the shared sheet (`{"fields": ..., "lists": ...}`), opened
        at `opened_at_revision`. A draft opened before another save (or a change the story made)
        landed is refused: the newer sheet comes back and the draft is kept. A draft with values
        the sheet cannot hold is refused whole, with every problem. Nothing is half-applied."""
        party = party_of(self.ruleset)
        if party is None:
            raise GmTagsError("this ruleset has no party sheet")
        if opened_at_revision != self.party_revision:
            return PartySave(self, False, self.party_values().to_json(), dict(draft), ())
        problems = party_problems(party, draft)
        if problems:
            return PartySave(self, False, self.party_values().to_json(), dict(draft), problems)
        build = Build(MappingProxyType(copy.deepcopy(dict(draft))))
        saved = replace(self, party_sheet=build, party_revision=self.party_revision + 1)
        return PartySave(saved, True, saved.party_values().to_json(), dict(draft), ())

    def after_reply(self, refused: tuple[str, ...], rolled: tuple[str, ...]) -> Game:
        """The snapshot a reply leaves: one message further on, with what the Game Master must
        hear next turn (what did not happen, and how each check came out)."""
        return self._evolve(recent=refused, rolled=rolled, turn=self.turn + 1)

    def dice_for_reply(self, seed: int | str | None = None) -> Dice:
        if seed is not None:
            return Dice(seed)
        if self.dice_policy == "keep":
            return Dice(f"{self.dice_seed}:{self.turn}")
        return Dice()

    # What the model reads -------------------------------------------------------------------

    def reminder(self) -> str:
        """The per-turn reminder: last turn's refusals, the commands and their limits, the check,
        the clocks, `gm.sheetGuidance` and a sheet block per character."""
        return reminder(self)

    def sheet_block(self, who: str | None = None) -> str:
        """One character's sheet block as the reminder writes it."""
        if self.ruleset is None:
            return ""
        character = self.character(who)
        return sheet_block(self.ruleset, character, self.live_of(character))

    def system_prompt(
        self, budget: int | None = None, count: TokenCounter = estimate_tokens
    ) -> SystemPrompt:
        """The stable system section; with a token `budget`, the rules reference is cut to fit."""
        return system_prompt(self.ruleset, budget, count)

    def world_prompt(self) -> str:
        """What the world set-up prompt adds (`gm.worldGuidance`); never part of a turn."""
        return world_prompt(self.ruleset)

    def apply_reply(self, reply: str, *, seed: int | str | None = None) -> Turn:
        """Run every command tag in `reply`, in order, rolling its checks with the engine's dice
        (`seed` makes them exact; otherwise the game's dice policy decides). Never raises for
        anything `reply` holds."""
        return process(self, reply, self.dice_for_reply(seed))

    def continue_reply(self, more: str, *, seed: int | str | None = None) -> Turn:
        """Run the command tags in `more`, text the model wrote to continue the reply that left
        this snapshot: as `apply_reply`, but what the next reminder must hear of that reply
        (its refusals and checks) is kept, and the continuation's added to it."""
        return process(self, more, self.dice_for_reply(seed), continues=True)
