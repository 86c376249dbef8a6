"""The lines that teach the model the commands its ruleset can use, in the ruleset's own words
(its ids and labels), each with the limits the engine enforces, so no refusal comes as a
surprise."""

from __future__ import annotations

from ..commands.sheet import AMOUNT_LIMIT
from ..ruleset.loader import Ruleset
from ..ruleset.refs import ValueRef
from ..sheet.wounds import MAX_BOXES
from .text import safe


def sheet_command_lines(ruleset: Ruleset) -> list[str]:
    sheet = ruleset.definition.sheet
    live = sheet.live
    pool = safe(live.pools[0].label) if live.pools else "Pool"
    lines = [
        "Change a sheet only with these tags; the engine checks each one, applies it and writes "
        "the result into the tag:",
    ]
    if live.pools or any(lst.pools for lst in sheet.lists):
        lines += [
            f'- Spend: [sheet: who="Name" op="spend" pool="{pool}" amount="1"] (a whole '
            f"number from 1 to {AMOUNT_LIMIT}; refused when the pool holds less)",
            f'- Restore: [sheet: who="Name" op="restore" pool="{pool}" amount="1"] '
            "(up to its maximum)",
            f'- Damage a pool: [sheet: who="Name" op="damage" pool="{pool}" amount="1"] '
            "(temporary points go first; never below 0)",
        ]
        temp = [safe(p.label) for p in live.pools if p.allow_temp]
        if temp:
            lines.append(
                f'- Temporary points: [sheet: who="Name" op="temp" pool="{temp[0]}" amount="5"] '
                f"(sets them, 0 to {AMOUNT_LIMIT}; only {_or(temp)} take them)"
            )
    plain = [t for t in live.tracks if not t.is_wound]
    if plain:
        lines.append(
            f'- Move a track: [sheet: who="Name" op="track" track="{safe(plain[0].label)}" '
            'by="1"], or to="2" to set it (held within its range)'
        )
    wound = [t for t in live.tracks if t.is_wound]
    if wound:
        first = wound[0]
        kind = first.kinds[0].id if first.kinds else "kind"
        lines.append(
            f'- Mark harm: [sheet: who="Name" op="damage" track="{safe(first.label)}" '
            f'kind="{kind}" amount="1"] (a negative amount heals; the track command does not '
            "work on these)"
        )
        indexed = [t for t in wound if t.fill == "indexed"]
        if indexed:
            lines.append(
                f'- On {_or([safe(t.label) for t in indexed])} add box="3" to mark that box '
                "(or the next free one above it)"
            )
    if live.conditions:
        lines.append(
            f'- Condition: [sheet: who="Name" op="condition" condition="'
            f'{safe(live.conditions[0].label)}" state="on"] (or state="off")'
        )
    if live.states:
        state = live.states[0]
        lines.append(
            f'- State: [sheet: who="Name" op="state" state="{safe(state.label)}" '
            f'value="{safe(state.label_of(state.values[-1]))}"]'
        )
    if live.text:
        entry = live.text[0]
        lines.append(
            f'- Note: [sheet: who="Name" op="note" field="{safe(entry.label)}" value="..."] '
            "(leave value out to clear it)"
        )
    rests = ruleset.definition.rests
    if rests:
        lines.append(f'- Rest: [sheet: who="Name" op="rest" rest="{safe(rests[0].label)}"]')
    usable = _usable(ruleset)
    if usable is not None:
        higher = _upcast(ruleset)
        lines.append(
            f'- Use: [sheet: who="Name" op="use" name="{safe(usable)}"] when a character uses '
            "something they have; the engine pays its cost, or refuses it whole"
            + (
                f'; add pool="{safe(higher)}" to pay a one-pool cost out of another pool of its '
                "group (an upcast: the receipt says what the steps up add)"
                if higher
                else ""
            )
        )
    lines.append(
        'Leave who out for the player\'s character; who="party" means every character. Never '
        "write result, reason or now: the engine writes them."
    )
    return lines


def _usable(ruleset: Ruleset) -> str | None:
    """The label of the first catalog entry that costs something to use, if the ruleset has one:
    `use` is taught only where there is something to pay for."""
    for catalog in ruleset.definition.catalogs or ():
        for entry in catalog.entries or () if catalog.holds in (None, "rows") else ():
            if entry.mechanics is not None and entry.mechanics.cost:
                return entry.label
    return None


