"""`[sheet: ...]` tags bound to typed commands.

    [sheet: who="Mira" op="spend" pool="grit" amount="2"]
    [sheet: op="track" track="heat" by="-1"]
    [sheet: who="party" op="condition" condition="shaken" state="off"]

What a command needs is checked here: an op the engine knows (`heal` is `restore`, `cast` is
`use`), the attributes that op takes, whole numbers in range. Which character, pool or track a
name means depends on the game, so the executor resolves names.
"""

from __future__ import annotations

from ...commands.common import Refused, Request, integer, malformed, requested
from ...commands.sheet import (
    AMOUNT_LIMIT,
    OP_ALIASES,
    OPS,
    PARTY,
    PARTY_OPS,
    TRACK_LIMIT,
    WHO_LIMIT,
    ConditionCommand,
    NoteCommand,
    PartyCommand,
    PoolCommand,
    RestCommand,
    SheetCommand,
    StateCommand,
    TrackCommand,
    UseCommand,
    WoundCommand,
)
from ...parse import Tag
from ...reasons import Reason
from ...text import clean

_ON = {"on": True, "add": True, "true": True, "yes": True}
_OFF = {"off": False, "remove": False, "false": False, "no": False}


def bind_sheet(tag: Tag) -> SheetCommand | Refused:
    if tag.problem:
        return malformed(tag, tag.problem)
    attributes = requested(tag)
    who = attributes.get("who")
    who = who.strip()[:WHO_LIMIT] if who is not None else None
    op = attributes.get("op", "").strip().lower()
    op = OP_ALIASES.get(op, op)
    if op not in OPS:
        return malformed(tag, f"op must be one of {', '.join(OPS)}; got {op or 'none'!r}")
    sheet = attributes.get("sheet")
    if sheet is not None:
        return _on_sheet(tag, sheet, op, attributes)
    if op == "advance":
        rest: Request = tuple((k, v) for k, v in attributes.items() if k not in ("who", "op"))
        return Refused(
            Reason.WRONG_SHEET,
            'op=advance changes the party sheet: write sheet="party"',
            SheetCommand(who, op, rest).request,
        )
    return _BINDERS[op](tag, who, op, attributes)


def _on_sheet(tag: Tag, sheet: str, op: str, attributes: dict[str, str]) -> SheetCommand | Refused:
    """`sheet="party"`: the shared sheet, which takes spend, restore and advance (`who` is left
    out: the party sheet belongs to no one character)."""
    rest: Request = tuple(
        (key, value) for key, value in attributes.items() if key not in ("sheet", "op", "who")
    )
    written: Request = (("sheet", sheet), ("op", op), *rest)
    if sheet.strip().casefold() != PARTY:
        return Refused(Reason.UNKNOWN_SHEET, f'the only sheet= is "party", not {sheet!r}', written)
    if op not in PARTY_OPS:
        return Refused(
            Reason.WRONG_SHEET,
            f"the party sheet takes {', '.join(PARTY_OPS)}; not op={op}",
            (("sheet", PARTY), ("op", op), *rest),
        )
    if op == "advance":
        return _advance(tag, op, attributes)
    bound = _pool_or_wound(tag, None, op, attributes)
    if isinstance(bound, Refused):
        return Refused(bound.reason, bound.detail, (("sheet", PARTY), *bound.request))
    if not isinstance(bound, PoolCommand):
        return malformed(tag, "the party sheet has pools, not tracks")
    return PartyCommand(None, op, bound.attributes, pool=bound.pool, amount=bound.amount)


def _target_and_change(
    tag: Tag, op: str, attributes: dict[str, str], target: str
) -> tuple[str, str] | Refused:
    """The thing an op names and which of `to=` or `by=` it gives: exactly one of the two."""
    problem = _needs(tag, op, attributes, target)
    if problem:
        return problem
    given = [key for key in ("to", "by") if key in attributes]
    if len(given) != 1:
        return malformed(tag, f"op={op} takes exactly one of to= or by=")
    return attributes[target], given[0]


def _advance(tag: Tag, op: str, attributes: dict[str, str]) -> SheetCommand | Refused:
    found = _target_and_change(tag, op, attributes, "field")
    if isinstance(found, Refused):
        return found
    field, key = found
    if key == "to":
        return PartyCommand(
            None, op, (("field", field), ("to", attributes["to"])), field=field, to=attributes["to"]
        )
    request: Request = (("sheet", PARTY), ("op", op), ("field", field), ("by", attributes["by"]))
    by = integer(attributes["by"])
    if by is None or abs(by) > TRACK_LIMIT:
        detail = (
            f"by must be a whole number up to {TRACK_LIMIT} either way, got {attributes['by']!r}"
        )
        return Refused(Reason.BAD_AMOUNT, detail, request)
    return PartyCommand(None, op, (("field", field), ("by", str(by))), field=field, by=by)


def _needs(tag: Tag, op: str, attributes: dict[str, str], *keys: str) -> Refused | None:
    missing = [key for key in keys if key not in attributes]
    if missing:
        return malformed(tag, f"op={op} needs {' and '.join(f'{key}=' for key in missing)}")
    return None


def _number(
    who: str | None, op: str, request: Request, key: str, text: str, low: int, high: int
) -> int | Refused:
    number = integer(text)
    if number is None or not low <= number <= high:
        detail = f"{key} must be a whole number from {low} to {high}, got {text!r}"
        return Refused(Reason.BAD_AMOUNT, detail, SheetCommand(who, op, request).request)
    return number


