from __future__ import annotations

from typing import NamedTuple

from ..commands import Request
from ..reasons import Reason


class Outcome(NamedTuple):
    """What running one command came to: `now` when it applied, `reason` when it was refused.

    `request` replaces the command's own request in the receipt when running it resolved a name
    (a clock written back under the name it was created with)."""

    now: str | None = None
    reason: Reason | None = None
    detail: str = ""
    request: Request | None = None
    # The whole receipt, for a family whose receipt is not the request plus result and now (a
    # rolled check writes its rolls, totals and extras in the Engine's order).
    tag: str | None = None
    # A rolled check's: whether it succeeded, which decides the branch the narration keeps.
    succeeded: bool | None = None

    @classmethod
    def refused(cls, reason: Reason, detail: str, request: Request | None = None) -> Outcome:
        return cls(None, reason, detail, request)
