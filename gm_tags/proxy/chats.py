"""The chats the proxy keeps: the lines a request may continue found in the store, its step
planned against them (`plan.plan_step`), and the finished turn written back.

Every lookup goes through `ProxyChats.lines`, which reads the candidate lines: by the name the
request gives (`X-GM-Chat`, `user`), by its opening message, and by the store's index of shown
replies (the request's latest assistant messages, looked up by digest: a window that slid past
the opening lands on the same line). No request lists or reads every chat.

A request that is a line as the proxy gave it out, and a message more or fewer, is placed on it
without the walk (`chats.aligned`: each line read keeps an index of what it shows), and so is
one with a player's line edited or messages deleted a few messages further back
(`chats.further`), or replies shown cut, as another swipe or edited there, or the last reply
edited (`chats.replies_back`); any other goes through the walk (`chats.walk`).

A turn is planned once, when the request arrives (its snapshot is what the model's prompt
shows). When it is written, under the line's lock, the revisions of the lines it was planned on
are read again (one read): when none changed, the plan stands; when another request
on the same chat landed in between, it is planned again and the reply applied to the snapshot the
history says then, so no two turns ever build on one snapshot and none is lost. The write itself
is refused (and the turn planned again) when the line is no longer the one planned on, and a new
line whose id was taken meanwhile is planned again too. (A line of the chat started meanwhile
and not read, or another chat read for the request that changed meanwhile, is not looked at: the
turn lands where it was planned, as if it had come first.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from ..chats.aligned import aligned_walk
from ..chats.best import best_walk
from ..chats.cut import thrown_again
from ..chats.further import further_walk
from ..chats.plan import Plan, plan_on
from ..chats.replies_back import reply_back_walk
from ..chats.served import RETRIES, ServedChats
from ..chats.shown import Indexes
from ..chats.tenancy import TenantChats
from ..chats.transcript import (
    Said,
    chat_key,
    chat_title,
    key_of,
    line_ids,
    line_number,
    roles_of,
    texts_of,
)
from ..game import Game
from ..history import Chat
from ..history_pages import first_change
from ..pipeline import Turn
from ..store import (
    ChatExistsError,
    Fork,
    StaleChatError,
    UnknownChatError,
    shown_digest,
)
from ..stream import ReplyStream
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
        indexes: Indexes | None = None,
    ) -> None:
        self.served = served
        self.chats = TenantChats(served, tenant)
        self._source = source
        self._start = start
        self._stripes = stripes or tuple(threading.Lock() for _ in range(STRIPES))
        self._indexes = indexes or Indexes()

    @property
    def start(self) -> Game:
        """The game a new chat starts from."""
        return self._start

    def for_tenant(self, tenant: str) -> ProxyChats:
        return ProxyChats(
            self.served, self._source, self._start, tenant, self._stripes, self._indexes
        )

    def _lock(self, key: str) -> threading.Lock:
        return self._stripes[hash(key) % STRIPES]

    def lines(
        self, candidates: Iterable[str], stored: Mapping[str, int] | None = None
    ) -> list[tuple[str, Chat, int]]:
        """The candidate lines as stored, with the revision each was read at, in the order their
        chats' lines were started: every lookup of a chat comes through here (one place to
        narrow whose chats a request may see). `stored`: the revisions the lookup that found
        them read (a line held at its own is not asked for again)."""
        stored = stored or {}
        read = []
        for line in sorted(set(candidates), key=lambda one: (key_of(one), line_number(one))):
            try:
                read.append((line, *self.chats.read_at(line, stored.get(line))))
            except UnknownChatError:
                continue  # deleted since it was found
        return read

    def _line_ids(self, key: str) -> list[str]:
        return line_ids(key, self.chats.line_ids(key))

    def _found(
        self, named: str | None, said: Sequence[Said]
    ) -> tuple[str, list[tuple[str, Chat, int]], list[tuple[str, int, int]], list[str]]:
        """The request's key, the lines it may continue, the anchors the index found and the
        ids of the key's lines."""
        key = chat_key(named, said)
        # The latest, and the first: a window's opening reply held elsewhere in a line says
        # that what the line holds after it was deleted, when the window does not. Each text
        # is looked up once (a short reply may be said again and again), all of them and the
        # key's lines in one read of the store, which gives the revision each line was at: a
        # line held at it is not asked for again.
        texts = texts_of(said)
        anchored = [(index, shown_digest(texts[index])) for index in _anchored(roles_of(said))]
        found = self.chats.found(key, list(dict.fromkeys(digest for _, digest in anchored)))
        anchors = [
            (hit.chat_id, index, hit.position)
            for index, digest in anchored
            for hit in found.shown.get(digest, ())
            if named is None or key_of(hit.chat_id) == key
        ]
        ids = line_ids(key, found.line_ids)
        candidates = list(dict.fromkeys([line for line, _, _ in anchors]))[:LINES_READ]
        candidates += ids[: max(0, LINES_READ - len(candidates))]
        return key, self.lines(candidates, found.revisions), anchors, ids

    def plan(self, named: str | None, said: Sequence[Said]) -> Plan:
        key, read, anchors, ids = self._found(named, said)
        lines = [(line, chat) for line, chat, _ in read]
        with ExitStack() as lent:
            shown = [
                (line, lent.enter_context(self._indexes.lent(self.chats.stored(line), chat)))
                for line, chat in lines
            ]
            best = (
                aligned_walk(shown, said, anchors)
                or further_walk(shown, said, anchors)
                or reply_back_walk(shown, said, anchors)
                or best_walk(lines, said, anchors)
            )

            def taken(under: str) -> list[str]:
                """The ids a new line is numbered among: the key's, as read just now."""
                return ids if under == key else self._line_ids(under)

            revisions = tuple(revision for _, _, revision in read)
            return plan_on(best, key, lines, said, self._start, taken, revisions)

    def _unchanged(self, planned: Plan) -> bool:
        """Whether every line of the chat `planned` read is still at the revision it read (in
        one read of the store: a step bumps it). Another chat's lines read for the request (it
        shares a reply with them) may change meanwhile: the turn lands as if it came first."""
        key = key_of(planned.line)
        ours = [
            (self.chats.stored(line), revision)
            for (line, _), revision in zip(planned.read, planned.revisions, strict=True)
            if key_of(line) == key
        ]
        now = self.served.revisions([stored for stored, _ in ours])
        return all(now.get(stored) == revision for stored, revision in ours)

    def land(
        self,
        named: str | None,
        said: Sequence[Said],
        planned: Plan,
        replies: Sequence[tuple[str, Turn[Game]]],
        stopped: bool = False,
    ) -> Landed:
        """Write the replies (each text with its turn worked out on `planned`'s snapshot,
        `stopped` where they were cut off) as the request's step: as planned when none of the
        lines it was planned on changed since, else planned again on the lines as they stand
        (another worker may have written to them), each reply read again there as it was given
        out, with its dice. The first reply is the step; the others, more swipes of it."""
        with self._lock(self.chats.stored(key_of(planned.line))):
            for attempt in range(RETRIES + 1):
                stands = attempt == 0 and self._unchanged(planned)
                plan = planned if stands else self.plan(named, said)
                same = plan is planned or (
                    plan.action == planned.action
                    and plan.game.to_document() == planned.game.to_document()
                )
                turns = [
                    turn if same else _again(plan, text, turn, stopped) for text, turn in replies
                ]
                after, first = _taken(plan, [text for text, _ in replies], turns)
                try:
                    if plan.new:
                        title = chat_title(named, said, plan.line)
                        forked = _forked(plan, after)
                        fork = forked[0] if forked else None
                        held = self.chats.put(plan.line, self._source, after, title, fork)
                        # Indexed now, as a step's line is kept up to date: the request after a
                        # pasted history of 10,000 turns would index all of it (~100 ms). A
                        # fork's index copies its source's for the messages they share.
                        forks = None
                        if forked is not None:
                            fork, read = forked
                            forks = (self.chats.stored(fork.source), read, fork.shared)
                        self._indexes.of(self.chats.stored(plan.line), held, forks)
                    else:
                        self.chats.step(plan.line, _replacing(plan, after), retries=0)
                except (StaleChatError, ChatExistsError):
                    if attempt == RETRIES:
                        raise
                    continue
                return Landed(plan, after, tuple(turns), first)
            raise AssertionError("unreachable")  # the loop returns or raises


