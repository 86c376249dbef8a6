"""`[fight: ...]` tags bound to the fight commands: begin, attack, act, heal, next, end
(`docs/fights.md`). Names are matched against the game when the command runs; here a tag only has
to ask for one known op with the attributes that op reads."""

from __future__ import annotations

import re

from ...commands.common import Refused, integer, malformed, requested
from ...commands.fight import AMOUNT_LIMIT, NAME_LIMIT, OPS, READS, FightCommand
from ...parse import Tag
from ...reasons import Reason
from ...text import clean

_BETWEEN_NAMES = re.compile(r",(?![^()]*\))")


def bind_fight(tag: Tag) -> FightCommand | Refused:
    if tag.problem:
        return malformed(tag, tag.problem)
    attributes = requested(tag)
    op = attributes.get("op", "").strip().lower()
    if op not in OPS:
        return malformed(tag, f"op must be one of {', '.join(OPS)}; got {op or 'none'!r}")
    unread = sorted(set(attributes) - {"op", *READS[op]})
    if unread:
        return malformed(tag, f'op="{op}" reads {", ".join(READS[op]) or "nothing else"}')
    text = {k: " ".join(attributes[k].split())[:NAME_LIMIT] for k in READS[op] if k in attributes}
    if op == "begin":
        against = _names(text.get("against", ""))
        if not against:
            return malformed(tag, 'op="begin" names the opponents with against=')
        return FightCommand(op, against=against, boss=_names(text.get("boss", "")))
    amount = None
    if "amount" in text:
        amount = integer(text["amount"])
        if amount is None or not 1 <= amount <= AMOUNT_LIMIT:
            command = FightCommand(op, text.get("who") or None, text.get("target") or None)
            request = (*command.request, ("amount", clean(text["amount"])))
            return Refused(
                Reason.BAD_AMOUNT, f"amount is a whole number from 1 to {AMOUNT_LIMIT}", request
            )
    return FightCommand(
        op,
        who=text.get("who") or None,
        target=text.get("target") or None,
        with_=text.get("with") or None,
        amount=amount,
    )


def _names(text: str) -> tuple[str, ...]:
    """The comma-separated names, a comma inside parentheses (a stat block's) not splitting."""
    return tuple(name.strip() for name in _BETWEEN_NAMES.split(text) if name.strip())[:12]
