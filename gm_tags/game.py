"""The game, for people and programs that use gm-tags: a game state (`gm_tags.state`) with the
convenience API on top. Applying a reply returns a new game and leaves this one as it was, so
regenerating a reply or choosing a swipe is a choice of game."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any, NamedTuple

from .checks.record import CheckRecord, CheckRequest
from .checks.run import Untrained
from .commands.sheet import RestCommand, SheetCommand, StateCommand
from .dice import Dice
from .engine.checks import roll
from .engine.outcome import Outcome
from .engine.sheet import run_sheet
from .engine.wounds import set_box
from .errors import GmTagsError, Problem
from .families.registry import taught
from .party import party_of, party_problems
from .pipeline import Turn, process
from .prompt.inventory import inventory_lines
from .prompt.reminder import reminder
from .prompt.sheet_block import sheet_block
from .prompt.system import SystemPrompt, TokenCounter, estimate_tokens, system_prompt, world_prompt
from .reasons import Reason
from .sheet.build import Build
from .sheet.columns import ColumnRollError, roll_cell
from .sheet.live import over_bounds
from .sheet.pickers import StateChoice, state_choices
from .state import Draft, GameState, UnknownCharacterError, layer_ids
from .stream import ReplyStream

__all__ = [
    "CheckNamesNothingError",
    "CheckRefused",
    "ColumnRoll",
    "Game",
    "PartySave",
    "SheetEdit",
    "UnknownCharacterError",
    "UnknownDifficultyError",
    "layer_ids",
]


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


class CheckNamesNothingError(GmTagsError):
    """A check on a dice-pool ruleset whose `who` or `skill` names nothing. `code` is
    `unknown_character` or `unknown_skill`, which an HTTP layer answers with a 400."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.code = reason.replace("-", "_")


class UnknownDifficultyError(GmTagsError):
    """A check without a dc whose difficulty names no step of the ruleset's ladder. `code` is the
    Engine's `skill_check_difficulty_unknown`, which an HTTP layer answers with a 400."""

    code = "skill_check_difficulty_unknown"


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


class Game(GameState):
    """A game state with the convenience API on top: applying replies, rests, boxes, checks,
    party saves and the blocks the model reads. Every method returns new states; the state
    itself (`gm_tags.state.GameState`) is what the stages below read and return."""

    def rest(self, rest: str, who: str | None = None) -> SheetEdit:
        """Take a rest (by id or label) for one character, the player's by default, or for
        every character with `who="party"`, as `[sheet: op="rest"]` does."""
        return self._edit(RestCommand(who, "rest", (("rest", rest),), rest))

    def set_state(self, who: str | None, state: str, value: str) -> SheetEdit:
        """Set a live state (by id or label) to one of its values, as a sheet screen's picker
        does, under the same rules as `[sheet: op="state"]`."""
        request = (("state", state), ("value", value))
        return self._edit(StateCommand(who, "state", request, state, value))

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
        draft = Draft(self)
        draft.set_live(character.key, result[0])
        return self._bounded(SheetEdit(draft.freeze(), result[1], None))

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
        rolled = roll(self, request, self.dice_for_reply(seed))
        if isinstance(rolled, Outcome):
            if rolled.reason is Reason.UNKNOWN_DIFFICULTY:
                raise UnknownDifficultyError(rolled.detail)
            raise CheckNamesNothingError(str(rolled.reason), rolled.detail)
        if isinstance(rolled.result, Untrained):
            raise CheckRefused(rolled.result.skill, rolled.result.who or rolled.result.character)
        return rolled.result

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
        draft = Draft(self)
        outcome = run_sheet(command, draft)
        game = self if outcome.reason is not None else draft.freeze()
        return self._bounded(SheetEdit(game, outcome.now, outcome.reason, outcome.detail))

    def _bounded(self, edit: SheetEdit) -> SheetEdit:
        """`edit`, or its refusal when the live state it leaves could not be stored."""
        if edit.game is self or edit.game.live == self.live:
            return edit
        full = over_bounds(edit.game.live)
        if full is None:
            return edit
        return SheetEdit(self, None, Reason.LIVE_STATE_FULL, full)

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
        saved = self._evolve(party_sheet=build, party_revision=self.party_revision + 1)
        return PartySave(saved, True, saved.party_values().to_json(), dict(draft), ())

    def reminder(self) -> str:
        """The per-turn reminder: last turn's refusals, the commands and their limits, the check,
        the clocks, `gm.sheetGuidance` and a sheet block per character."""
        return reminder(self, taught(self))

    def sheet_block(self, who: str | None = None) -> str:
        """One character's sheet block as the reminder writes it."""
        if self.ruleset is None:
            return ""
        character = self.character(who)
        live = self.live_of(character)
        return sheet_block(self.ruleset, character, live, inventory_lines(self, character))

    def system_prompt(
        self, budget: int | None = None, count: TokenCounter = estimate_tokens
    ) -> SystemPrompt:
        """The stable system section; with a token `budget`, the rules reference is cut to fit."""
        return system_prompt(self.ruleset, budget, count)

    def world_prompt(self) -> str:
        """What the world set-up prompt adds (`gm.worldGuidance`); never part of a turn."""
        return world_prompt(self.ruleset)

    def apply_reply(self, reply: str, *, seed: int | str | None = None) -> Turn[Game]:
        """Run every command tag in `reply`, in order, rolling its checks with the engine's dice
        (`seed` makes them exact; otherwise the game's dice policy decides). Never raises for
        anything `reply` holds."""
        return process(self, reply, self.dice_for_reply(seed))

    def stream(
        self, *, seed: int | str | None = None, continues: bool = False
    ) -> ReplyStream[Game]:
        """A reply to read as it streams in: `feed(chunk)` applies each tag as it closes and
        returns the narration that became safe to show; `finish()` returns the rest and the
        turn, the same as `apply_reply` (or `continue_reply`, when `continues`) on the whole."""
        return ReplyStream(self, self.dice_for_reply(seed), continues=continues)

    def continue_reply(self, more: str, *, seed: int | str | None = None) -> Turn[Game]:
        """Run the command tags in `more`, text the model wrote to continue the reply that left
        this snapshot: as `apply_reply`, but what the next reminder must hear of that reply
        (its refusals and checks) is kept, and the continuation's added to it."""
        return process(self, more, self.dice_for_reply(seed), continues=True)
