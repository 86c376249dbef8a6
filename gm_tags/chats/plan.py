"""The step a request takes on the stored lines, with the transcript as the truth.

The walk that decides (`best.best_walk`) says how far the client's conversation is a line the
store holds. Then:

- the conversation is the whole line and a user message more: a reply added to the line;
- it is the line without its last reply: a regenerate (a new swipe of that reply);
- it ends with an assistant message, the line's last reply: a continue of it;
- the client shows the line's last reply cut short (it stopped reading, or never kept a part):
  that reply gets a new swipe cut to what the client shows, and the step builds on it;
- anything else (the client departs from the line before its end: an edit, a deletion, an
  older swipe or a cut reply further back): a new line from the matched part, and every later
  message told again (`retell`).

Nothing stored is deleted or overwritten: a cut or a choice is a new swipe or a new line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from ..game import Game
from ..history import Chat, Message, Swipe
from ..history_pages import appended
from .best import best_walk
from .cut import cut_swipe, shows_rest
from .retell import Told, retell
from .transcript import Said, key_of, next_line_id
from .walk import Matched, Walk

Action = Literal["reply", "regenerate", "continue"]


@dataclass(frozen=True)
class Plan:
    """The step a request takes: on line `line` (stored already, or new when `new`), the chat
    `base` (the line, reconciled with what the client shows, or a new line) takes `action`
    with the model's reply."""

    line: str
    new: bool
    base: Chat
    action: Action
    # The lines it was planned on, as read (a turn written when none changed since is not
    # planned again).
    read: Sequence[tuple[str, Chat]] = field(default=(), compare=False, repr=False)
    # The stored revision each was read at, when the caller knows it.
    revisions: tuple[int, ...] = field(default=(), compare=False, repr=False)
    # A new line's first messages are those of this line (one of `read`), up to where the
    # client departs from it: the store copies them rather than write them again.
    forks: str | None = field(default=None, compare=False)

    @property
    def game(self) -> Game:
        """The snapshot the model's reply applies to, and its prompt shows."""
        if self.action == "regenerate":
            return self.base.before_last_reply()
        if self.action == "continue":
            return self.base.messages[-1].swipe.game
        return self.base.game


def plan_step(
    key: str,
    lines: Sequence[tuple[str, Chat]],
    said: Sequence[Said],
    start: Game,
    anchors: Iterable[tuple[str, int, int]] = (),
    taken: Callable[[str], Sequence[str]] | None = None,
) -> Plan:
    """What a request whose conversation is `said` does, given the stored `lines` it may
    continue (in the order they were started), the `anchors` the store found (line,
    conversation index, line position), and `taken`, which gives the ids under a key that a new
    line is numbered among (by default the lines' own). The model's reply continues the last
    message when the conversation ends with an assistant message, else it answers the last
    user message."""
    return plan_on(best_walk(lines, said, anchors), key, lines, said, start, taken)


def plan_on(
    best: Walk | None,
    key: str,
    lines: Sequence[tuple[str, Chat]],
    said: Sequence[Said],
    start: Game,
    taken: Callable[[str], Sequence[str]] | None = None,
    revisions: tuple[int, ...] = (),
) -> Plan:
    """`plan_step` once the walk that decides is known (`best_walk`'s, or the same walk found
    another way: `aligned.aligned_walk`); `revisions`, the stored revision each line was read
    at, when the caller knows it."""
    if best is not None and best.respaced:
        best = replace(best, chat=_respaced(best.chat, best.respaced))
    found = _step(best, key, lines, said, start, taken)
    return replace(found, read=tuple(lines), revisions=revisions)


def _step(
    best: Walk | None,
    key: str,
    lines: Sequence[tuple[str, Chat]],
    said: Sequence[Said],
    start: Game,
    taken: Callable[[str], Sequence[str]] | None,
) -> Plan:
    continuing = bool(said) and said[-1].role == "assistant"
    numbered = taken or (lambda under: [line for line, _ in lines if key_of(line) == under])
    if best is None or not best.matched:
        # Placed on no line: told from the start, each reply as the stored one it shows.
        old, others = (best.chat, [c for n, c in lines if n != best.line]) if best else (None, [])
        told = retell(Chat(start), said, old, 0, others, answering=not continuing)
        return Plan(
            next_line_id(key, numbered(key)), True, told.chat, _told_action(told, continuing)
        )
    if best.first + best.matched == len(said) and best.departs is None and not best.reworded:
        plan = _on_the_line(best, continuing)
        if plan is not None:
            return plan
    rest = said[best.first + best.matched :]
    if best.to_the_end and best.departs is None and not best.reworded:
        others = [chat for name, chat in lines if name != best.line]
        if rest and rest[0].role == "assistant" and _shown_cut_last(best):
            # The last reply shown cut and an assistant message after it: the rest of it, shown as
            # a message of its own, is found when the last one is told again.
            at = best.replies[-1].position
            base = Chat(best.chat.start, best.chat.messages[:at])
            told = retell(base, said[len(said) - len(rest) - 1 :], best.chat, at, others)
            return Plan(best.line, False, told.chat, _action(continuing))
        base = retell(_reconciled_last(best), rest, best.chat, best.reached, others).chat
        return Plan(best.line, False, base, _action(continuing))
    line = next_line_id(key_of(best.line), numbered(key_of(best.line)))
    base, rest, place, split = _fork(best, said, continuing)
    others = [chat for name, chat in lines if name != best.line]
    told = retell(base, rest, best.chat, place, others, answering=not continuing, split=split)
    return Plan(line, True, told.chat, _told_action(told, continuing), forks=best.line)


