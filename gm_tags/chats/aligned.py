"""The common request recognised without the walk: a transcript that is a stored line as the
proxy gave it out, and a player's message more (a reply), one fewer (a regenerate), or none (a
continue of the whole last reply).

Each line read keeps an index of what it shows (`Shown`: every user message's text, every
reply's chosen narration, and the bare texts of its user messages), kept from one request to
the next and brought up to date with the messages a step added, so a request compares its
messages to the line's, newest first, and builds nothing per stored turn.

The walk found this way is exactly the one `walk.best_walk` would choose, and is only taken when
that can be shown cheaply; anything else (an edit, a deletion, a fork, a slid window, a cut
reply, a reply shown as its raw text) is left to the full walk:

- every message matches the line's at its place, from the line's start, as shown whole (the
  chosen swipe's narration): the walk from the line's start matches them all and nothing is
  edited;
- a walk on any line read that reached further would have to match the new player's message,
  and the reply before it: no line read holds a user message of that text right after a reply
  that shows the transcript's last one (a player's `Go on.` said before follows other replies),
  and no walk can begin at the new message (the line's last message is a reply the store's
  index found);
- a line started later wins a tie: none holds the transcript's latest user message.

The line's last reply may be shown as another of its swipes, whole (the client swiped back to
it): the walk chooses that swipe, as the full walk does.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import overload

from ..history import Chat
from ..history_pages import PagedMessages, first_change
from .transcript import Role, Said, bare, roles_of, texts_of
from .walk import Matched, Walk, past_events, respaced_from, showing

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

    def holds_user(self, text: str) -> bool:
        return bool(self.users.get(bare(text)))

    def says_after(self, reply: str, user: str) -> bool:
        """Whether a user message of text `user` comes right after (events aside) a reply that
        shows `reply` (any of its swipes, whole or cut, as a walk matches it): where a walk
        could match both."""
        for at in self.users.get(bare(user), ()):
            if at and self.roles[at - 1] == "assistant":
                before = self.chat.messages[self.positions[at - 1]]
                if showing(before, reply) is not None:
                    return True
        return False


class Indexes:
    """The indexes of the lines read lately, by line (the same line under another tenant is
    another key); each brought up to date with the chat as read."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, Shown] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, key: str, chat: Chat) -> Shown:
        with self._lock:
            shown = self._kept.pop(key, None)
        if shown is None:
            shown = Shown(chat)
            shown.add(chat, 0)
        elif shown.chat is not chat:
            # A chat after a step shares the messages it did not change with the chat before
            # (the very values; the stored past of a paged chat is not read to tell).
            shown.add(chat, first_change(shown.chat.messages, chat.messages))
        with self._lock:
            self._kept[key] = shown
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return shown


def aligned_walk(
    lines: Sequence[tuple[str, Shown]], said: Sequence[Said], held: Collection[int]
) -> Walk | None:
    """The walk `best_walk(lines' chats, said, ...)` chooses, when `said` is a line as shown
    from its start and one player's message more, one fewer or none (see the module's note);
    None when it cannot be told this way. `lines` are in the order they were started."""
    for order in range(len(lines) - 1, -1, -1):
        line, shown = lines[order]
        found = _on_line(line, shown, said)
        if found is None:
            continue
        # A line started later that matches every message this walk matches ties with it, and
        # wins: it holds the latest user message among them.
        latest = next((one for one in reversed(said[: found.matched]) if one.role == "user"), None)
        if latest is None or any(index.holds_user(latest.text) for _, index in lines[order + 1 :]):
            return None
        if found.matched < len(said) and not _reaches_no_further(found, said, lines, held):
            return None
        return found
    return None


def _reaches_no_further(
    found: Walk, said: Sequence[Said], lines: Sequence[tuple[str, Shown]], held: Collection[int]
) -> bool:
    """Whether no walk can match the new player's message after the line (and so reach further
    than `found`): it would match it as a line's user message by its text, or, where a window
    begins with it, as one the player edited. The walk's last message is a reply the store's
    index found (`held`): a walk never begins after it (the places a walk begins at are counted
    back from the replies found, or come before the first), and never takes it as an edited
    reply; so a walk that matches the new message matched that reply, as shown, just before it.
    No line read holds the new message's text right after a reply that shows it."""
    last = found.matched - 1
    if said[last].role != "assistant" or last not in held:
        return False
    reply, user = said[last].text, said[-1].text
    return not any(index.says_after(reply, user) for _, index in lines)


