"""Commands on the shared party sheet: spending and restoring its pools (the `$party` live
state, under the same arithmetic as a character's pools) and advancing the fields its
`advancement` names (its permanent values: each change raises the sheet's revision)."""

from __future__ import annotations

from typing import Any

from ..commands.sheet import PartyCommand
from ..reasons import Reason
from ..ruleset.sheet import NumberField
from ..state import Draft
from ..text import unsafe_reason
from .naming import by_name
from .outcome import Outcome
from .pools import find_pool, run_pool


def run_party(command: PartyCommand, game: Draft[Any]) -> Outcome:
    """Run `command` on the party sheet of the draft, which it changes in place when it applies."""
    party = game.ruleset.definition.party if game.ruleset is not None else None
    request = command.request_for(None)
    if party is None:
        return Outcome.refused(Reason.UNKNOWN_SHEET, "this ruleset has no party sheet", request)
    if command.op != "advance":
        found = find_pool(game.party_pools(), command.pool or "")
        if isinstance(found, Outcome):
            return found._replace(request=request)
        result = run_pool(command, found, game.party_live)  # type: ignore[arg-type]
        if isinstance(result, Outcome):
            return result._replace(request=request)
        game.set_party_live(result[0])
        return Outcome(now=result[1], request=request)
    field = by_name(party.fields, command.field or "")
    if field is None:
        offered = ", ".join(f.label for f in party.fields)
        return Outcome.refused(
            Reason.UNKNOWN_FIELD,
            f"the party sheet has no field {command.field!r}; it has {offered}",
            request,
        )
    computed = {member.field for member in party.from_members or ()}
    advanced = party.advancement.fields if party.advancement else []
    if field.id not in advanced or field.id in computed:
        why = (
            "is worked out from the members"
            if field.id in computed
            else "is not one advancement names"
        )
        return Outcome.refused(Reason.NO_ADVANCEMENT, f"{field.label} {why}", request)
    value, problem = _advanced(field, game.party_value(field.id), command)
    if problem:
        return Outcome.refused(Reason.BAD_VALUE, problem, request)
    game.set_party_field(field.id, value)
    return Outcome(now=f"{field.label} {_shown(value)}", request=request)


def _advanced(field: Any, current: Any, command: PartyCommand) -> tuple[Any, str]:
    """The field's new value, or why the asked-for value is not one the field can hold."""
    if isinstance(field, NumberField):
        if command.by is not None:
            wanted: float = (current if isinstance(current, int | float) else 0) + command.by
        else:
            try:
                wanted = float(str(command.to).strip())
            except ValueError:
                return None, f"{field.label} holds a number, not {command.to!r}"
            if field.integer and not wanted.is_integer():
                return None, f"{field.label} holds whole numbers, not {command.to!r}"
        if not field.min <= wanted <= field.max:
            return None, f"{field.label} holds {field.min} to {field.max}, not {_shown(wanted)}"
        return (int(wanted) if float(wanted).is_integer() else wanted), ""
    if command.by is not None:
        return None, f"{field.label} is text: advance it with to=, not by="
    text = " ".join(str(command.to).split())
    problem = unsafe_reason(text)
    if problem:
        return None, f"{field.label} {problem}"
    if len(text) > field.max_length:
        return None, f"{field.label} holds at most {field.max_length} characters"
    return text, ""


def _shown(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
