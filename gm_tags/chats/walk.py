"""How far a request's conversation matches a stored line, and where in the line it starts.

A conversation is walked against a line from a starting place, message by message:

- a user message matches the line's user message at that place when their text is the same
  (white space aside);
- an assistant message matches the line's reply at that place when it shows one of its swipes
  (the narration the proxy gave out, or the rewritten or raw reply), whole or cut short (the
  client kept less than it was sent), which chooses that swipe; an assistant message that
  shows none of them is taken as the chosen swipe, edited by the player (what it did stands);
- events the line recorded (a party save, a rest) come along with the message before them.

Where the walks start, and which of them decides, is `best.best_walk`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..history import Chat, Message, Swipe
from .transcript import Said, bare, same

# How far on in a line the reply an edited message stands for is looked for.
EDIT_REACH = 64
# How much of one of the line's user messages (`kept`) a message keeps to be taken as its edit.
EDIT_KEEPS = 0.5


@dataclass(frozen=True)
class Matched:
    """An assistant message matched to the line's reply at `position`, as its swipe `swipe`;
    `cut` when the client shows less of it than the proxy gave out."""

    position: int
    swipe: int
    shown: str
    cut: bool


@dataclass(frozen=True)
class Walk:
    """A conversation walked against a line: from message `first` of the conversation, matched
    to the line from `at`, `matched` messages on; `end`, the line's messages up to the last one
    matched and `reached` with the events after it; the replies matched; how many were taken as
    edited; `reworded` when the first is a user message the player edited (a window that begins
    with it: the line is the client's up to there)."""

    line: str
    chat: Chat
    first: int
    at: int
    matched: int
    end: int
    reached: int
    replies: Sequence[Matched]
    edited: int
    reworded: bool = False
    # Every reply matched before the line's last message is the one the line chose, shown
    # whole, but `departing` (known when it was found): none departs but that one, the
    # `departing_index`-th message the walk matched.
    as_chosen: bool = False
    departing: Matched | None = None
    departing_index: int = 0
    # The replies shown whole whose text is the stored narration but for white space.
    respaced: Sequence[Matched] = ()

    @property
    def begins(self) -> int:
        """The line position the first message is matched at (past the events at `at`)."""
        return past_events(self.chat.messages, self.at)

    @property
    def to_the_end(self) -> bool:
        return self.reached == len(self.chat.messages)

    @property
    def departs(self) -> Matched | None:
        """The first matched reply before the line's last message whose swipe the client shows
        another way than the line holds it (another swipe, or cut short): from there the line
        the client shows is not this one."""
        if self.as_chosen:
            return self.departing
        last = len(self.chat.messages) - 1
        for reply in self.replies:
            if reply.position == last:
                break
            message = self.chat.messages[reply.position]
            if reply.cut or reply.swipe != message.selected:
                return reply
        return None

    def score(self) -> tuple[int, int, int]:
        """Which walk decides: the one that matches furthest into the conversation (the latest
        messages are the strongest anchors), then the most messages matched and the fewest
        taken as edited; of walks that tie, `best_walk` takes the newest line, then one matched
        to its end."""
        return (self.first + self.matched, self.matched, -self.edited)


def walk(
    line: str,
    chat: Chat,
    said: Sequence[Said],
    first: int = 0,
    at: int = 0,
    held: Collection[int] = (),
    passed: set[tuple[int, int]] | None = None,
    newest: bool = True,
) -> Walk:
    """`said` walked against the line from conversation index `first` and line position `at`;
    `held` are the conversation indexes of assistant messages the store holds as replies (in
    any line): such a message is never taken as an edit of the reply at another place. Each
    place the walk stands at (a conversation index and a line position) is added to `passed`.
    On the `newest` line read of its chat, an edited reply keeps anything of the one at its
    place; on an older line, half of it (`edits`)."""
    messages = chat.messages
    index, position, end = first, at, at
    replies: list[Matched] = []
    respaced: list[Matched] = []
    edited = 0
    reworded = False
    while True:
        position = past_events(messages, position)
        if passed is not None:
            passed.add((index, position))
        if index == len(said) or position == len(messages):
            break
        message, one = messages[position], said[index]
        if one.role == "user":
            if message.role != "user":
                break
            if not same(message.swipe.text, one.text):
                # Only where the walk begins: further on, the fork tells an edit again.
                if index != first or kept(one.text, message.swipe.text) < EDIT_KEEPS:
                    break
                reworded = True
                edited += 1
        else:
            if message.role != "reply":
                break
            shown = showing(message, one.text)
            if shown is None and index in held:
                break  # a reply stored at another place: this one was deleted, not edited
            if shown is None and not edits(message, one.text, EDIT_KEEPS * (not newest)):
                break  # it keeps too little of the reply here: another reply (cut), or new text
            if shown is None and edited_place(messages, position, one.text) != position:
                break  # an edit of a later reply: the messages between were deleted
            edited += shown is None
            swipe, cut = shown or (edited_swipe(message, one.text), False)
            replies.append(Matched(position, swipe, one.text, cut))
            if shown is not None and not cut and respaced_from(message.swipes[swipe], one.text):
                respaced.append(replies[-1])
        index += 1
        position += 1
        end = position
    matched = index - first
    return Walk(
        line,
        chat,
        first,
        at,
        matched,
        end,
        position,
        tuple(replies),
        edited,
        reworded,
        respaced=tuple(respaced),
    )


def past_events(messages: Sequence[Message], position: int) -> int:
    while position < len(messages) and messages[position].role == "event":
        position += 1
    return position


def showing(message: Message, text: str) -> tuple[int, bool] | None:
    """The swipe of `message` the client shows as `text`, and whether it shows it cut short:
    the selected swipe first, whole before cut."""
    shown = bare(text)
    order = [message.selected, *(i for i in range(len(message.swipes)) if i != message.selected)]
    for index in order:
        swipe = message.swipes[index]
        if shown in (bare(swipe.narration), bare(swipe.reply), bare(swipe.text)):
            return index, False
    if shown:
        for index in order:
            if bare(message.swipes[index].narration).startswith(shown):
                return index, True
    return None


def respaced_from(swipe: Swipe, text: str) -> bool:
    """Whether the client shows `swipe`'s narration as `text`, white space aside but not as
    stored (a continue it joined with a space of its own): a text it then stores."""
    return text != swipe.narration and bare(text) == bare(swipe.narration)


def edited_swipe(message: Message, text: str) -> int:
    """The swipe of `message` the player edited into `text` (see `most_alike`)."""
    return most_alike(message, text)[0]


def most_alike(message: Message, text: str) -> tuple[int, float]:
    """The swipe of `message` most like `text` (an edit keeps most of what it changes), the
    selected one of those that tie (the client may have swiped to another with no request the
    proxy saw), and how alike they are (`likeness`)."""
    alike = [likeness(text, swipe.narration) for swipe in message.swipes]
    most = max(alike)
    return (message.selected if alike[message.selected] == most else alike.index(most)), most


def edits(message: Message, text: str, least: float = 0.0) -> bool:
    """Whether `text` can be `message` edited: it keeps at least `least` of one of its swipes
    (and something). Anything, for the reply at the message's own place (a player may rewrite a
    reply nearly whole and what it did stands); half, for a reply at another place or on another
    line: unrelated replies share a few runs of four characters by chance (`ther`, `ing,`)."""
    return any(
        (share := kept(text, swipe.narration)) > 0 and share >= least for swipe in message.swipes
    )


def edited_place(messages: Sequence[Message], position: int, text: str) -> int:
    """The reply of the line, from `position` on, that the player edited into `text`: the one
    most like it, `position` of those that tie. A later one when the messages between were
    deleted (the edit does not stand at the place the deletion moved it to)."""
    best, most = position, -1.0
    for at in range(position, min(len(messages), position + EDIT_REACH)):
        message = messages[at]
        if message.role == "reply":
            alike = most_alike(message, text)[1]
            if alike > most:
                best, most = at, alike
    return best


def likeness(one: str, other: str) -> float:
    """How alike two texts are, from 0 to 1: the runs of `_RUN` characters they share (white
    space aside, as everywhere: a continuation is joined on with or without a space), of the
    longer one's."""
    runs, others = _runs(one), _runs(other)
    longer = max(runs.total(), others.total())
    return (runs & others).total() / longer if longer else 1.0


def kept(edited: str, original: str) -> float:
    """How much of `original` the text `edited` keeps, from 0 to 1 (runs as for `likeness`)."""
    runs = _runs(original)
    return (runs & _runs(edited)).total() / runs.total()


_RUN = 4


def _runs(text: str) -> Counter[str]:
    shown = bare(text)
    return Counter(shown[at : at + _RUN] for at in range(max(1, len(shown) - _RUN + 1)))
