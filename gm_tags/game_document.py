"""Reading a game document (the JSON a game is saved as) into checked parts.

Keys this build gives meaning to are checked; every other key is carried unchanged, so a document
written by a newer build or by the Engine loses nothing here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from .engine.clocks import Clock
from .errors import GameDocumentError, Problem
from .ruleset.problems import problems_from
from .text import name_key, unsafe_reason

KNOWN_KEYS = ("rulesetClocks",)


def _clock_name(name: str) -> str:
    reason = unsafe_reason(name)
    if reason:
        raise ValueError(f"a clock name {reason}")
    if '"' in name:
        raise ValueError("a clock name cannot contain double quotes")
    return name


class ClockRecord(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)

    name: Annotated[str, Field(min_length=1, max_length=100), AfterValidator(_clock_name)]
    size: Annotated[int, Field(ge=2, le=12)]
    filled: Annotated[int, Field(ge=0)] = 0

    @model_validator(mode="after")
    def _within_size(self) -> ClockRecord:
        if self.filled > self.size:
            raise ValueError(f"filled is {self.filled}, more than the size {self.size}")
        return self


class GameDocument(BaseModel):
    model_config = ConfigDict(
        extra="allow", strict=True, frozen=True, populate_by_name=True, defer_build=True
    )

    ruleset_clocks: list[ClockRecord] | None = Field(default=None, alias="rulesetClocks")


@dataclass(frozen=True, slots=True)
class ReadDocument:
    clocks: tuple[Clock, ...]
    carried: dict[str, Any]


def read_document(document: Mapping[str, Any]) -> ReadDocument:
    if not isinstance(document, Mapping):
        raise GameDocumentError([Problem("(root)", "a game document is a JSON object")])
    data = dict(document)
    try:
        checked = GameDocument.model_validate(data)
    except ValidationError as error:
        raise GameDocumentError(problems_from(error, data, GameDocument)) from None
    clocks = tuple(
        Clock(record.name, record.size, record.filled) for record in checked.ruleset_clocks or ()
    )
    _no_shared_names(clocks)
    carried = {key: value for key, value in data.items() if key not in KNOWN_KEYS}
    return ReadDocument(clocks, carried)


def _no_shared_names(clocks: tuple[Clock, ...]) -> None:
    seen: dict[str, int] = {}
    problems = []
    for at, clock in enumerate(clocks):
        key = name_key(clock.name)
        if key in seen:
            problems.append(
                Problem(
                    f"rulesetClocks.{at}.name",
                    f"{clock.name!r} is also the name of clock {seen[key]}; names must differ",
                )
            )
        seen.setdefault(key, at)
    if problems:
        raise GameDocumentError(problems)
