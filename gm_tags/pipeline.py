"""A reply through the whole chain: scan, parse, bind, run in reply order, rewrite, narrate.

The reply's commands change one `Draft` of the state, in reply order, each seeing what the ones
before it left; the state the reply was applied to is never changed, and the draft is frozen into
the new state once, at the end. A command that fails inside the engine has what it wrote undone
from the draft's log and is refused (`engine-error`); the commands before and after it stand, and
nothing a reply holds can make this raise. Each tag is bound and run by its family
(`gm_tags.families.registry`); nothing here names one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Generic

from .commands import Refused
from .commands.common import malformed
from .dice import Dice, Recorded, Thrown
from .engine.outcome import Outcome
from .families.family import Family
from .families.registry import FAMILIES
from .grammar import branch_pattern, read_branch
from .parse import Tag, parse_all
from .reasons import Reason
from .receipts import Receipt, render, summary_line, unread
from .rewrite import narrate, rewrite
from .scan import Candidate, scan
from .state import Draft, S

# At most this many tags of one family apply per reply; the ones after are refused `too-many`.
MAX_PER_FAMILY = 40
# The refusals the next reminder lists one by one; any more are counted.
RECENT_LIMIT = 20

# What may stand between a check and its branches.
AFTER_CHECK = re.compile(r"[ \t]*\n?[ \t]*")
_MORE_REFUSED_LINE = "{} more commands were refused"
_MORE_REFUSED = re.compile(r"(\d+) more commands were refused")


@dataclass(frozen=True, slots=True)
class Turn(Generic[S]):
    """A processed reply: `reply` with every command tag a receipt, the `narration` the player
    reads, the `receipts` in reply order, and the `game` snapshot the reply left. `thrown`: what
    its dice threw, roll by roll (a stored reply read again throws them again: `ThrownAgain`);
    not part of what a turn says, so turns that differ only in it are equal."""

    reply: str
    narration: str
    receipts: tuple[Receipt, ...]
    game: S
    thrown: Thrown = field(default=(), compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "reply": self.reply,
            "narration": self.narration,
            "receipts": [receipt.to_dict() for receipt in self.receipts],
            "game": self.game.to_document(),
        }


def process(game: S, reply: str, dice: Dice | None = None, *, continues: bool = False) -> Turn[S]:
    """`reply` applied to `game`: its commands change one draft, in reply order, frozen into the
    state the reply leaves. A reply that `continues` the one that left `game` adds its refusals
    and checks to what the next reminder must say, instead of replacing them."""
    run = ReplyRun(game, dice, continues=continues)
    for tag in parse_all(commands_in(reply)):
        run.apply(tag)
    return run.finish(reply)


def commands_in(reply: str, start: int = 0) -> list[Candidate]:
    """The candidates in `reply` (from `start`, as `scan` reads it) that name a command family."""
    return [candidate for candidate in scan(reply, start) if candidate.name in FAMILIES]


class ReplyRun(Generic[S]):
    """One reply's commands applied one at a time, in reply order, to a draft of `game`: what
    `process` does for a whole reply, and a stream (`gm_tags.stream`) does as each tag closes.
    The same tags applied with the same dice give the same receipts and state either way."""

    def __init__(
        self, game: S, dice: Dice | None = None, *, continues: bool = False, applies: bool = True
    ) -> None:
        # Recorded here, around the dice given: a turn keeps the faces any dice threw.
        self.game, self.dice, self.continues = game, Recorded(dice or Dice()), continues
        # False: every tag is read and refused `not-applied`, none run (an answer that is no
        # turn of the story: its tags, and both halves of its checks, still leave the narration).
        self.applies = applies
        self.receipts: list[Receipt] = []
        self._draft = Draft(game)
        self._seen: dict[str, int] = {}

    def apply(self, tag: Tag) -> Receipt:
        self._seen[tag.name] = count = self._seen.get(tag.name, 0) + 1
        refusal = None
        if not self.applies:
            refusal = Outcome.refused(Reason.NOT_APPLIED, "this answer is no turn of the story")
        elif count > MAX_PER_FAMILY:
            refusal = Outcome.refused(
                Reason.TOO_MANY, f"only {MAX_PER_FAMILY} {tag.name} tags apply per reply"
            )
        self.dice.for_tag(tag.start)  # a reply read again: each tag its own faces
        receipt = _one(self._draft, tag, FAMILIES[tag.name], self.dice, refusal=refusal)
        self.receipts.append(receipt)
        return receipt

    def finish(self, reply: str, narration: str | None = None) -> Turn[S]:
        """The turn: `reply` (the text every applied tag was found in) rewritten and narrated
        (unless its `narration` is given: a stream built it as the reply came), and the state
        the commands left."""
        receipts = self.receipts
        starts = [receipt.start for receipt in receipts] + [len(reply)]
        hidden: list[tuple[int, int]] = []
        rolls: list[str] = []
        refused: list[str] = []
        for receipt, bound in zip(receipts, starts[1:], strict=True):
            family = FAMILIES[receipt.family]
            if narration is None:
                hidden.append((receipt.start, receipt.end))
                if family.branches:
                    hidden += branch_spans(reply, receipt, bound)
            roll = family.rolled(receipt.now, receipt.reason, receipt.detail)
            if roll is not None:
                rolls.append(roll)
            if not receipt.ok and receipt.reason not in family.unlisted:
                refused.append(receipt.summary)
        rolled = tuple(rolls)
        game = self.game
        if self.continues:
            recent, rolled = _recent(game.recent, refused), game.rolled + rolled
        else:
            recent = _recent((), refused)
        return Turn(
            reply=rewrite(reply, receipts),
            narration=narrate(reply, sorted(hidden)) if narration is None else narration,
            receipts=tuple(receipts),
            game=self._draft.freeze(recent=recent, rolled=rolled, turn=game.turn + 1),
            thrown=self.dice.thrown,
        )


def _recent(before: tuple[str, ...], refused: list[str]) -> tuple[str, ...]:
    """What the next reminder says did not happen: `before` (a continued reply's lines) and then
    a line per refused command, the first `RECENT_LIMIT` of them, then how many more (a reply of
    nothing but broken tags must not grow the prompt, or the stored snapshot, without bound)."""
    more = 0
    if before and (counted := _MORE_REFUSED.fullmatch(before[-1])) is not None:
        before, more = before[:-1], int(counted.group(1))
    lines = [*before, *refused]
    more += max(0, len(lines) - RECENT_LIMIT)
    kept = lines[:RECENT_LIMIT]
    return (*kept, _MORE_REFUSED_LINE.format(more)) if more else tuple(kept)


def branch_spans(reply: str, receipt: Receipt, bound: int) -> list[tuple[int, int]]:
    """What the narration leaves out of the branches written after a check: the wrapper of the
    half that happened (its text stays), all of the other half, and both halves of a check that
    was not rolled."""
    spans: list[tuple[int, int]] = []
    at = receipt.end
    happened = "success" if receipt.succeeded else "failure"
    branches = branch_pattern()
    for _ in range(2):
        gap = AFTER_CHECK.match(reply, at, bound)
        found = branches.match(reply, gap.end() if gap else at, bound)
        if found is None:
            break
        branch = read_branch(found.group())
        if receipt.ok and branch.outcome == happened:
            opening = found.start() + branch.text_at
            spans += [(found.start(), opening), (found.end() - 1, found.end())]
        else:
            spans.append((found.start(), found.end()))
        at = found.end()
    return spans


def _one(
    draft: Draft[Any], tag: Tag, family: Family[Any], dice: Dice, *, refusal: Outcome | None
) -> Receipt:
    """The tag bound and run on `draft`, or refused with `refusal` without running."""
    checkpoint = draft.checkpoint()
    try:
        bound = malformed(tag, tag.problem) if tag.problem else family.bind(tag)
        if refusal is not None:
            outcome = refusal
        elif isinstance(bound, Refused):
            outcome = Outcome.refused(bound.reason, bound.detail)
        else:
            outcome = family.run(bound, draft, dice)
            full = draft.over_bounds(checkpoint)
            if full is not None:
                draft.restore(checkpoint)
                outcome = Outcome.refused(Reason.LIVE_STATE_FULL, full, outcome.request)
        # The command's own request, unless running it wrote back another (a resolved name).
        request = outcome.request or bound.request
    except Exception as error:  # a fault of ours must cost one command, never the reply
        draft.restore(checkpoint)
        request = malformed(tag, "").request
        outcome = Outcome.refused(Reason.ENGINE_ERROR, f"{type(error).__name__}: {error}")
    tagged = dict(request)
    words = unread(tag.name) if "raw" in tagged else family.words(tagged)
    summary = summary_line(
        words, outcome.now, outcome.reason, outcome.detail, explained=family.explained
    )
    return Receipt(
        tag.name,
        request,
        outcome.now,
        outcome.reason,
        outcome.detail,
        tag.start,
        tag.end,
        tag.raw,
        outcome.tag or render(tag.name, request, outcome.now, outcome.reason),
        summary,
        outcome.succeeded,
    )
