"""The fast path (`aligned`) for replies further back than the last exchange that the client
shows another way than the line chose them, up to `further.REACH_BACK` messages from the
transcript's end, one or several at once: cut short (a stream stopped, or the player trimmed
it), as another of its swipes or its raw text, or edited by the player (the reply the player's
last line answers too, when the client asks for the reply to that line again: a regenerate);
and the line's last reply, edited by the player (the GM's last message fixed, then a new line
or more). The rest of the transcript is the line as shown (the whole line or a window that
slid, or a stretch of it that ends where the store's index found its last reply, and a
player's message more, one fewer or none: `aligned.shapes`, `aligned.shapes_found`). The walk
found is exactly the one `best.best_walk` would choose, and is only taken when that can be
shown cheaply:

- the full walk makes it: from the line's start, or from where a window that slid begins,
  counted back from a reply of the window the store's index found at its place (a walk from
  the transcript's first message is never passed over: `best._skips` looks before it). It
  matches each reply as `walk.walk` does: as the swipe it shows (`walk.showing`, whole or cut);
  else as edited, where the store's index did not find it, it keeps anything of the reply there
  (half, on a line that is not its chat's newest) and no later reply within reach keeps more
  (`walk.edited_place`). It matches every message from the transcript's first, but a new line
  after the line's end, which no walk matches (`aligned`'s note, the same check);
- it takes an edit at each reply edited, and no walk takes fewer: one would match such a reply
  as shown (whole or cut) right after the user message before it, by its text (that message is
  not the transcript's first: a walk takes a user message as edited only where it begins), and
  no line read holds the two so (`Shown.answered`). So no walk scores higher, and one that
  ties takes its edits where this one does, and matches the rest as shown or by their text;
- of walks that tie, one wins only as in `aligned`'s note: a line started later holds the
  transcript's latest user message; a walk of the line from an earlier place, or to its end,
  matches the window's last two messages one right after the other, as shown or by their text
  (a reply shown otherwise among them is told so as shown). The last but one, a reply edited
  before a regenerate, such a walk matches with its edit there: no place of the line shows the
  player's last line after a reply the edit keeps anything of (`_answered_alone`; none ends at
  the line's end, a reply);
- the line's last reply edited (the transcript's last message, a continue, or the last before
  a new player's line; shown whole, cut or as another swipe it is `aligned`'s): the walk
  reaches the line's end (events aside), so a walk of the line from another place that ties
  does not, and loses. A walk that reaches further matches the new line right after the edited
  text, as shown or, the store's index not holding it, as an edit of the reply there: no line
  read holds it so (`aligned.reaches_no_further`). As a walk takes the line's last message,
  the edit departs nowhere: an edit most like another swipe chooses it on the line
  (`plan._reconciled_last`).

The full walk ranks last a walk after whose end the transcript shows a reply the store holds on
other chats alone (`best._held_elsewhere`): this one is taken only when no such reply is after
its end. The plan follows from the walk: at the first reply cut or shown as another swipe, or
edited and most like another swipe (chosen there), the client departs from the line (a new line
starts, the messages after it told again, the replies shown otherwise after it among them); a
raw text, or an edit of the chosen swipe, stands, and the line goes on.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from .aligned import Apart, decides, shapes, shapes_found, window_walk
from .further import REACH_BACK, Read
from .shown import Shown
from .transcript import Said, bare, key_of, roles_of, texts_of
from .walk import EDIT_KEEPS, Walk, edited_place, edited_swipe, edits, showing


def reply_back_walk(
    lines: Sequence[tuple[str, Shown]],
    said: Sequence[Said],
    anchors: Iterable[tuple[str, int, int]],
) -> Walk | None:
    """The walk `best_walk(lines' chats, said, anchors)` chooses, when `said` is a line as shown
    but for replies further back than the last exchange shown cut, as another swipe or edited,
    or the last one edited (see the module's note); None when it cannot be told this way.
    `lines` and `anchors` as for `aligned.aligned_walk`."""
    if not said:
        return None
    read = Read.of(lines, said, anchors)
    newest = {key_of(line): line for line, _ in lines}
    for order in range(len(lines) - 1, -1, -1):
        line, shown = lines[order]
        tried = shapes(shown, said) + shapes_found(shown, said, read.found.get(line, ()))
        for skip, matched in dict.fromkeys(tried):
            aparts = _aparts(shown, said, skip, matched, read.held, newest[key_of(line)] == line)
            walk = window_walk(line, shown, said, skip, matched, aparts) if aparts else None
            if walk is None or not read.own(walk):
                continue
            if not decides(walk, skip, order, lines, said, read.found, read.held):
                continue
            if all(
                _edit_told(apart, lines, said)
                and _answered_alone(apart, shown, skip, said[:matched])
                for apart in aparts
                if apart.edited
            ):
                return walk
    return None


def _aparts(
    shown: Shown, said: Sequence[Said], skip: int, matched: int, held: Collection[int], newest: bool
) -> tuple[Apart, ...]:
    """The replies of the window's first `matched` messages, up to `REACH_BACK` messages back,
    that the client shows otherwise than the line chose them, each as a walk would match it
    there (a swipe it shows, whole or cut, or the chosen one edited), the line's last reply
    edited among them (`_last_edited`); none when a message there differs otherwise (a user
    message, a reply too near the end, or one no walk would match there). The rest of the
    window is compared by `window_walk`."""
    last = _last_edited(shown, said, skip, matched, held, newest)
    found = [] if last is None else [last]
    texts = texts_of(said)
    for index in range(matched - 2, max(-1, matched - 2 - REACH_BACK), -1):
        if bare(texts[index]) != shown.bares[skip + index]:
            apart = _apart(shown, said, skip, matched, index, held, newest)
            if apart is None:
                return ()
            found.append(apart)
    return tuple(found)


def _apart(
    shown: Shown,
    said: Sequence[Said],
    skip: int,
    matched: int,
    index: int,
    held: Collection[int],
    newest: bool,
) -> Apart | None:
    """The reply at the window's `index`, which the client shows otherwise than the line chose
    it, as a walk would match it there; None when it is not a reply, too near the end (but the
    one the player's last line answers, before a regenerate), or no walk would match it there."""
    roles = roles_of(said)
    # The reply the player's last line answers, the window's last message: a regenerate.
    answered = index == matched - 2 and roles[matched - 1] == "user"
    if (
        (index > matched - 3 and not answered)
        or roles[index] != "assistant"
        or shown.roles[skip + index] != "assistant"
    ):
        return None
    message = shown.chat.messages[shown.positions[skip + index]]
    found = showing(message, said[index].text)
    if found is not None:
        return Apart(index, *found)
    return _edited(shown, said, skip, index, held, newest)


def _last_edited(
    shown: Shown, said: Sequence[Said], skip: int, matched: int, held: Collection[int], newest: bool
) -> Apart | None:
    """The window's last message matched, when it is the line's last reply (events aside) and
    the player edited it (it shows none of its swipes, whole or cut: a reply shown so is the
    line as shown, `aligned`): the walk that matches it so reaches the line's end."""
    index = matched - 1
    if skip + index != len(shown.texts) - 1 or shown.roles[-1] != "assistant":
        return None
    text = said[index].text
    if said[index].role != "assistant" or bare(text) == shown.bares[-1]:
        return None
    if showing(shown.chat.messages[shown.positions[-1]], text) is not None:
        return None
    return _edited(shown, said, skip, index, held, newest)


def _edited(
    shown: Shown, said: Sequence[Said], skip: int, index: int, held: Collection[int], newest: bool
) -> Apart | None:
    """The reply at the window's `index` as the player edited it, as a walk takes an edit there
    (`walk.walk`); None when a walk would not, or may take another message as edited too."""
    if index < 2 or said[index - 1].role != "user":
        return None  # a walk may take the message before it as edited: two edits would tie
    position, messages = shown.positions[skip + index], shown.chat.messages
    message, text = messages[position], said[index].text
    if index in held or not edits(message, text, EDIT_KEEPS * (not newest)):
        return None  # the full walk's walk ends here: a reply deleted, or new text
    if edited_place(messages, position, text) != position:
        return None  # it keeps more of a later reply: the messages between were deleted
    return Apart(index, edited_swipe(message, text), edited=True)


def _edit_told(apart: Apart, lines: Sequence[tuple[str, Shown]], said: Sequence[Said]) -> bool:
    """Whether no walk matches the edited reply `apart` says as shown (whole or cut) right
    after the user message before it, by its text, on any line read: so none matches every
    message the walk matches with no edit (the module's note)."""
    before, text = said[apart.index - 1].text, said[apart.index].text
    return not any(index.answered(before, text, besides=-1) for _, index in lines)


def _answered_alone(apart: Apart, shown: Shown, skip: int, window: Sequence[Said]) -> bool:
    """Whether no other walk of the line that matches every message of `window` takes its one
    edit at the reply `apart` says, edited, when it is the window's last but one, answered by the
    player's line the window ends with (a regenerate): one from an earlier place would tie and
    win. It matches the two one right after the other, the reply as shown or as one the edit
    keeps anything of, as `aligned.ends_alone` tells a walk that takes no edit."""
    if apart.index != len(window) - 2:
        return True
    if not skip and shown.roles[-1] != window[-1].role:
        return True  # no earlier place, and no walk to the line's end ends on a user message
    last = skip + len(window) - 1
    return not shown.says_after(window[-2].text, window[-1].text, besides=last, edited=True)
