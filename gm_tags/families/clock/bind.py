"""Binding `[clock: ...]` tags to the three clock commands (`gm_tags.commands.clock`): create, tick,
clear.

A tag names its clock and asks for exactly one action (`size=`, `tick=` or `clear`); no action,
or two, is malformed. Name rules are checked here; whether a size is offered, and whether the
clock exists, depend on the game, so the engine checks them.
"""

from __future__ import annotations

from ...commands.clock import NAME_LIMIT, ClearClock, ClockCommand, CreateClock, TickClock
from ...commands.common import Refused, Request, integer, malformed, requested
from ...parse import Tag
from ...reasons import Reason
from ...text import clean, unsafe_reason

# `clear` is a bare flag; `clear="true"` and the like mean the same.
_YES = frozenset({"true", "yes", "on", "1"})


def bind_clock(tag: Tag) -> ClockCommand | Refused:
    if tag.problem:
        return malformed(tag, tag.problem)
    attributes = requested(tag)
    name = attributes.get("name")
    if name is None:
        return malformed(tag, "a clock tag names its clock with name=")
    actions: list[str] = [key for key in ("size", "tick") if key in attributes]
    clear = "clear" in tag.flags or attributes.get("clear", "").lower() in _YES
    if clear:
        actions.append("clear")
    if len(actions) != 1:
        asked = " and ".join(actions) if actions else "nothing"
        return malformed(
            tag, f"a clock tag asks for one of size=, tick= or clear; this asks {asked}"
        )
    name = name.strip()
    problem = _name_problem(name)
    if problem:
        return Refused(Reason.BAD_NAME, problem, _request_of(name, actions[0], attributes))
    if actions[0] == "clear":
        return ClearClock(name)
    value = attributes[actions[0]]
    number = integer(value)
    if actions[0] == "size":
        if number is None:
            return Refused(
                Reason.BAD_SIZE,
                f"size must be a whole number, got {value!r}",
                _request_of(name, "size", attributes),
            )
        return CreateClock(name, number)
    if number is None or number == 0:
        return Refused(
            Reason.BAD_AMOUNT,
            f"tick must be a whole number other than 0, got {value!r}",
            _request_of(name, "tick", attributes),
        )
    return TickClock(name, number)


def _name_problem(name: str) -> str | None:
    if not name:
        return "the name is empty"
    if len(name) > NAME_LIMIT:
        return f"the name is {len(name)} characters long; at most {NAME_LIMIT}"
    if '"' in name:
        return "the name cannot contain double quotes"
    reason = unsafe_reason(name)
    return f"the name {reason}" if reason else None


def _request_of(name: str, action: str, attributes: dict[str, str]) -> Request:
    value = None if action == "clear" else clean(attributes[action])
    return (("name", clean(name)), (action, value))
