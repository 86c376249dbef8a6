"""The chats the proxy keeps: the lines a request may continue found in the store, its step
planned against them (`plan.plan_step`), and the finished turn written back.

Every lookup goes through `ProxyChats.lines`, which reads the candidate lines: by the name the
request gives (`X-GM-Chat`, `user`), by its opening message, and by the store's index of shown
replies (the request's latest assistant messages, looked up by digest: a window that slid past
the opening lands on the same line). No request lists or reads every chat.

A turn is planned when the request arrives (its snapshot is what the model's prompt shows) and
planned again when it is written, under the line's lock: when another request on the same chat
landed in between, the reply is applied to the snapshot the history says then, so no two turns
ever build on one snapshot and none is lost.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..chats.plan import Plan, plan_step
from ..chats.served import RETRIES, ServedChats
from ..chats.tenancy import TenantChats
from ..chats.transcript import Said, chat_key, chat_title, key_of, line_ids, line_number
from ..game import Game
from ..history import Chat
from ..pipeline import Turn
from ..store import ChatExistsError, StaleChatError, UnknownChatError, shown_digest
from ..tenants import DEFAULT_TENANT

STRIPES = 64
# How many of a request's latest assistant messages are looked up in the index (and its first
# one), and how many lines are read for one request at most (the anchored ones first).
ANCHORS = 6
LINES_READ = 16


@dataclass(frozen=True)
class Landed:
    """A turn written: the line, the chat after it, and each choice's turn (one unless the
    request asked for `n` > 1)."""

    plan: Plan
    chat: Chat
    turns: tuple[Turn[Game], ...]
    first: int  # the swipe of the first choice

    def summary(self, *, stopped: bool = False) -> dict[str, Any]:
        """What the proxy adds to a response as `gm_tags`."""
        last = self.chat.messages[-1]
        turn = self.turns[0]
        said: dict[str, Any] = {
            "chat": self.plan.line,
            "action": self.plan.action,
            "message": len(self.chat.messages) - 1,
            "swipe": last.selected,
            "swipes": len(last.swipes),
            "reply": turn.reply,
            "narration": turn.narration,
            "receipts": [receipt.to_dict() for receipt in turn.receipts],
            "stopped": stopped,
            "stored": True,
        }
        if len(self.turns) > 1:
            said["choices"] = [
                {
                    "index": index,
                    "swipe": self.first + index,
                    "reply": one.reply,
                    "narration": one.narration,
                    "receipts": [receipt.to_dict() for receipt in one.receipts],
                }
                for index, one in enumerate(self.turns)
            ]
        return said


def not_stored(action: str, why: str) -> dict[str, Any]:
    """`gm_tags` for a request the proxy passed on without a turn."""
    return {"action": action, "stored": False, "why": why}


class ProxyChats:
    """One tenant's chats as the proxy finds and writes them: through `TenantChats`, so every
    id is the tenant's own and every lookup (by name, opening or shown reply) reads only the
    tenant's chats. `for_tenant` gives another tenant's, sharing the locks."""

    def __init__(
        self,
        served: ServedChats,
        source: dict[str, object],
        start: Game,
        tenant: str = DEFAULT_TENANT,
        stripes: tuple[threading.Lock, ...] | None = None,
    ) -> None:
        self.served = served
        self.chats = TenantChats(served, tenant)
        self._source = source
        self._start = start
        self._stripes = stripes or tuple(threading.Lock() for _ in range(STRIPES))

    @property
    def start(self) -> Game:
        """The game a new chat starts from."""
        return self._start

    def for_tenant(self, tenant: str) -> ProxyChats:
        return ProxyChats(self.served, self._source, self._start, tenant, self._stripes)

    def _lock(self, key: str) -> threading.Lock:
        return self._stripes[hash(key) % STRIPES]

    def lines(self, candidates: Iterable[str]) -> list[tuple[str, Chat]]:
        """The candidate lines as stored, in the order their chats' lines were started: every
        lookup of a chat comes through here (one place to narrow whose chats a request may
        see)."""
        read = []
        for line in sorted(set(candidates), key=lambda one: (key_of(one), line_number(one))):
            try:
                read.append((line, self.chats.read(line)))
            except UnknownChatError:
                continue  # deleted since it was found
        return read

    def _line_ids(self, key: str) -> list[str]:
        return line_ids(key, self.chats.line_ids(key))

    def _found(
        self, named: str | None, said: Sequence[Said]
    ) -> tuple[str, list[tuple[str, Chat]], list[tuple[str, int, int]]]:
        """The request's key, the lines it may continue and the anchors the index found."""
        key = chat_key(named, said)
        anchors: list[tuple[str, int, int]] = []
        replies = [at for at, one in enumerate(said) if one.role == "assistant"]
        # The latest, and the first: a window's opening reply held elsewhere in a line says
        # that what the line holds after it was deleted, when the window does not.
        for index in dict.fromkeys(reversed([*replies[:1], *replies[-ANCHORS:]])):
            for hit in self.chats.find_shown(shown_digest(said[index].text)):
                if named is None or key_of(hit.chat_id) == key:
                    anchors.append((hit.chat_id, index, hit.position))
        candidates = list(dict.fromkeys([line for line, _, _ in anchors]))[:LINES_READ]
        candidates += self._line_ids(key)[: max(0, LINES_READ - len(candidates))]
        return key, self.lines(candidates), anchors

    def plan(self, named: str | None, said: Sequence[Said]) -> Plan:
        key, lines, anchors = self._found(named, said)
        return plan_step(key, lines, said, self._start, anchors, self._line_ids)

    def land(
        self,
        named: str | None,
        said: Sequence[Said],
        planned: Plan,
        replies: Sequence[tuple[str, Turn[Game]]],
    ) -> Landed:
        """Write the replies (each text with its turn worked out on `planned`'s snapshot) as
        the request's step, planned again on the lines as they stand (another worker may have
        written to them). The first reply is the step; the others, more swipes of it."""
        with self._lock(self.chats.stored(key_of(planned.line))):
            for attempt in range(RETRIES + 1):
                plan = self.plan(named, said)
                same = plan.action == planned.action and (
                    plan.game.to_document() == planned.game.to_document()
                )
                turns = [turn if same else _again(plan, text) for text, turn in replies]
                after, first = _taken(plan, [text for text, _ in replies], turns)
                try:
                    if plan.new:
                        title = chat_title(named, said, plan.line)
                        self.chats.put(plan.line, self._source, after, title)
                    else:
                        self.chats.step(plan.line, _replacing(after), retries=0)
                except (StaleChatError, ChatExistsError):
                    if attempt == RETRIES:
                        raise
                    continue
                return Landed(plan, after, tuple(turns), first)
            raise AssertionError("unreachable")  # the loop returns or raises


def _replacing(after: Chat) -> Callable[[Chat], tuple[Chat, None]]:
    """A step that leaves the chat as `after` (worked out on the chat as this worker read it)."""
    return lambda _: (after, None)


def _again(plan: Plan, text: str) -> Turn[Game]:
    if plan.action == "continue":
        return plan.game.continue_reply(text)
    return plan.game.apply_reply(text)


def _taken(plan: Plan, texts: Sequence[str], turns: Sequence[Turn[Game]]) -> tuple[Chat, int]:
    """The chat after the step, and the swipe the first reply became: a continue joins the
    first; a reply or regenerate adds each as a swipe (on the snapshot before the message),
    the first one chosen."""
    if plan.action == "continue":
        chat = plan.base.continued(texts[0], turns[0])
        return chat, chat.messages[-1].selected
    chat = plan.base
    if plan.action == "reply":
        chat = chat.replied(texts[0], turns[0])
    else:
        chat = chat.regenerated(texts[0], turns[0])
    first = chat.messages[-1].selected
    for text, turn in zip(texts[1:], turns[1:], strict=True):
        chat = chat.regenerated(text, turn)
    return (chat.select(first) if len(texts) > 1 else chat), first
