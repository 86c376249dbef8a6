"""The chats the proxy keeps: a key's lines read from the store, a request's step planned
against them (`transcript.plan_step`), and the finished turn written back.

A turn is planned when the request arrives (its snapshot is what the model's prompt shows) and
planned again when it is written, under the key's lock: when another request on the same chat
landed in between, the reply is applied to the snapshot the history says then, so no two turns
ever build on one snapshot and none is lost.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..history import Chat
from ..pipeline import Turn
from ..service.chats import RETRIES, ServedChats
from ..store import ChatExistsError, StaleChatError
from .transcript import Plan, Said, line_ids, plan_step

STRIPES = 64


@dataclass(frozen=True)
class Landed:
    """A turn written: the line, the chat after it, and the turn."""

    plan: Plan
    chat: Chat
    turn: Turn[Game]

    def summary(self, *, stopped: bool = False) -> dict[str, Any]:
        """What the proxy adds to a response as `gm_tags`."""
        last = self.chat.messages[-1]
        return {
            "chat": self.plan.line,
            "action": self.plan.action,
            "message": len(self.chat.messages) - 1,
            "swipe": last.selected,
            "swipes": len(last.swipes),
            "reply": self.turn.reply,
            "narration": self.turn.narration,
            "receipts": [receipt.to_dict() for receipt in self.turn.receipts],
            "stopped": stopped,
        }


class ProxyChats:
    def __init__(self, served: ServedChats, source: dict[str, object], start: Game) -> None:
        self.served = served
        self._source = source
        self._start = start
        self._stripes = tuple(threading.Lock() for _ in range(STRIPES))

    def _lock(self, key: str) -> threading.Lock:
        return self._stripes[hash(key) % STRIPES]

    def _lines(self, key: str) -> list[tuple[str, Chat]]:
        return [(line, self.served.read(line)) for line in line_ids(key, self.served.chat_ids())]

    def plan(self, key: str, said: list[Said]) -> Plan:
        with self._lock(key):
            return plan_step(key, self._lines(key), said, self._start)

    def land(
        self, key: str, said: list[Said], planned: Plan, text: str, turn: Turn[Game]
    ) -> Landed:
        """Write `text` (its `turn` worked out on `planned`'s snapshot) as the request's step,
        planned again on the lines as they stand (another worker may have written to them)."""
        with self._lock(key):
            for attempt in range(RETRIES + 1):
                plan = plan_step(key, self._lines(key), said, self._start)
                same = plan.action == planned.action and (
                    plan.game.to_document() == planned.game.to_document()
                )
                landed_turn = turn if same else _again(plan, text)
                after = _taken(plan, text, landed_turn)
                try:
                    if plan.new:
                        self.served.chats.put(plan.line, dict(self._source), after, replace=False)
                    else:
                        self.served.step(plan.line, _replacing(after), retries=0)
                except (StaleChatError, ChatExistsError):
                    if attempt == RETRIES:
                        raise
                    continue
                return Landed(plan, after, landed_turn)
            raise AssertionError("unreachable")  # the loop returns or raises


def _replacing(after: Chat) -> Callable[[Chat], tuple[Chat, None]]:
    """A step that leaves the chat as `after` (worked out on the chat as this worker read it)."""
    return lambda _: (after, None)


def _again(plan: Plan, text: str) -> Turn[Game]:
    if plan.action == "continue":
        return plan.game.continue_reply(text)
    return plan.game.apply_reply(text)


def _taken(plan: Plan, text: str, turn: Turn[Game]) -> Chat:
    if plan.action == "regenerate":
        return plan.base.regenerated(text, turn)
    if plan.action == "continue":
        return plan.base.continued(text, turn)
    return plan.base.replied(text, turn)