def _on_line(line: str, shown: Shown, said: Sequence[Said]) -> Walk | None:
    """The walk of `said` on the line from its start, when it matches every message it can as
    the line shows it and leaves what a reply, a regenerate or a continue leaves."""
    chat, count = shown.chat, len(shown.texts)
    messages = chat.messages
    if len(said) == count + 1 and said[-1].role == "user":
        matched = count  # a reply: the line and a player's message
    elif len(said) == count - 1 and said[-1].role == "user" and count:
        # A regenerate: the line without its last reply, the line's last message.
        if shown.roles[-1] != "assistant" or shown.positions[-1] != len(messages) - 1:
            return None
        matched = count - 1
    elif len(said) == count and said[-1].role == "assistant" and count:
        matched = count  # a continue of the whole last reply
    else:
        return None
    if not matched:
        return None  # on no line: every line read ties, and the newest wins
    # Compared whole first (in C: a transcript sent back as it was given out is equal as it
    # is), then message by message, white space aside.
    roles = shown.roles[:matched]
    texts = shown.texts[:matched]
    if roles_of(said)[:matched] != roles:
        return None
    respaced: list[int] = []  # replies the client shows with white space of its own
    swiped: dict[int, int] = {}  # the line's last reply, shown as another of its swipes
    sent = texts_of(said)[:matched]
    if sent != texts:
        # Only the last one differs (a reply swiped back to, or spaced): the rest are equal.
        looked = 1 if sent[:-1] == texts[:-1] else matched
        for index in range(matched - 1, matched - 1 - looked, -1):
            text = said[index].text
            if text == texts[index]:
                continue
            if bare(text) == shown.bares[index]:
                if roles[index] == "assistant":
                    respaced.append(index)
                continue
            last = shown.positions[index] == len(messages) - 1
            found = showing(messages[shown.positions[index]], text) if last else None
            if roles[index] != "assistant" or found is None or found[1]:
                return None
            swiped[index] = found[0]
            if respaced_from(messages[shown.positions[index]].swipes[found[0]], text):
                respaced.append(index)
    end = shown.positions[matched - 1] + 1
    reached = past_events(messages, end)
    replies = _AsChosen(shown, said, matched, swiped)
    respaced_replies = tuple(replies.made(index) for index in reversed(respaced))
    return Walk(
        line,
        chat,
        0,
        0,
        matched,
        end,
        reached,
        replies,
        0,
        as_chosen=True,
        respaced=respaced_replies,
    )


class _AsChosen(Sequence[Matched]):
    """The replies an aligned walk matched, each the line's chosen swipe shown whole (or the
    swipe `swiped` says, by conversation index), made when asked for (a plan reads the last
    one)."""

    def __init__(
        self, shown: Shown, said: Sequence[Said], matched: int, swiped: dict[int, int]
    ) -> None:
        self._shown, self._said, self._matched, self._swiped = shown, said, matched, swiped

    @cached_property
    def _at(self) -> list[int]:
        """The conversation index of each reply."""
        return [at for at, role in enumerate(self._shown.roles[: self._matched]) if role != "user"]

    def __len__(self) -> int:
        return len(self._at)

    def __reversed__(self) -> Iterator[Matched]:
        for index in range(self._matched - 1, -1, -1):
            if self._shown.roles[index] != "user":
                yield self.made(index)

    @overload
    def __getitem__(self, at: int) -> Matched: ...

    @overload
    def __getitem__(self, at: slice) -> Sequence[Matched]: ...

    def __getitem__(self, at: int | slice) -> Matched | Sequence[Matched]:
        if isinstance(at, slice):
            return [self[one] for one in range(*at.indices(len(self)))]
        return self.made(self._at[at])

    def made(self, index: int) -> Matched:
        position = self._shown.positions[index]
        swipe = self._swiped.get(index)
        if swipe is None:
            swipe = self._shown.chat.messages[position].selected
        return Matched(position, swipe, self._said[index].text, False)