def _upcast(ruleset: Ruleset) -> str | None:
    """A later pool of the group a one-pool cost pays from, if any entry has such a cost: `pool=`
    is taught only where an upcast can happen."""
    pools = ruleset.definition.sheet.live.pools
    for catalog in ruleset.definition.catalogs or ():
        for entry in catalog.entries or () if catalog.holds in (None, "rows") else ():
            cost = entry.mechanics.cost if entry.mechanics is not None else None
            if not cost or len(cost) != 1:
                continue
            term = cost[0].pool
            named = next((p for p in pools if p.id == term), None)
            group = named.group if named is not None else term
            family = [p for p in pools if group and p.group == group]
            if len(family) > 1:
                return family[-1].label
    return None


def party_command_lines(ruleset: Ruleset) -> list[str]:
    """The party sheet's commands, only when the ruleset has one."""
    party = ruleset.definition.party
    if party is None:
        return []
    lines = [f"The shared party sheet, {safe(party.label)}, takes these (leave who out):"]
    if party.pools:
        pool = safe(party.pools[0].label)
        lines.append(
            f'- [sheet: sheet="party" op="spend" pool="{pool}" amount="2"] and op="restore" '
            f"(party pools: {', '.join(safe(p.label) for p in party.pools)})"
        )
    advancement = party.advancement
    if advancement is not None:
        fields = {field.id: field for field in party.fields}
        named = [fields[f] for f in advancement.fields if f in fields]
        numbers = [f for f in named if f.type == "number"]
        texts = [f for f in named if f.type in ("text", "longtext")]
        if numbers:
            ranges = ", ".join(f"{safe(f.label)} {f.min} to {f.max}" for f in numbers)
            lines.append(
                f'- [sheet: sheet="party" op="advance" field="{safe(numbers[0].label)}" by="1"] '
                f'or to="2" ({ranges})'
            )
        if texts:
            names = ", ".join(
                f"{safe(f.label)} (up to {getattr(f, 'max_length', 500)} characters)" for f in texts
            )
            lines.append(
                f'- [sheet: sheet="party" op="advance" field="{safe(texts[0].label)}" '
                f'to="..."] ({names})'
            )
        if advancement.text:
            lines.append(advancement.text)
    lines.append('who="party" still means every character and never changes the shared sheet.')
    return lines


def vocabulary_lines(ruleset: Ruleset) -> list[str]:
    """What the ruleset's commands can name: pools, tracks (plain and wound), notes, conditions,
    states with their values, rests."""
    sheet = ruleset.definition.sheet
    live = sheet.live
    lines = []
    if live.pools:
        lines.append("Pools: " + ", ".join(safe(p.label) for p in live.pools) + ".")
    rows = [safe(lst.label) for lst in sheet.lists if lst.pools]
    if rows:
        lines.append(f"Each row of {_or(rows)} is a pool too, named by the row.")
    plain = [
        f"{safe(t.label)} {t.min} to {_most(ruleset, t.max)}" for t in live.tracks if not t.is_wound
    ]
    if plain:
        lines.append("Tracks: " + "; ".join(plain) + ".")
    for track in (t for t in live.tracks if t.is_wound):
        kinds = ", ".join(f"{k.id} ({safe(k.label, 16)})" for k in track.kinds or ())
        if track.levels:
            shape = f"from {safe(track.levels[0].label)} to {safe(track.levels[-1].label)}"
        else:
            shape = f"one box per point of {_most(ruleset, track.max)}, at most {MAX_BOXES}"
        if track.fill == "indexed":
            shape += ", filled by box"
        if track.fill == "indexed" or track.on_full == "refuse":
            shape += ", refusing marks that do not fit"
        lines.append(f"Wound track {safe(track.label)}: {shape}; kinds {kinds}.")
    if live.text:
        lines.append(
            "Notes: "
            + ", ".join(f"{safe(t.label)} (up to {t.max_length} characters)" for t in live.text)
            + "."
        )
    if live.conditions:
        lines.append("Conditions: " + ", ".join(safe(c.label) for c in live.conditions) + ".")
    for state in live.states:
        values = ", ".join(safe(state.label_of(v)) for v in state.values)
        lines.append(f"State {safe(state.label)}: {values}.")
    if ruleset.definition.rests:
        lines.append("Rests: " + ", ".join(safe(r.label) for r in ruleset.definition.rests) + ".")
    return lines


def _most(ruleset: Ruleset, maximum: int | ValueRef) -> str:
    """A track's maximum: the number, or what it is read from, in words."""
    if isinstance(maximum, int):
        return str(maximum)
    kind, target = maximum.kind, maximum.target
    index = ruleset.index
    found = {
        "field": index.fields,
        "derived": index.derived,
        "abilityScore": index.abilities,
        "abilityMod": index.abilities,
    }.get(kind, {}).get(target)
    if kind == "const":
        return str(target)
    return f"the character's {safe(found.label)}" if found is not None else "a number on the sheet"


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
