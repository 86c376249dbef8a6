"""A chat's messages as a store holds them: read a page at a time when first asked for, so a chat
of 10,000 turns opens from its last page (docs/history.md, "Opening a chat").

`Pages` is what a chat held in the store when it was read: how many messages, and a reader of a
span of them. `PagedMessages` is a chat's message sequence over it: the first `upto` stored
messages, then the ones a step added in memory. Steps keep the pages shared (`appended`, and a
slice from the start), so a step on a long chat never reads its past, and a store write finds the
first message that changed without comparing every one (`first_change`).

A message read once is kept: reading it again gives the same object, which is how `Chats.save`
knows a message unchanged.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import compress, count
from operator import is_not
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")

# How many messages one read brings: the play page's story shows 40 at a time.
PAGE = 64


# What a stored message shows, read without making it: its role, and its selected swipe's text
# as the client was given it (a reply's narration).
Outline = tuple[str, str]


class Pages(Generic[T]):
    """`count` stored messages; `read(first, end)` brings those from `first` to before `end`;
    `outline(first, end)`, when given, what each of them shows, in one read."""

    def __init__(
        self,
        count: int,
        read: Callable[[int, int], Sequence[T]],
        known: Mapping[int, T],
        outline: Callable[[int, int], Sequence[Outline]] | None = None,
    ) -> None:
        self.count = count
        self._read = read
        self.outline = outline
        self._known: dict[int, T] = dict(known)
        self._lock = threading.Lock()

    def at(self, position: int) -> T:
        found = self._known.get(position)
        if found is not None:
            return found
        with self._lock:  # two threads asking at once read the page once
            if position not in self._known:
                self._fill(position - position % PAGE, position - position % PAGE + PAGE)
        return self._known[position]

    def span(self, first: int, end: int) -> list[T]:
        """The messages from `first` to before `end`, the missing ones read in pages."""
        with self._lock:
            for page in range(first - first % PAGE, end, PAGE):
                self._fill(page, page + PAGE)
        return [self._known[at] for at in range(first, end)]

    def peek(self, position: int) -> T | None:
        """The message at `position` if it was read, else None (nothing is read)."""
        return self._known.get(position)

    def known(self) -> dict[int, T]:
        """Every message read so far, by position (a copy: nothing is read)."""
        with self._lock:
            return dict(self._known)

    def _fill(self, first: int, end: int) -> None:
        end = min(end, self.count)
        while first < end and first in self._known:
            first += 1
        while end > first and end - 1 in self._known:
            end -= 1
        if first < end:
            for at, message in enumerate(self._read(first, end), start=first):
                self._known.setdefault(at, message)


class PagedMessages(Sequence[T]):
    """The first `upto` messages of `pages`, then `tail` (messages a step added in memory)."""

    __slots__ = ("pages", "tail", "upto")

    def __init__(self, pages: Pages[T], upto: int, tail: tuple[T, ...] = ()) -> None:
        self.pages, self.upto, self.tail = pages, upto, tail

    def __len__(self) -> int:
        return self.upto + len(self.tail)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if start == 0 and step == 1:  # a prefix stays paged: its past is read when asked for
                kept = self.tail[: max(0, stop - self.upto)]
                return PagedMessages(self.pages, min(stop, self.upto), kept)
            if step == 1 and stop <= self.upto:
                return tuple(self.pages.span(start, max(start, stop)))
            return tuple(self[at] for at in range(start, stop, step))
        at = index + len(self) if index < 0 else index
        if not 0 <= at < len(self):
            raise IndexError("message index out of range")
        return self.pages.at(at) if at < self.upto else self.tail[at - self.upto]

    def __iter__(self) -> Iterator[T]:
        for page in range(0, self.upto, PAGE):
            yield from self.pages.span(page, min(page + PAGE, self.upto))
        yield from self.tail

    def __add__(self, other: tuple[T, ...]) -> PagedMessages[T]:
        """More messages after these, as a tuple of messages takes them (`messages + (m,)`)."""
        if not isinstance(other, tuple):
            return NotImplemented
        return PagedMessages(self.pages, self.upto, (*self.tail, *other))

    def outline(self, first: int) -> Sequence[Outline] | None:
        """What the stored messages from `first` on show (`Outline`), in one read, when there
        are more than a page of them and the store can tell; else None (read the messages: a
        chat indexed from its start reads its texts, not every page of swipes and receipts)."""
        if self.pages.outline is None or self.upto - first <= PAGE:
            return None
        return self.pages.outline(first, self.upto)

    def peek(self, index: int) -> T | None:
        """The message at `index` if it is in memory, else None (nothing is read)."""
        return self.pages.peek(index) if index < self.upto else self.tail[index - self.upto]

    def in_memory(self) -> dict[int, T]:
        """The messages in memory, by position (nothing is read)."""
        held = {at: one for at, one in self.pages.known().items() if at < self.upto}
        held.update(enumerate(self.tail, start=self.upto))
        return held

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or len(other) != len(self):
            return False
        return all(mine == theirs for mine, theirs in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # equal to a tuple of the same messages

    def __repr__(self) -> str:
        return f"PagedMessages({self.upto} stored, {len(self.tail)} added)"


class Growing(Sequence[T]):
    """`base` and the messages added after it one step at a time (a conversation told again,
    message by message): each step appends to one list in place, so telling N messages costs N
    steps, not N copies of all the ones before. Work in progress of one thread: `settled()`
    gives the messages as a chat keeps them."""

    __slots__ = ("added", "base", "length")

    def __init__(self, base: Sequence[T], added: list[T] | None = None, length: int = 0) -> None:
        self.base, self.added, self.length = base, added if added is not None else [], length

    def __len__(self) -> int:
        return len(self.base) + self.length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return self.settled()[index]
        at = index + len(self) if index < 0 else index
        if not 0 <= at < len(self):
            raise IndexError("message index out of range")
        return self.base[at] if at < len(self.base) else self.added[at - len(self.base)]

    def grown(self, added: tuple[T, ...]) -> Growing[T]:
        # Another step was taken from this one already: it keeps the list, this one copies.
        items = self.added if len(self.added) == self.length else self.added[: self.length]
        items.extend(added)
        return Growing(self.base, items, self.length + len(added))

    def settled(self) -> Sequence[T]:
        return appended(self.base, *self.added[: self.length])


def appended(messages: Sequence[T], *added: T) -> Sequence[T]:
    """`messages` with `added` after them; paged ones stay paged (their past is not read)."""
    if isinstance(messages, PagedMessages):
        return messages + added
    if isinstance(messages, Growing):
        return messages.grown(added)
    return (*messages, *added)


def first_change(before: Sequence[Any], after: Sequence[Any]) -> int:
    """The position of the first message of `after` that is not the very message of `before`
    there (the length of the shorter when one continues the other). The stored past two paged
    sequences share is the same without being read."""
    end = min(len(before), len(after))
    if not isinstance(before, PagedMessages) and not isinstance(after, PagedMessages):
        # Two chats held whole (one a step of the other): their messages compared in C.
        return next(compress(count(), map(is_not, before, after)), end)
    start = 0
    if isinstance(before, PagedMessages) and isinstance(after, PagedMessages):
        if before.pages is after.pages and before.upto == after.upto:
            # One chat's past, a step's messages after it held in memory (a chat before a step
            # and after it): their tails compared in C, as two chats held whole are.
            changed = map(is_not, before.tail, after.tail)
            return before.upto + next(compress(count(), changed), end - before.upto)
        start = min(before.upto, after.upto) if before.pages is after.pages else 0
    old_at = before.peek if isinstance(before, PagedMessages) else before.__getitem__
    new_at = after.peek if isinstance(after, PagedMessages) else after.__getitem__
    for at in range(start, end):
        old = old_at(at)
        # A message never read cannot be the one `after` holds: it was never made.
        if old is None or old is not new_at(at):
            return at
    return end
