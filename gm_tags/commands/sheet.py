"""The sheet commands a `[sheet: ...]` tag binds to (`gm_tags.families.sheet.bind`), with the
limits and op names they hold to.
"""

from __future__ import annotations

from dataclasses import dataclass

from .common import Request

WHO_LIMIT = 100
AMOUNT_LIMIT = 100_000
TRACK_LIMIT = 1_000_000
OP_ALIASES = {"heal": "restore", "cast": "use"}
POOL_OPS = ("spend", "restore", "damage", "temp")
OPS = (*POOL_OPS, "track", "condition", "state", "note", "rest", "use", "advance")
PARTY_OPS = ("spend", "restore", "advance")
PARTY = "party"


@dataclass(frozen=True, slots=True)
class SheetCommand:
    """What every sheet command has: who it names (as written, None for the player's card), its
    op, and its own attributes in the order a receipt writes them back."""

    who: str | None
    op: str
    attributes: Request

    def request_for(self, who: str | None) -> Request:
        """The request a receipt writes back, naming `who` (the resolved name, once known)."""
        head: Request = (("who", who),) if who is not None else ()
        return (*head, ("op", self.op), *self.attributes)

    @property
    def request(self) -> Request:
        """The request as the model wrote it, for refusals before `who` is resolved."""
        return self.request_for(self.who)


@dataclass(frozen=True, slots=True)
class PoolCommand(SheetCommand):
    pool: str
    amount: int


@dataclass(frozen=True, slots=True)
class WoundCommand(SheetCommand):
    track: str
    kind: str | None
    amount: int
    box: int | None


@dataclass(frozen=True, slots=True)
class TrackCommand(SheetCommand):
    track: str
    to: int | None
    by: int | None


@dataclass(frozen=True, slots=True)
class ConditionCommand(SheetCommand):
    condition: str
    on: bool


@dataclass(frozen=True, slots=True)
class StateCommand(SheetCommand):
    state: str
    value: str


@dataclass(frozen=True, slots=True)
class NoteCommand(SheetCommand):
    field: str
    value: str | None


@dataclass(frozen=True, slots=True)
class PartyCommand(SheetCommand):
    """A command on the shared party sheet (`sheet="party"`): a pool op or an advance."""

    pool: str | None = None
    amount: int | None = None
    field: str | None = None
    by: int | None = None
    to: str | None = None

    def request_for(self, who: str | None) -> Request:
        return (("sheet", "party"), ("op", self.op), *self.attributes)


@dataclass(frozen=True, slots=True)
class RestCommand(SheetCommand):
    rest: str


@dataclass(frozen=True, slots=True)
class UseCommand(SheetCommand):
    name: str
    pool: str | None