def _anchored(roles: Sequence[str]) -> list[int]:
    """The indexes of the latest `ANCHORS` replies, newest first, then of the first one: each
    found from its end of the conversation (not by listing every reply of 10,000 turns)."""
    found: list[int] = []
    for at in range(len(roles) - 1, -1, -1):
        if roles[at] == "assistant":
            found.append(at)
            if len(found) == ANCHORS:
                break
    first = next((at for at, role in enumerate(roles) if role == "assistant"), None)
    if first is not None and first not in found:
        found.append(first)
    return found


def _forked(plan: Plan, after: Chat) -> tuple[Fork, Chat] | None:
    """Where a new line's first messages are stored already, and the line it forks from as
    read: up to the first message the new line does not hold as the very same one (a message
    read once is kept, so the same object is the same stored rows; the lines' shared past is
    not read to tell, `first_change`)."""
    for (line, chat), revision in zip(plan.read, plan.revisions, strict=True):
        if line == plan.forks:
            shared = first_change(chat.messages, after.messages)
            return (Fork(line, revision, shared), chat) if shared else None
    return None


def _replacing(plan: Plan, after: Chat) -> Callable[[Chat], tuple[Chat, None]]:
    """A step that leaves the chat as `after`, worked out on the line as `plan` read it: on a
    line that changed since (another worker wrote to it), refused as stale, to be planned
    again."""
    read = dict(plan.read).get(plan.line)

    def take(before: Chat) -> tuple[Chat, None]:
        if before is not read:
            raise StaleChatError(f"chat {plan.line!r} changed since it was planned")
        return after, None

    return take


def _again(plan: Plan, text: str, turn: Turn[Game], stopped: bool) -> Turn[Game]:
    """A reply worked out on another snapshot, read again on `plan`'s: as it was given out (a
    stopped one stops where it stopped), throwing the faces its dice threw (the client saw what
    its checks came to)."""
    stream = ReplyStream(
        plan.game, thrown_again(plan.game, turn.thrown), continues=plan.action == "continue"
    )
    stream.feed(text)
    return stream.stop() if stopped else stream.finish()[1]


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
