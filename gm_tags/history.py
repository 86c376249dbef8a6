"""A chat's history: messages, each reply with its swipes, each swipe with the game snapshot it
left. The current snapshot is the one the last message's chosen swipe left (the game the chat
started with, before any).

- `reply(text)` applies a reply to the current snapshot.
- `regenerate(text)` adds a swipe to the last reply, applied to the snapshot from before it.
- `continue_reply(text)` applies more of the last reply to the snapshot it left, and joins the
  text onto that swipe.
- `select(n)` chooses another swipe of the last reply; `delete_last()` and `delete_swipe(n)` take
  messages and swipes away. The current snapshot follows, whole: live values, clocks, the party
  sheet and its revision.
- `save_party_sheet(draft, revision)` and `rest(rest, who)` record a player's save or rest as an
  event in the story, with the snapshot it left.

A `Chat` is a value: every step returns a new one. Because each swipe keeps the snapshot it left,
nothing is applied twice and nothing is lost, whatever order the steps come in.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Literal

from .dice import Thrown, joined
from .errors import GmTagsError
from .game import Game, PartySave, SheetEdit
from .history_pages import appended
from .pipeline import Turn
from .text import lone_surrogate

Role = Literal["user", "reply", "event"]


CHAT_ID_LIMIT = 100


def chat_id_problem(chat_id: str) -> str | None:
    """Why `chat_id` cannot name a chat, or None. An id is 1 to 100 letters (of any script),
    digits, spaces, `-`, `_`, `.` and `:`, neither starting nor ending with a space or a dot,
    so it can stand in a URL path and a file name as it is."""
    if not chat_id or len(chat_id) > CHAT_ID_LIMIT:
        return f"a chat id is 1 to {CHAT_ID_LIMIT} characters"
    bad = next((c for c in chat_id if not (_word_character(c) or c in " -_.:")), None)
    if bad is not None:
        return f"a chat id holds letters, digits, spaces and - _ . : only, not {bad!r}"
    if chat_id[0] in " ." or chat_id[-1] in " .":
        return "a chat id neither starts nor ends with a space or a dot"
    return None


TITLE_LIMIT = 120


def chat_title_problem(title: str) -> str | None:
    """Why `title` cannot be a chat's readable name, or None: at most 120 characters on one
    line, no control characters ("" takes a title away)."""
    if len(title) > TITLE_LIMIT:
        return f"a chat title is at most {TITLE_LIMIT} characters"
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in title):
        return "a chat title is one line, without control characters"
    return None


def title_from(text: str, limit: int = 60) -> str:
    """A readable name made from a chat's opening words: the first line's words, cut at a word
    before `limit` characters (with an ellipsis when cut)."""
    words = " ".join("".join(c if unicodedata.category(c)[0] != "C" else " " for c in text).split())
    if len(words) <= limit:
        return words
    cut = words[: limit - 1].rsplit(" ", 1)[0] if " " in words[: limit - 1] else words[: limit - 1]
    return cut.rstrip(" ,;:.") + "…"


def _word_character(char: str) -> bool:
    """A letter, a mark that belongs with one (Devanagari vowel signs), or a digit."""
    return unicodedata.category(char)[0] in "LMN"


class HistoryError(GmTagsError, ValueError):
    """A history step that cannot be taken here (regenerating when the last message is no
    reply, choosing a swipe that does not exist)."""


@dataclass(frozen=True)
class Swipe:
    """One version of a message: its text, the snapshot it left and, for a reply, the reply
    rewritten, its narration, its receipts and `thrown`, what its dice threw roll by roll (a
    reply read again throws them again; empty when it threw none, None when they are not known:
    stored before they were kept, or a continuation of such a reply) and `joins`, where in its
    text each continuation was joined on, in order (the reply as it was given out before each:
    a client showing it so saw that part whole; None when not known: stored before they were
    kept)."""

    text: str
    game: Game
    reply: str = ""
    narration: str = ""
    receipts: tuple[dict[str, Any], ...] = ()
    thrown: Thrown | None = ()
    joins: tuple[int, ...] | None = ()

    @classmethod
    def of(cls, text: str, turn: Turn[Game], joins: tuple[int, ...] | None = ()) -> Swipe:
        receipts = tuple(r.to_dict() for r in turn.receipts)
        return cls(text, turn.game, turn.reply, turn.narration, receipts, turn.thrown, joins)

    def narrated(self, narration: str) -> Swipe:
        """This swipe with the players reading `narration` (the same text as theirs, spaced as
        a front-end shows it): its snapshot, tags and receipts stay."""
        return replace(self, narration=narration)


class StoredSwipe(Swipe):
    """A swipe read back from a store: its snapshot is made from its document when first asked
    for, so a chat opens without making every turn's game (a chat of 10,000 turns plays from
    its last one)."""

    @classmethod
    def read(
        cls,
        text: str,
        game: Callable[[], Game],
        reply: str,
        narration: str,
        receipts: tuple[dict[str, Any], ...],
        thrown: Thrown | None = (),
        joins: tuple[int, ...] | None = (),
    ) -> Swipe:
        swipe = object.__new__(cls)
        fields: dict[str, object] = {"text": text, "reply": reply, "narration": narration}
        fields.update(receipts=receipts, thrown=thrown, joins=joins)
        swipe.__dict__.update(fields, _made=game)
        return swipe

    @cached_property
    def game(self) -> Game:
        # Its maker is dropped only once it made the game: a read that failed (a line changed
        # since it was read) raises again when asked again, and a later read may succeed.
        made: Callable[[], Game] = self.__dict__["_made"]
        game = made()
        self.__dict__.pop("_made", None)
        return game

    def narrated(self, narration: str) -> Swipe:
        # Its snapshot is this one's, still made only when asked for.
        return StoredSwipe.read(
            self.text,
            lambda: self.game,
            self.reply,
            narration,
            self.receipts,
            self.thrown,
            self.joins,
        )


@dataclass(frozen=True)
class Message:
    role: Role
    swipes: tuple[Swipe, ...]
    selected: int = 0

    @property
    def swipe(self) -> Swipe:
        return self.swipes[self.selected]


@dataclass(frozen=True)
class Chat:
    """`messages` is a tuple, or for a chat read from a store a `PagedMessages` whose older
    messages are read when first asked for (`gm_tags.history_pages`); steps keep it paged."""

    start: Game
    messages: Sequence[Message] = ()

    @property
    def game(self) -> Game:
        """The current snapshot."""
        return self.messages[-1].swipe.game if self.messages else self.start

    def _before(self, at: int) -> Game:
        return self.messages[at - 1].swipe.game if at > 0 else self.start

    def user(self, text: str) -> Chat:
        """A player's message: it changes no state."""
        return self._with(Message("user", (Swipe(text, self.game),)))

    def reply(self, text: str, *, seed: int | str | None = None) -> tuple[Chat, Turn[Game]]:
        turn = self.game.apply_reply(text, seed=seed)
        return self.replied(text, turn), turn

    def regenerate(self, text: str, *, seed: int | str | None = None) -> tuple[Chat, Turn[Game]]:
        turn = self.before_last_reply().apply_reply(text, seed=seed)
        return self.regenerated(text, turn), turn

    def continue_reply(
        self, text: str, *, seed: int | str | None = None
    ) -> tuple[Chat, Turn[Game]]:
        turn = self._last_reply().swipe.game.continue_reply(text, seed=seed)
        return self.continued(text, turn), turn

    def before_last_reply(self) -> Game:
        """The snapshot a regenerated last reply applies to."""
        self._last_reply()
        return self._before(len(self.messages) - 1)

    def replied(self, text: str, turn: Turn[Game]) -> Chat:
        """The chat with a reply added, `turn` being `text` applied to the current snapshot (as
        a stream gives it)."""
        return self._with(Message("reply", (Swipe.of(text, turn),)))

    def regenerated(self, text: str, turn: Turn[Game]) -> Chat:
        """The chat with a swipe added to the last reply, `turn` being `text` applied to the
        snapshot before it."""
        last = self._last_reply()
        swipes = (*last.swipes, Swipe.of(text, turn))
        return self._replace_last(Message("reply", swipes, len(swipes) - 1))

    def continued(self, text: str, turn: Turn[Game]) -> Chat:
        """The chat with `text` joined onto the last reply's chosen swipe, `turn` being `text`
        continued from the snapshot that swipe left."""
        last = self._last_reply()
        # The continuation's receipts, with their spans in the joined text.
        offset = len(last.swipe.text)
        added = [receipt.to_dict() for receipt in turn.receipts]
        for receipt in added:
            receipt["span"] = [at + offset for at in receipt["span"]]
        whole = Swipe(
            last.swipe.text + text,
            turn.game,
            last.swipe.reply + turn.reply,
            last.swipe.narration + turn.narration,
            (*last.swipe.receipts, *added),
            # Read again whole, its tags throw them; not known, the whole is not.
            None if last.swipe.thrown is None else joined(last.swipe.thrown, turn.thrown, offset),
            # The joins before this one stay not known (None) where they were; this one is.
            (*(last.swipe.joins or ()), offset),
        )
        swipes = tuple(whole if i == last.selected else s for i, s in enumerate(last.swipes))
        return self._replace_last(replace(last, swipes=swipes))

    def select(self, swipe: int) -> Chat:
        last = self._last_reply()
        if not 0 <= swipe < len(last.swipes):
            raise HistoryError(f"the last reply has swipes 0 to {len(last.swipes) - 1}")
        return self._replace_last(replace(last, selected=swipe))

    def delete_last(self) -> Chat:
        if not self.messages:
            raise HistoryError("there is no message to delete")
        return replace(self, messages=self.messages[:-1])

    def delete_swipe(self, swipe: int) -> Chat:
        last = self._last_reply()
        if not 0 <= swipe < len(last.swipes):
            raise HistoryError(f"the last reply has swipes 0 to {len(last.swipes) - 1}")
        if len(last.swipes) == 1:
            return self.delete_last()
        swipes = last.swipes[:swipe] + last.swipes[swipe + 1 :]
        selected = last.selected - (1 if last.selected > swipe else 0)
        return self._replace_last(Message("reply", swipes, min(selected, len(swipes) - 1)))

    def save_party_sheet(self, draft: Mapping[str, Any], revision: int) -> tuple[Chat, PartySave]:
        result = self.game.save_party_sheet(draft, revision)
        if not result.saved:
            return self, result
        return self.record("party sheet saved", result.game), result

    def rest(self, rest: str, who: str | None = None) -> tuple[Chat, SheetEdit]:
        """A rest taken outside a reply (from a sheet screen): an event when it is taken."""
        edit = self.game.rest(rest, who)
        if not edit.ok:
            return self, edit
        return self.record(f"rest {rest}: {edit.now}", edit.game), edit

    def set_box(
        self, who: str | None, track: str, box: int, kind: str | None
    ) -> tuple[Chat, SheetEdit]:
        """A wound box marked (`kind`) or cleared by hand on the sheet screen: an event."""
        edit = self.game.set_box(who, track, box, kind)
        if not edit.ok:
            return self, edit
        what = f"{self._track_label(track)} box {box} {'marked' if kind else 'cleared'}"
        return self.record(f"{who or 'player'}: {what}: {edit.now}", edit.game), edit

    def _track_label(self, track: str) -> str:
        """The track's label as the sheet shows it, for an event a player reads (`track` may be
        its id or its label)."""
        ruleset = self.game.ruleset
        tracks = ruleset.index.tracks.values() if ruleset is not None else ()
        named = (
            t.label for t in tracks if track.casefold() in (t.id.casefold(), t.label.casefold())
        )
        return next(named, track)

    def set_state(self, who: str | None, state: str, value: str) -> tuple[Chat, SheetEdit]:
        """A live state picked on the sheet screen: an event."""
        edit = self.game.set_state(who, state, value)
        if not edit.ok:
            return self, edit
        return self.record(f"{who or 'player'}: {edit.now}", edit.game), edit

    def record(self, text: str, game: Game) -> Chat:
        """An event in the story: a change made outside a reply, with the snapshot it left."""
        return self._with(Message("event", (Swipe(text, game),)))

    def _last_reply(self) -> Message:
        if not self.messages or self.messages[-1].role != "reply":
            raise HistoryError("the last message is not a reply")
        return self.messages[-1]

    # Made directly, not by dataclasses.replace: a step's chat is made on the way to the first
    # token of every request, and replace costs a lookup of the fields each time.
    def _with(self, message: Message) -> Chat:
        return type(self)(self.start, appended(self.messages, _storable(message)))

    def _replace_last(self, message: Message) -> Chat:
        return type(self)(self.start, appended(self.messages[:-1], _storable(message)))


def _storable(message: Message) -> Message:
    """`message`, unless its text could not be stored (a lone surrogate)."""
    for swipe in message.swipes:
        reason = lone_surrogate(swipe.text)
        if reason:
            raise HistoryError(f"the message {reason}")
    return message