def _action(continuing: bool) -> Action:
    return "continue" if continuing else "reply"


def _told_action(told: Told, continuing: bool) -> Action:
    """A new line's step: a new swipe of the reply carried along after the last user message,
    when the old line held one there (the client keeps that message's swipes), else as asked."""
    return "regenerate" if told.regenerates else _action(continuing)


def _on_the_line(best: Walk, continuing: bool) -> Plan | None:
    chat = best.chat
    last = chat.messages[-1] if chat.messages else None
    if last is None or last.role == "user":
        return Plan(best.line, False, chat, "reply") if not continuing and best.to_the_end else None
    if continuing and best.to_the_end and last.role == "reply":
        return Plan(best.line, False, _reconciled_last(best), "continue")
    if not continuing and best.to_the_end:
        return Plan(best.line, False, _reconciled_last(best), "reply")
    if not continuing and best.reached == len(chat.messages) - 1 and last.role == "reply":
        return Plan(best.line, False, chat, "regenerate")
    return None


def _shown_cut_last(best: Walk) -> bool:
    """Whether the walk ends with the line's last reply, shown cut short."""
    last = best.replies[-1] if best.replies else None
    return last is not None and last.cut and last.position == best.end - 1


def _reconciled_last(best: Walk) -> Chat:
    """The line with its last reply as the client shows it: the swipe it chose, or a new swipe
    cut to what it shows. Never split (`cut.shows_rest`): an assistant message after a cut
    last reply, its rest shown as a message of its own, is told again with it (`_step`)."""
    chat = best.chat
    last_at = len(chat.messages) - 1
    # The replies matched are in the line's order: the last one is the last place.
    matched = next((r for r in reversed(best.replies) if r.position == last_at), None)
    if matched is None:
        return chat
    if matched.cut:
        message = chat.messages[last_at]
        stored = message.swipes[matched.swipe]
        before = chat.before_last_reply()
        cut = cut_swipe(before, stored.text, matched.shown, stored.thrown, joins=stored.joins)
        swipes = (*message.swipes, cut)
        return _with_message(chat, last_at, Message("reply", swipes, len(swipes) - 1))
    if matched.swipe != chat.messages[last_at].selected:
        return chat.select(matched.swipe)
    return chat


def _respaced(chat: Chat, replies: Sequence[Matched]) -> Chat:
    """The line with each of `replies` narrated as the client shows it (white space is the
    client's: a continue it joined with a space of its own). The same swipe otherwise: its
    snapshot, tags and receipts stay, and the messages before it are not read."""
    messages = chat.messages
    first = min(matched.position for matched in replies)
    tail = list(messages[first:])  # copied once, not once a reply
    for matched in replies:
        message = tail[matched.position - first]
        swipes = list(message.swipes)
        swipes[matched.swipe] = swipes[matched.swipe].narrated(matched.shown)
        tail[matched.position - first] = replace(message, swipes=tuple(swipes))
    return Chat(chat.start, appended(messages[:first], *tail))


def _fork(
    best: Walk, said: Sequence[Said], continuing: bool
) -> tuple[Chat, Sequence[Said], int, tuple[Swipe, str] | None]:
    """A new line: the line's messages up to where the client departs from it (the first reply
    it shows another way, else the end of the matched part, with the events after it unless
    the reply it ends with is to be continued), that reply as the client shows it, and the
    conversation left to tell again with the line position it stands for; and when the client
    shows that reply cut with its rest as the next message, the stored swipe and what it shows
    of it (the rest is told as that swipe's, `retell`'s `split`)."""
    chat = best.chat
    if best.reworded:  # the window begins with a user message the player edited
        fork = Chat(chat.start, chat.messages[: best.begins])
        return fork, said[best.first :], best.begins, None
    departs = best.departs
    said_after = best.first + best.matched
    if departs is None:
        end = best.end if continuing else best.reached
        fork = Chat(chat.start, chat.messages[:end])
        return fork, said[said_after:], end, None
    fork = Chat(chat.start, chat.messages[: departs.position])
    message = chat.messages[departs.position]
    index = best.first + _index_in_walk(best, departs.position) + 1
    shown_cut = None
    if departs.cut:
        stored = message.swipes[departs.swipe]
        split = shows_rest(stored, departs.shown, said[index] if index < len(said) else None)
        swipe = cut_swipe(
            fork.game, stored.text, departs.shown, stored.thrown, split=split, joins=stored.joins
        )
        chosen = Message("reply", (*message.swipes, swipe), len(message.swipes))
        shown_cut = (stored, departs.shown) if split else None
    else:
        chosen = replace(message, selected=departs.swipe)
    fork = Chat(fork.start, (*fork.messages, chosen))
    return fork, said[index:], departs.position + 1, shown_cut


def _index_in_walk(best: Walk, position: int) -> int:
    """How many conversation messages the walk matched before the line's `position`."""
    if best.departing is not None and best.departing.position == position:
        return best.departing_index  # known when it was found: a long line's pages not read
    return sum(1 for at in range(best.at, position) if best.chat.messages[at].role != "event")


def _with_message(chat: Chat, at: int, message: Message) -> Chat:
    return Chat(chat.start, (*chat.messages[:at], message, *chat.messages[at + 1 :]))
