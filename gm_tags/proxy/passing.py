"""An answer the proxy takes no turn from (a front-end's impersonate, a request with no story),
read as a turn's answer is, so no tag the model wrote reaches the player: each choice's text goes
through a stream that applies none of its tags (each refused `not-applied`; a check's branches
both go, since nothing was thrown), and nothing is written. Streamed or not, on every protocol,
the answer's shape is checked as a turn's is."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import Game
from ..pipeline import Turn
from ..stream import ReplyStream
from .chats import not_stored
from .turns import ended_turn


class PassedTurn:
    """One passed-on answer's choices, read and never written (`turns.AnswerTurn`)."""

    opening = ""

    def __init__(self, game: Game, action: str, why: str, *, choices: int = 1) -> None:
        self.action, self.why = action, why
        self.streams: Sequence[ReplyStream[Game]] = [
            ReplyStream(game, applies=False) for _ in range(choices)
        ]
        self._turns: list[Turn[Game]] = []

    def land(self, stopped: bool) -> None:
        """The choices end (`stopped`: as far as they were shown); nothing is written."""
        if not self._turns:
            self._turns = [ended_turn(stream, stopped) for stream in self.streams]

    def given_out(self) -> None:
        """Nothing is written: what reached the client changes nothing."""

    def settle(self) -> None:
        """Nothing waits for an answer that writes nothing."""

    def narration(self, index: int) -> str | None:
        """Choice `index`'s text without its tags (None when it has no text: a tool call)."""
        self.land(False)
        return self._turns[index].narration if self.streams[index].text else None

    def games_after(self) -> Sequence[Game]:
        return ()  # nothing landed

    def shown_after(self, index: int) -> str:
        return ""

    def summary(self, stopped: bool) -> dict[str, Any]:
        """`gm_tags`: what was passed on and why, and what the client got of each choice
        (the model's text with each tag refused `not-applied`, the narration, the receipts)."""
        self.land(stopped)
        said = {**not_stored(self.action, self.why), **_told(self._turns[0]), "stopped": stopped}
        if len(self._turns) > 1:
            said["choices"] = [
                {"index": index, **_told(turn)} for index, turn in enumerate(self._turns)
            ]
        return said


def _told(turn: Turn[Game]) -> dict[str, Any]:
    return {
        "reply": turn.reply,
        "narration": turn.narration,
        "receipts": [receipt.to_dict() for receipt in turn.receipts],
    }
