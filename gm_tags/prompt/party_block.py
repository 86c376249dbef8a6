"""The party block, beside the character sheet blocks every turn: the party's label, its summary
fields (or every visible field), its pools always, its summary lists, and its `text`."""

from __future__ import annotations

from ..sheet.build import hidden, list_rows
from ..state import GameState
from .sheet_block import _field_text, summary_list
from .text import safe


def party_block(game: GameState) -> str:
    party = game.ruleset.definition.party if game.ruleset is not None else None
    if party is None:
        return ""
    values = game.party_values()
    fields = {field.id: field for field in party.fields}
    chosen = party.summary.fields if party.summary is not None else [f.id for f in party.fields]
    shown = []
    for field_id in chosen:
        field = fields.get(field_id)
        if field is None or hidden(field.hide_when, fields, values):
            continue
        value = game.party_value(field_id)
        if value in ("", None):
            continue
        shown.append(f"{safe(field.label)} {_field_text(field, value)}")
    live = game.party_live
    pools = [
        f"{safe(pool.label)} {pool.now(live)[0]}/{pool.maximum}"
        + (f" +{pool.now(live)[1]} temp" if pool.now(live)[1] else "")
        for pool in game.party_pools()
    ]
    lines = [safe(party.label), ", ".join(shown), ", ".join(pools)]
    lists = {sheet_list.id: sheet_list for sheet_list in party.lists or ()}
    for summary in party.summary.lists if party.summary is not None else ():
        sheet_list = lists.get(summary.list_)
        if sheet_list is not None and not hidden(sheet_list.hide_when, fields, values):
            lines.append(summary_list(sheet_list, list_rows(sheet_list, values), summary))
    if party.text:
        lines.append(party.text)
    return "\n".join(line for line in lines if line)
