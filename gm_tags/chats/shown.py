"""What a line shows, indexed for the fast path (`aligned`): each message a client is shown
(a user's text, a reply's chosen narration), by place, bare, and where its user messages show
each bare text; kept from one request to the next for the lines read lately, and brought up to
date with the messages a step added (`Indexes.of`), so a request builds nothing per stored turn.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..history import Chat
from ..history_pages import PagedMessages, first_change
from .transcript import Role, bare
from .walk import edits, showing

# How many lines' indexes are kept (a line read again after that is indexed again).
KEPT = 256
# The role a client gives each stored message it is shown.
_ROLES: dict[str, Role] = {"user": "user", "reply": "assistant"}


@dataclass
class Shown:
    """What a line shows: its messages other than events, by place (`positions`), each one's
    role and text as the client was given it (a user's text, a reply's chosen narration) and
    that text bare; and where (the index in these lists) its user messages show each bare
    text."""

    chat: Chat
    positions: list[int] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    bares: list[str] = field(default_factory=list)
    users: dict[str, list[int]] = field(default_factory=dict)

    def add(self, chat: Chat, first: int) -> None:
        """The index of `chat`, whose messages before `first` are the ones indexed now."""
        self.chat = chat
        while self.positions and self.positions[-1] >= first:
            self.positions.pop()
            self.texts.pop()
            gone = self.bares.pop()
            if self.roles.pop() == "user":
                self.users[gone].pop()
        messages = chat.messages
        # A chat read from the store and not yet indexed: its stored texts in one read.
        stored = messages.outline(first) if isinstance(messages, PagedMessages) else None
        outline = list(stored or ())
        outline += [
            (m.role, m.swipe.narration if m.role == "reply" else m.swipe.text)
            for m in messages[first + len(outline) :]
        ]
        # Each list grown in one go: a line of 10,000 turns a new process reads is indexed whole.
        shown = [
            (at, role, text) for at, (role, text) in enumerate(outline, first) if role != "event"
        ]
        start = len(self.texts)
        self.positions += [at for at, _, _ in shown]
        self.roles += [_ROLES[role] for _, role, _ in shown]
        self.texts += [text for _, _, text in shown]
        self.bares += [bare(text) for _, _, text in shown]
        for at in range(start, len(self.texts)):
            if self.roles[at] == "user":
                self.users.setdefault(self.bares[at], []).append(at)

    def before(self, chat: Chat, end: int) -> Shown:
        """The index of `chat`, whose messages before `end` are the very ones this one indexes
        (a line forked from this one): its entries for them copied, the rest indexed."""
        kept = bisect_left(self.positions, end)
        users = {text: at[: bisect_left(at, kept)] for text, at in self.users.items()}
        shown = Shown(
            chat,
            self.positions[:kept],
            self.roles[:kept],
            self.texts[:kept],
            self.bares[:kept],
            {text: at for text, at in users.items() if at},
        )
        shown.add(chat, end)
        return shown

    def holds_user(self, text: str) -> bool:
        return bool(self.users.get(bare(text)))

    def answered(self, user: str, reply: str, besides: int) -> bool:
        """Whether a user message of text `user` other than the one at `besides` (an index in
        these lists) has right after it (events aside) a reply that shows `reply`."""
        for at in self.users.get(bare(user), ()):
            after = at + 1 if at != besides and at + 1 < len(self.roles) else None
            if after is None or self.roles[after] != "assistant":
                continue
            if showing(self.chat.messages[self.positions[after]], reply) is not None:
                return True
        return False

    def says_after(
        self, reply: str, user: str, besides: int | None = None, edited: bool = False
    ) -> bool:
        """Whether a user message of text `user` comes right after (events aside) a reply that
        shows `reply` (any of its swipes, whole or cut, as a walk matches it), or when
        `edited`, one `reply` keeps anything of (as a walk takes an edited reply at most):
        where a walk could match both. The message at `besides` (an index in these lists) is
        left out."""
        for at in self.users.get(bare(user), ()):
            if at and at != besides and self.roles[at - 1] == "assistant":
                before = self.chat.messages[self.positions[at - 1]]
                if showing(before, reply) is not None or (edited and edits(before, reply)):
                    return True
        return False


class Indexes:
    """The indexes of the lines read lately, by line (the same line under another tenant is
    another key); each brought up to date with the chat as read. An index is lent to one
    request at a time (`lent`): plans run in worker threads, and bringing an index to another
    read of its line changes it in place, so none is changed while a plan walks it."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, Shown] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, key: str, chat: Chat, forks: tuple[str, Chat, int] | None = None) -> Shown:
        """The index of line `key` as `chat`, kept for the requests to come; `forks`, the line
        it forked from (its key, the chat as read, the messages they share), whose index (when
        kept, of that very chat) gives the entries of the messages they share."""
        shown = self._taken(key, chat, forks)
        self._give_back(key, shown)
        return shown

    @contextmanager
    def lent(self, key: str, chat: Chat) -> Iterator[Shown]:
        """The index of line `key` as `chat`, this caller's alone until the block ends (another
        request on the line meanwhile indexes it afresh); then kept again."""
        shown = self._taken(key, chat, None)
        try:
            yield shown
        finally:
            self._give_back(key, shown)

    def _taken(self, key: str, chat: Chat, forks: tuple[str, Chat, int] | None) -> Shown:
        """The index of `key` as `chat`, taken out of the kept ones while it is brought up to
        date (a fork's source too, while it is copied)."""
        with self._lock:
            shown = self._kept.pop(key, None)
            source = self._kept.pop(forks[0], None) if forks and shown is None else None
        if forks is not None and source is not None:
            if source.chat is forks[1]:
                shown = source.before(chat, forks[2])
            with self._lock:
                self._kept.setdefault(forks[0], source)
        if shown is None:
            shown = Shown(chat)
            shown.add(chat, 0)
        elif shown.chat is not chat:
            # A chat after a step shares the messages it did not change with the chat before
            # (the very values; the stored past of a paged chat is not read to tell).
            shown.add(chat, first_change(shown.chat.messages, chat.messages))
        return shown

    def _give_back(self, key: str, shown: Shown) -> None:
        with self._lock:
            self._kept[key] = shown
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
