"""A reply through the whole chain: scan, parse, bind, execute in reply order, rewrite, narrate.

Each command runs against the snapshot the commands before it left. Running one never mutates a
snapshot, so a command that fails inside the engine is refused (`engine-error`) and the snapshot
before it carries on whole; nothing a reply holds can make this raise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .commands import Refused
from .commands.clock import ClockCommand, bind_clock
from .commands.common import malformed
from .commands.sheet import SheetCommand, bind_sheet
from .engine.clocks import run_clock
from .engine.outcome import Outcome
from .engine.sheet import run_sheet
from .parse import Tag, parse_all
from .reasons import Reason
from .receipts import Receipt
from .rewrite import narrate, rewrite
from .scan import scan

if TYPE_CHECKING:
    from .game import Game

# At most this many tags of one family apply per reply; the ones after are refused `too-many`.
MAX_PER_FAMILY = 40

Command = ClockCommand | SheetCommand
BINDERS: dict[str, Callable[[Tag], Command | Refused]] = {"clock": bind_clock, "sheet": bind_sheet}


@dataclass(frozen=True, slots=True)
class Turn:
    """A processed reply: `reply` with every command tag a receipt, the `narration` the player
    reads, the `receipts` in reply order, and the `game` snapshot the reply left."""

    reply: str
    narration: str
    receipts: tuple[Receipt, ...]
    game: Game

    def to_dict(self) -> dict[str, Any]:
        return {
            "reply": self.reply,
            "narration": self.narration,
            "receipts": [receipt.to_dict() for receipt in self.receipts],
            "game": self.game.to_document(),
        }


_TOO_MANY = {
    family: Outcome.refused(Reason.TOO_MANY, f"only {MAX_PER_FAMILY} {family} tags apply per reply")
    for family in BINDERS
}


def process(game: Game, reply: str) -> Turn:
    receipts: list[Receipt] = []
    seen: Counter[str] = Counter()
    # A family this build does not run yet stays in the text as written.
    candidates = [candidate for candidate in scan(reply) if candidate.name in BINDERS]
    for tag in parse_all(candidates):
        seen[tag.name] += 1
        over_limit = seen[tag.name] > MAX_PER_FAMILY
        game, receipt = _one(game, tag, BINDERS[tag.name], over_limit=over_limit)
        receipts.append(receipt)
    refused = tuple(receipt.summary for receipt in receipts if not receipt.ok)
    if refused or game.recent:
        game = game.with_recent(refused)
    return Turn(
        reply=rewrite(reply, receipts),
        narration=narrate(reply, [(receipt.start, receipt.end) for receipt in receipts]),
        receipts=tuple(receipts),
        game=game,
    )


def _one(
    game: Game, tag: Tag, bind: Callable[[Tag], Command | Refused], *, over_limit: bool
) -> tuple[Game, Receipt]:
    try:
        bound = malformed(tag, tag.problem) if tag.problem else bind(tag)
        request = bound.request
        if over_limit:
            outcome = _TOO_MANY[tag.name]
        elif isinstance(bound, Refused):
            outcome = Outcome.refused(bound.reason, bound.detail)
        else:
            game, outcome = _execute(game, bound)
    except Exception as error:  # a fault of ours must cost one command, never the reply
        request = malformed(tag, "").request
        outcome = Outcome.refused(Reason.ENGINE_ERROR, f"{type(error).__name__}: {error}")
    receipt = Receipt.of(
        tag.name,
        outcome.request or request,
        outcome.now,
        outcome.reason,
        outcome.detail,
        (tag.start, tag.end),
        tag.raw,
    )
    return game, receipt


def _execute(game: Game, command: Command) -> tuple[Game, Outcome]:
    if isinstance(command, SheetCommand):
        return run_sheet(command, game)
    settings = game.ruleset.definition.clocks if game.ruleset is not None else None
    clocks, outcome = run_clock(command, game.clocks, settings)
    return (game if clocks is game.clocks else game.with_clocks(clocks)), outcome