def _pool_or_wound(
    tag: Tag, who: str | None, op: str, attributes: dict[str, str]
) -> SheetCommand | Refused:
    if op == "damage" and "track" in attributes and "pool" not in attributes:
        return _wound(tag, who, op, attributes)
    if op == "damage" and "track" in attributes:
        return malformed(tag, "damage names a pool= or a track=, not both")
    problem = _needs(tag, op, attributes, "pool", "amount")
    if problem:
        return problem
    pool, text = attributes["pool"], attributes["amount"]
    request: Request = (("pool", pool), ("amount", text))
    low = 0 if op == "temp" else 1
    amount = _number(who, op, request, "amount", text, low, AMOUNT_LIMIT)
    if isinstance(amount, Refused):
        return amount
    return PoolCommand(who, op, (("pool", pool), ("amount", str(amount))), pool, amount)


def _wound(
    tag: Tag, who: str | None, op: str, attributes: dict[str, str]
) -> SheetCommand | Refused:
    problem = _needs(tag, op, attributes, "amount")
    if problem:
        return problem
    track, kind, text = attributes["track"], attributes.get("kind"), attributes["amount"]
    box_text = attributes.get("box")
    request: Request = (
        ("track", track),
        *((("kind", kind),) if kind else ()),
        ("amount", text),
        *((("box", box_text),) if box_text else ()),
    )
    amount = _number(who, op, request, "amount", text, -AMOUNT_LIMIT, AMOUNT_LIMIT)
    if isinstance(amount, Refused):
        return amount
    if amount == 0:
        detail = "amount must not be 0: a positive amount marks, a negative one heals"
        return Refused(Reason.BAD_AMOUNT, detail, SheetCommand(who, op, request).request)
    box = None
    if box_text is not None:
        if integer(box_text) is None:  # not a number at all: the Engine's malformed
            return malformed(tag, f"box must be a box's number, 1 to 64, got {box_text!r}")
        box_number = _number(who, op, request, "box", box_text, 1, 64)
        if isinstance(box_number, Refused):
            return box_number
        box = box_number
    if kind is None and amount > 0:
        return malformed(tag, "a mark needs kind=: which kind of harm it is")
    canonical: Request = (
        ("track", track),
        *((("kind", kind),) if kind else ()),
        ("amount", str(amount)),
        *((("box", str(box)),) if box is not None else ()),
    )
    return WoundCommand(who, op, canonical, track, kind, amount, box)


def _track(
    tag: Tag, who: str | None, op: str, attributes: dict[str, str]
) -> SheetCommand | Refused:
    found = _target_and_change(tag, op, attributes, "track")
    if isinstance(found, Refused):
        return found
    track, key = found
    request: Request = (("track", track), (key, attributes[key]))
    number = _number(who, op, request, key, attributes[key], -TRACK_LIMIT, TRACK_LIMIT)
    if isinstance(number, Refused):
        return number
    canonical: Request = (("track", track), (key, str(number)))
    if key == "to":
        return TrackCommand(who, op, canonical, track, number, None)
    return TrackCommand(who, op, canonical, track, None, number)


def _condition(
    tag: Tag, who: str | None, op: str, attributes: dict[str, str]
) -> SheetCommand | Refused:
    problem = _needs(tag, op, attributes, "condition")
    if problem:
        return problem
    written = attributes.get("state", "on").strip().lower()
    on = _ON.get(written, _OFF.get(written))
    if on is None:
        return malformed(tag, f'state= is "on" or "off", got {written!r}')
    condition = attributes["condition"]
    canonical: Request = (("condition", condition), ("state", "on" if on else "off"))
    return ConditionCommand(who, op, canonical, condition, on)


def _state(
    tag: Tag, who: str | None, op: str, attributes: dict[str, str]
) -> SheetCommand | Refused:
    problem = _needs(tag, op, attributes, "state", "value")
    if problem:
        return problem
    state, value = attributes["state"], attributes["value"]
    return StateCommand(who, op, (("state", state), ("value", value)), state, value)


def _note(tag: Tag, who: str | None, op: str, attributes: dict[str, str]) -> SheetCommand | Refused:
    problem = _needs(tag, op, attributes, "field")
    if problem:
        return problem
    field, value = attributes["field"], attributes.get("value")
    request: Request = (("field", field), *((("value", clean(value, 500)),) if value else ()))
    return NoteCommand(who, op, request, field, value)


def _rest(tag: Tag, who: str | None, op: str, attributes: dict[str, str]) -> SheetCommand | Refused:
    problem = _needs(tag, op, attributes, "rest")
    if problem:
        return problem
    return RestCommand(who, op, (("rest", attributes["rest"]),), attributes["rest"])


def _use(tag: Tag, who: str | None, op: str, attributes: dict[str, str]) -> SheetCommand | Refused:
    name = attributes.get("name", attributes.get("spell"))
    if name is None:
        return malformed(tag, "op=use needs name=")
    pool = attributes.get("pool")
    request: Request = (("name", name), *((("pool", pool),) if pool else ()))
    return UseCommand(who, op, request, name, pool)


_BINDERS = {
    "spend": _pool_or_wound,
    "restore": _pool_or_wound,
    "damage": _pool_or_wound,
    "temp": _pool_or_wound,
    "track": _track,
    "condition": _condition,
    "state": _state,
    "note": _note,
    "rest": _rest,
    "use": _use,
}
