"""A turn as a reviewer reads it: the rewritten reply, the narration, a receipts table (a check's
receipt says how it was thrown), and what the reply changed (each character's sheet block, the
party block and the clocks, line by line, before and after). Nothing volatile: no ids, times or
seeds.

    === narration ===
    The guard turns. Footsteps.
    === receipts ===
    clock  ok       3/6          [clock: name="Alarm raised" tick="1"]
    === changed ===
    clocks
      - Alarm raised 2/6
      + Alarm raised 3/6
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..game import Game
from ..pipeline import Turn
from ..prompt.party_block import party_block
from ..ruleset import Ruleset, load_ruleset


@dataclass(frozen=True)
class PlayedTurn:
    """A reply applied: the game before it, the reply as written, and the turn."""

    before: Game
    text: str
    turn: Turn[Game]

    @property
    def game(self) -> Game:
        return self.turn.game


@dataclass
class TestGame:
    """A game under test: `play(reply)` applies a reply to the current snapshot with a fixed
    seed (the same reply, ruleset and game always throw the same dice) and moves on to the
    snapshot it left."""

    game: Game
    seed: int | str = 0
    played: list[PlayedTurn] = field(default_factory=list)

    __test__ = False  # not a test class, whatever pytest thinks of its name

    @classmethod
    def of(
        cls,
        ruleset: str | Path | Mapping[str, Any] | Ruleset,
        game: str | Path | Mapping[str, Any] | None = None,
        *,
        characters: list[Mapping[str, Any]] | None = None,
        seed: int | str = 0,
    ) -> TestGame:
        """A game from a ruleset (a file, a package folder, its JSON, or one loaded) and a game
        document (a file or its JSON), or new with `characters` (character cards as a game
        document holds them), or new."""
        loaded = ruleset if isinstance(ruleset, Ruleset) else load_ruleset(_source(ruleset))
        if game is None and characters is None:
            return cls(Game.new(loaded), seed)
        document: dict[str, Any] = {}
        if game is not None:
            document = (
                json.loads(Path(game).read_text(encoding="utf-8"))
                if isinstance(game, (str, Path))
                else dict(game)
            )
        if characters is not None:
            document["gameCharacterCards"] = [dict(card) for card in characters]
        return cls(Game.from_document(loaded, document), seed)

    def play(self, reply: str) -> PlayedTurn:
        """Apply `reply` (the n-th reply of this game throws with seed `{seed}:{n}`)."""
        seed = f"{self.seed}:{len(self.played)}"
        played = PlayedTurn(self.game, reply, self.game.apply_reply(reply, seed=seed))
        self.played.append(played)
        self.game = played.game
        return played


def _source(ruleset: str | Path | Mapping[str, Any]) -> str | Path | dict[str, Any]:
    return dict(ruleset) if isinstance(ruleset, Mapping) else ruleset


def render(played: PlayedTurn) -> str:
    turn = played.turn
    lines = ["=== reply ===", turn.reply, "=== narration ===", turn.narration, "=== receipts ==="]
    lines += _receipts(turn) or ["(no tags)"]
    lines.append("=== changed ===")
    lines += _changed(played.before, turn.game) or ["(nothing)"]
    return "\n".join(lines) + "\n"


def _receipts(turn: Turn[Game]) -> list[str]:
    rows = [
        (r.family, r.result, r.now or (r.reason.value if r.reason else ""), r.written, r.detail)
        for r in turn.receipts
    ]
    if not rows:
        return []
    widths = [max(_width(row[column]) for row in rows) for column in range(3)]
    lines = []
    for family, result, outcome, written, detail in rows:
        cells = (_padded(family, widths[0]), _padded(result, widths[1]))
        lines.append(f"{'  '.join((*cells, _padded(outcome, widths[2])))}  {written}")
        if result == "refused" and detail:
            lines.append(f"{' ' * (widths[0] + widths[1] + 4)}({detail})")
    return lines


def _width(text: str) -> int:
    """How many columns `text` takes in a terminal: wide for CJK, none for combining marks."""
    return sum(
        0
        if unicodedata.combining(c) or unicodedata.category(c) == "Mc"
        else 2
        if unicodedata.east_asian_width(c) in "WF"
        else 1
        for c in text
    )


def _padded(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def _changed(before: Game, after: Game) -> list[str]:
    lines: list[str] = []
    for character in after.characters:
        old = before.sheet_block(character.name) if before.ruleset else ""
        lines += _section(character.name, old, after.sheet_block(character.name))
    lines += _section("party", party_block(before), party_block(after))
    lines += _section("clocks", _clocks(before), _clocks(after))
    return lines


def _clocks(game: Game) -> str:
    return "\n".join(
        f"{clock.name} {clock.fill}{' (finished)' if clock.done else ''}" for clock in game.clocks
    )


def _section(title: str, old: str, new: str) -> list[str]:
    """The lines that differ, as `- old` and `+ new` under `title`; nothing when none does."""
    if old == new:
        return []
    lines = [title]
    matcher = difflib.SequenceMatcher(a=old.splitlines(), b=new.splitlines(), autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag != "equal":
            lines += [f"  - {line}" for line in old.splitlines()[a0:a1]]
            lines += [f"  + {line}" for line in new.splitlines()[b0:b1]]
    return lines
