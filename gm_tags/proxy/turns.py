"""One request's turn on the hop, whatever the protocol: the reply streams (one per choice), and
the turn written once, whether its replies finished or were cut off."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol

from ..chats.plan import Plan
from ..chats.transcript import Said
from ..game import Game
from ..pipeline import Turn
from ..stream import ReplyStream
from .chats import Landed, ProxyChats, not_stored
from .landings import Landing
from .outcomes import outcomes_line


class AnswerTurn(Protocol):
    """What a protocol's relay reads an answer into: a stream per choice, ended once (`land`),
    whether the answer finished or was cut off. A `PendingTurn` writes it;
    `passing.PassedTurn` writes nothing."""

    @property
    def streams(self) -> Sequence[ReplyStream[Game]]: ...

    @property
    def opening(self) -> str:
        """What each choice's narration starts with, for the client."""

    def land(self, stopped: bool) -> object:
        """End the streams (`stopped`: where they were cut off)."""

    def given_out(self) -> None:
        """What the streams were fed so far reached the client: a stop keeps no more (see
        `PendingTurn.given_out`)."""

    def settle(self) -> None:
        """Requests waiting for this answer go on."""

    def summary(self, stopped: bool) -> dict[str, Any]:
        """`gm_tags`, once landed."""

    def narration(self, index: int) -> str | None:
        """Choice `index`'s narration once landed; None: the answer goes as it came."""

    def shown_after(self, index: int) -> str:
        """What the client gets after choice `index`'s narration."""

    def games_after(self) -> Sequence[Game]:
        """The games the turn landed (what the chat's next request plays from)."""


class PendingTurn:
    """One request's turn: written once, whether its replies finished or were cut off. A
    streamed one holds its `landing` (`gm_tags.proxy.landings`) until then."""

    def __init__(
        self,
        chats: ProxyChats,
        named: str | None,
        said: Sequence[Said],
        plan: Plan,
        *,
        choices: int = 1,
        show_outcomes: bool = False,
        opening: str = "",
    ) -> None:
        self.chats, self.named, self.said, self.plan = chats, named, said, plan
        self.show_outcomes = show_outcomes
        # What each choice's narration starts with, for the client (`transcript.opening`).
        self.opening = opening
        self._continues = plan.action == "continue"
        self._dice = [plan.game.dice_for_reply() for _ in range(choices)]
        self.streams = [
            ReplyStream(plan.game, dice, continues=self._continues) for dice in self._dice
        ]
        # How much of each stream's text had reached the client (`given_out`); None: a stop
        # keeps all the streams were fed (nothing counts what the client got).
        self._given: list[int] | None = None
        self._lock = threading.Lock()
        self.landed: Landed | None = None
        self.written = False
        self.landing: Landing | None = None  # a stream's, registered by the app

    def land(self, stopped: bool) -> Landed | None:
        """Write the replies as far as they came (None when none holds any text: a tool call)."""
        with self._lock:
            try:
                if not self.written:
                    self.written = True
                    streams = self._as_given() if stopped else self.streams
                    # Ended first: a stopped stream's text is then the part its turn kept.
                    turns = [ended_turn(stream, stopped) for stream in streams]
                    if any(stream.text for stream in streams):
                        replies = [(s.text, turn) for s, turn in zip(streams, turns, strict=True)]
                        self.landed = self.chats.land(
                            self.named, self.said, self.plan, replies, stopped
                        )
            finally:
                self.settle()
            return self.landed

    def given_out(self) -> None:
        """What the streams were fed so far reached the client: its narration was sent (or
        there was none to send). A streamed answer counts this after each send, so a stop lands
        each reply as far as this, whatever was fed after it (a batch in the worker when the
        client left, its events never sent)."""
        self._given = [len(stream.text) for stream in self.streams]

    def _as_given(self) -> list[ReplyStream[Game]]:
        """The streams as they stood when the client was last given their narration: a
        stream fed more since is read again from its start (with the same dice) as far as
        then. The narration a stream gives out for a text does not hang on how the text was
        cut into chunks (tests/reply/test_stream.py), so it is the narration the client got."""
        if self._given is None:
            return list(self.streams)
        streams = []
        for stream, dice, given in zip(self.streams, self._dice, self._given, strict=True):
            if len(stream.text) > given:
                again = ReplyStream(self.plan.game, dice.again(), continues=self._continues)
                again.feed(stream.text[:given])
                stream = again
            streams.append(stream)
        return streams

    def settle(self) -> None:
        """Requests waiting for this turn's landing go on: it is written, or will not be."""
        if self.landing is not None:
            self.landing.done()

    def summary(self, stopped: bool) -> dict[str, Any]:
        if self.landed is None:
            return not_stored(self.plan.action, "the reply holds no text to apply")
        return self.landed.summary(stopped=stopped)

    def narration(self, index: int) -> str | None:
        """Choice `index`'s narration as written (None when nothing was: a tool call)."""
        return None if self.landed is None else self.landed.turns[index].narration

    def shown_after(self, index: int) -> str:
        """The outcomes line for choice `index` (`--show-outcomes`), or ""."""
        if not self.show_outcomes or self.landed is None:
            return ""
        turn = self.landed.turns[index]
        return outcomes_line(receipt.to_dict() for receipt in turn.receipts)

    def games_after(self) -> Sequence[Game]:
        return () if self.landed is None else tuple(turn.game for turn in self.landed.turns)


def ended_turn(stream: ReplyStream[Game], stopped: bool) -> Turn[Game]:
    """The turn of a stream that ended (`stopped`: cut off where it was)."""
    return stream.stop() if stopped else stream.finish()[1]


def fed_within(stream: ReplyStream[Game], text: str, cap: int) -> tuple[str, bool]:
    """`text` fed to `stream` as far as the reply stays within `cap` characters (`--max-reply`):
    the narration that became safe to show, and whether the reply ran past the cap (the rest,
    a tag closing there included, is never fed: the turn is cut at the cap exactly)."""
    if not text:
        return "", False
    room = cap - len(stream.text)
    if len(text) <= room:
        return stream.feed(text), False
    return (stream.feed(text[:room]) if room > 0 else ""), True
