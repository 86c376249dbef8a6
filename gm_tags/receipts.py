"""A receipt: what became of one command tag, and the canonical tag written back in its place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .commands import Request
from .reasons import Reason
from .text import NOW_LIMIT, clean


@dataclass(frozen=True, slots=True)
class Receipt:
    """One command tag's outcome. `start`/`end` are its span in the reply the model wrote;
    `written` is the tag as written there."""

    family: str
    request: Request
    now: str | None
    reason: Reason | None
    detail: str
    start: int
    end: int
    written: str

    @property
    def ok(self) -> bool:
        return self.reason is None

    @property
    def result(self) -> str:
        return "ok" if self.ok else "refused"

    @property
    def tag(self) -> str:
        """The canonical receipt: the request rebuilt from what was read, then the outcome."""
        parts = [key if value is None else f'{key}="{clean(value)}"' for key, value in self.request]
        parts.append(f'result="{self.result}"')
        if self.reason is not None:
            parts.append(f'reason="{self.reason}"')
        elif self.now is not None:
            parts.append(f'now="{clean(self.now, NOW_LIMIT)}"')
        return f"[{self.family}: {' '.join(parts)}]"

    def to_dict(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "tag": self.tag,
            "request": {key: value for key, value in self.request},
            "result": self.result,
            "now": self.now,
            "reason": None if self.reason is None else str(self.reason),
            "detail": self.detail,
            "span": [self.start, self.end],
            "written": self.written,
        }
