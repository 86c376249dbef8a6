"""A state machine drives Gravewatch's Harm track (knock and tear, scars adding levels) with
random marks, heals, boxes by hand, scar edits and rests, against a reference model written here
from the page, checking the track after every step."""

from __future__ import annotations

import json

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from gm_tags import Game
from gm_tags.engine.wounds import wound_track
from gm_tags.sheet.live import Wounds
from tests.sheet.conftest import ruleset_named

GRAVEWATCH = ruleset_named("gravewatch")
SEVERITY = {"knock": 0, "tear": 1}
BASE = [("Scuffed", 0), ("Winded", -1), ("Bleeding", -3), ("Down", -99)]
kinds = st.sampled_from(["knock", "tear"])


def reference_levels(scars: list[tuple[int, int]]) -> list[tuple[str, int]]:
    levels = list(BASE)
    for count, penalty in scars:
        after = (
            max(i for i, (_, p) in enumerate(levels) if p >= penalty)
            if any(p >= penalty for _, p in levels)
            else -1
        )
        same = [label for label, p in levels if p == penalty]
        label = same[0] if same else f"{penalty:+d}" if penalty else "0"
        levels[after + 1 : after + 1] = [(label, penalty)] * count
    return levels


class HarmTrack(RuleBasedStateMachine):
    @initialize()
    def start(self) -> None:
        self.scars: list[tuple[int, int]] = []
        self.marks: list[str] = []
        self.overflow = 0
        self.game = self._game(Game.new(GRAVEWATCH, {"Mira": {}}).to_document())

    def _game(self, document: dict[str, object]) -> Game:
        build = {
            "lists": {
                "scars": [
                    {"name": f"s{n}", "levels": c, "penalty": p}
                    for n, (c, p) in enumerate(self.scars)
                ]
            }
        }
        document = {
            **document,
            "gameCharacterCards": [{"name": "Mira", "rulesetSheet": {"v": 1, "build": build}}],
        }
        return Game.from_document(GRAVEWATCH, document)

    @property
    def capacity(self) -> int:
        return len(reference_levels(self.scars))

    def _settle(self) -> None:
        if len(self.marks) > self.capacity:
            self.overflow += len(self.marks) - self.capacity
            del self.marks[self.capacity :]

    def _command(self, body: str) -> None:
        turn = self.game.apply_reply(f'[sheet: op="damage" track="harm" {body}]')
        assert turn.receipts[0].ok, turn.receipts[0]
        self.game = turn.game

    @rule(kind=kinds, amount=st.integers(1, 6))
    def mark(self, kind: str, amount: int) -> None:
        self._settle()
        for _ in range(amount):
            if len(self.marks) < self.capacity:
                self.marks = sorted([*self.marks, kind], key=lambda k: -SEVERITY[k])
            elif self.marks and self.marks[-1] == "knock":
                self.marks = sorted([*self.marks[:-1], "tear"], key=lambda k: -SEVERITY[k])
            else:
                self.overflow += 1
        self._command(f'kind="{kind}" amount="{amount}"')

    @rule(kind=st.sampled_from(["knock", "tear", "burn", None]), amount=st.integers(1, 6))
    def heal(self, kind: str | None, amount: int) -> None:
        self._settle()
        for _ in range(amount):
            if self.overflow:
                self.overflow -= 1
            elif kind in SEVERITY:
                if kind not in self.marks:
                    break
                del self.marks[len(self.marks) - 1 - self.marks[::-1].index(kind)]
            elif self.marks:
                self.marks.pop()
        written = f' kind="{kind}"' if kind else ""
        self._command(f'{written} amount="-{amount}"')

    @rule(box=st.integers(1, 12), kind=st.sampled_from(["knock", "tear", None]))
    def by_hand(self, box: int, kind: str | None) -> None:
        edit = self.game.set_box(None, "harm", box, kind)
        if box > self.capacity:
            assert not edit.ok  # refused: it changes nothing, overflow included
            return
        self._settle()
        assert edit.ok, edit
        if kind is None:
            if box <= len(self.marks):
                del self.marks[box - 1]
        elif len(self.marks) < self.capacity:
            self.marks = sorted([*self.marks, kind], key=lambda k: -SEVERITY[k])
        elif self.marks and self.marks[-1] == "knock":
            self.marks = sorted([*self.marks[:-1], "tear"], key=lambda k: -SEVERITY[k])
        else:
            self.overflow += 1
        self.game = edit.game

    @rule(count=st.integers(1, 2), penalty=st.integers(-3, 0))
    def add_scar(self, count: int, penalty: int) -> None:
        if len(self.scars) < 4:
            self.scars.append((count, penalty))
            self.game = self._game(self.game.to_document())

    @rule(data=st.data())
    def remove_scar(self, data: st.DataObject) -> None:
        if self.scars:
            del self.scars[data.draw(st.integers(0, len(self.scars) - 1))]
            self.game = self._game(self.game.to_document())

    @rule(rest=st.sampled_from(["breather", "vigil"]))
    def rest(self, rest: str) -> None:
        self._settle()
        before = len(self.marks)
        if rest == "breather":
            self.marks = [mark for mark in self.marks if mark != "knock"]
        else:
            self.marks, self.overflow = [], 0
        edit = self.game.rest(rest)
        assert edit.ok
        self.game = edit.game
        assert len(self.marks) <= before

    @invariant()
    def matches_the_reference(self) -> None:
        character = self.game.character()
        shape = wound_track(GRAVEWATCH, character, GRAVEWATCH.index.tracks["harm"])
        stored = self.game.live_of(character).wounds.get("harm") or Wounds()
        wounds = shape.settled(stored)
        reference = list(self.marks)
        overflow = self.overflow + max(0, len(reference) - self.capacity)
        reference = reference[: self.capacity]
        assert shape.capacity == self.capacity
        assert list(wounds.marks) == reference
        assert wounds.overflow == overflow >= 0
        assert [SEVERITY[m] for m in wounds.marks] == sorted(
            (SEVERITY[m] for m in wounds.marks), reverse=True
        )
        levels = reference_levels(self.scars)
        expected = levels[len(reference) - 1][1] if reference else 0
        assert self.game.read(None, {"liveTrack": "harm", "read": "penalty"}) == expected

    @invariant()
    def round_trips_through_json(self) -> None:
        document = self.game.to_document()
        again = Game.from_document(GRAVEWATCH, json.loads(json.dumps(document)))
        assert again.to_document() == document


HarmTrack.TestCase.settings = settings(max_examples=60, stateful_step_count=25, deadline=None)
TestHarmTrack = HarmTrack.TestCase
