"""The fight commands a `[fight: ...]` tag binds to (`gm_tags.families.fight.bind`): begin,
attack, act, heal, next, end (`docs/fights.md`), and the attributes each op reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text import clean
from .common import Request

OPS = ("begin", "attack", "act", "heal", "next", "end")
# The attributes each op reads, in the order a receipt writes them back.
READS = {
    "begin": ("against", "boss"),
    "attack": ("who", "target", "with"),
    "act": ("who", "target", "with"),
    "heal": ("who", "target", "amount"),
    "next": (),
    "end": (),
}
NAME_LIMIT = 400
AMOUNT_LIMIT = 999


@dataclass(frozen=True, slots=True)
class FightCommand:
    op: str
    who: str | None = None
    target: str | None = None
    with_: str | None = None
    against: tuple[str, ...] = ()
    boss: tuple[str, ...] = ()
    amount: int | None = None

    @property
    def request(self) -> Request:
        values = {
            "who": self.who,
            "target": self.target,
            "with": self.with_,
            "against": ", ".join(self.against) or None,
            "boss": ", ".join(self.boss) or None,
            "amount": None if self.amount is None else str(self.amount),
        }
        written = ((key, values[key]) for key in READS[self.op])
        return (("op", self.op), *((key, clean(value)) for key, value in written if value))
