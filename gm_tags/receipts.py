"""A receipt: what became of one command tag, and the canonical tag written back in its place."""

from __future__ import annotations

from typing import Any, NamedTuple

from .commands import Request
from .reasons import Reason
from .text import NOW_LIMIT, clean

# Refusals whose line in the next reminder carries the detail, because the model cannot write
# the command right without it (where a tag could not be read, the labels a difficulty may name).
# A fight's refusals say whose turn it is, what the options are, or who stands.
_EXPLAINED = frozenset(
    {
        Reason.MALFORMED,
        Reason.UNKNOWN_DIFFICULTY,
        Reason.UNKNOWN_SKILL,
        Reason.NOT_YOUR_TURN,
        Reason.UNKNOWN_OPTION,
        Reason.NO_SUCH_TARGET,
        Reason.UNKNOWN_OPPONENT,
        # What a bag, a purse or a ruleset allows: how much is carried, held, bound, worth.
        Reason.SLOT_FULL,
        Reason.BINDING_FULL,
        Reason.OVER_LIMIT,
        Reason.OVER_CAP,
        Reason.UNKNOWN_UNIT,
        Reason.WRONG_CURRENCY,
        Reason.UNKNOWN_TABLE,
    }
)


class Receipt(NamedTuple):
    """One command tag's outcome. `start`/`end` are its span in the reply the model wrote;
    `written` is the tag as written there; `tag` is the receipt written back in its place."""

    family: str
    request: Request
    now: str | None
    reason: Reason | None
    detail: str
    start: int
    end: int
    written: str
    tag: str
    # A rolled check's: whether it succeeded (None for every other receipt).
    succeeded: bool | None = None

    @classmethod
    def of(
        cls,
        family: str,
        request: Request,
        now: str | None,
        reason: Reason | None,
        detail: str,
        span: tuple[int, int],
        written: str,
        tag: str | None = None,
        succeeded: bool | None = None,
    ) -> Receipt:
        tag = tag or render(family, request, now, reason)
        start, end = span
        return cls(family, request, now, reason, detail, start, end, written, tag, succeeded)

    @property
    def ok(self) -> bool:
        return self.reason is None

    @property
    def result(self) -> str:
        return "ok" if self.reason is None else "refused"

    @property
    def summary(self) -> str:
        """One line for a log or the next reminder: `Mira spend grit -> 3/8`,
        `Mira spend grit refused (insufficient)`, `clock Alarm raised tick -> 4/6`."""
        request = dict(self.request)
        if "raw" in request:
            words = [f"a {self.family} tag that could not be read"]
        elif self.family == "clock":
            action = next((key for key in ("size", "tick", "clear") if key in request), "")
            words = ["clock", request.get("name") or "", action]
        elif self.family == "skill_check":
            words = [request.get("who") or "", "check"]
        elif self.family == "fight":
            words = ["fight", request.get("op") or "", request.get("who") or ""]
        elif self.family in ("inventory", "loot"):
            what = request.get("item") or request.get("table") or request.get("unit") or ""
            words = [request.get("who") or "", request.get("action") or "loot", what]
        else:
            target = next(
                (
                    request[key]
                    for key in ("pool", "track", "condition", "state", "field", "rest", "name")
                    if request.get(key)
                ),
                "",
            )
            who = request.get("who") or ("party" if request.get("sheet") == "party" else "")
            words = [who, request.get("op") or "", target or ""]
        head = " ".join(word for word in words if word)
        if self.reason in _EXPLAINED or (
            self.family == "inventory" and self.reason is Reason.INSUFFICIENT
        ):
            return f"{head} refused ({self.reason}: {self.detail})"
        if self.reason is not None:
            return f"{head} refused ({self.reason.value})"
        return f"{head} -> {self.now}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "tag": self.tag,
            "request": dict(self.request),
            "result": self.result,
            "now": self.now,
            "reason": None if self.reason is None else str(self.reason),
            "detail": self.detail,
            "span": [self.start, self.end],
            "written": self.written,
        }


def render(family: str, request: Request, now: str | None, reason: Reason | None) -> str:
    """The canonical receipt: the request rebuilt from what was read, then the outcome."""
    parts = [key if value is None else f'{key}="{clean(value)}"' for key, value in request]
    if reason is None:
        parts.append('result="ok" now="' + clean(now or "", NOW_LIMIT) + '"')
    else:
        parts.append('result="refused" reason="' + reason + '"')  # a StrEnum: its value
    return f"[{family}: {' '.join(parts)}]"
