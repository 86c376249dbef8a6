"""What the play page shows of a chat, as JSON: every character's sheet as the page describes it
(fields and derived values under their section headings, pools as current/max, wound tracks as
boxes with each mark's kind and the penalty in force, states with their pickers, conditions and
notes), the clocks, the fight that runs (round, whose turn, every side's health, what happened
lately), the party sheet with its revision, the newest page of the story (`story.py`), the latest
reply with its receipts and swipes, and the text fields a character builder offers suggestion chips
for."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ..engine.fight.health import health_of
from ..engine.fight.turns import whose_turn
from ..engine.pools import pools_of
from ..engine.wounds import wound_track
from ..game import Game
from ..history import Chat
from ..party import party_of, party_value
from ..prompt.inventory import inventory_lines
from ..ruleset.loader import Ruleset
from ..sheet.build import Build, field_value, hidden
from ..sheet.character import Character
from ..sheet.live import LiveState, Wounds
from ..sheet.pickers import state_choices
from ..sheet.plan import plan_for
from ..sheet.plan_live import track_value
from .story import story_page


def chat_view(chat_id: str, chat: Chat, revision: int) -> dict[str, Any]:
    game = chat.game
    return {
        "chat": chat_id,
        "revision": revision,
        "ruleset": game.ruleset.name if game.ruleset else None,
        "characters": [character_view(game, character) for character in game.characters],
        "clocks": [
            {"name": c.name, "filled": c.filled, "size": c.size, "done": c.done}
            for c in game.clocks
        ],
        "fight": _fight(game),
        "party": _party(game),
        "story": story_page(chat),
        "last": _last(chat),
        "builder": _builder(game.ruleset),
    }


def _fight(game: Game) -> dict[str, Any] | None:
    fight = game.fight
    if fight is None:
        return None
    members = []
    for position, member_id in enumerate(fight.order):
        member = fight.get(member_id)
        health = health_of(game, member)
        members.append(
            {
                "name": member.name,
                "side": member.side,
                "health": health.value,
                "max": health.most,
                "down": health.value <= 0,
                "acting": position == fight.turn,
            }
        )
    return {
        "round": fight.round,
        "turn": whose_turn(game, fight),
        "outcome": fight.outcome,
        "members": members,
        "log": list(fight.log[-6:]),
    }


def character_view(game: Game, character: Character) -> dict[str, Any]:
    """One character's sheet as the play page shows it (the MCP server's `read_sheet` too)."""
    ruleset = game.ruleset
    if ruleset is None:
        return {"name": character.name, "sections": [], "pools": [], "tracks": []}
    live = game.live_of(character)
    view = character.view(ruleset, live)
    index = ruleset.index
    sections: dict[str | None, list[dict[str, Any]]] = {}
    abilities = [
        {"label": a.label, "value": _number(view[("abilityMod", a.id)])}
        for a in ruleset.definition.sheet.abilities
    ]
    # Each skill with the number a check of it starts from, as the sheet stands now.
    skills = [
        {"label": s.label, "value": _number(view[("skillMod", s.id)])}
        for s in ruleset.definition.sheet.skills
    ]
    for field in ruleset.definition.sheet.fields:
        if hidden(field.hide_when, index.fields, character.build):
            continue
        value = field_value(index.fields, character.build, field.id)
        if value in ("", None):
            continue
        shown = field.label_of(str(value)) if field.type == "enum" else value
        sections.setdefault(field.section, []).append({"label": field.label, "value": shown})
    for derived in ruleset.definition.sheet.derived:
        if hidden(derived.hide_when, index.fields, character.build):
            continue
        sections.setdefault(derived.section, []).append(
            {"label": derived.label, "value": _number(view[("derived", derived.id)])}
        )
    # Fields without a section say who the character is (a playbook, a nickname): first, under
    # the name and before any heading, so they never read as part of the section above them.
    unheaded: list[dict[str, Any]] = (
        [{"label": None, "entries": sections.pop(None)}] if None in sections else []
    )
    headed: list[dict[str, Any]] = [
        {"label": index.sections[key].label if key in index.sections else None, "entries": found}
        for key, found in sections.items()
    ]
    if abilities:
        headed.insert(0, {"label": "Abilities", "entries": abilities})
    if skills:
        headed.append({"label": "Skills", "entries": skills})
    headed = unheaded + headed
    return {
        "name": character.name,
        # The player's own: the card a command without `who=` means (the first, when none is named).
        "player": character is game.player_character,
        "sections": headed,
        "pools": _pools(ruleset, character, live),
        "tracks": _tracks(ruleset, character, live),
        "states": [
            {
                "id": s.id,
                "label": s.label,
                "values": [list(v) for v in s.values],
                "current": s.current,
            }
            for s in state_choices(ruleset, character, live)
        ],
        "conditions": [
            c.label for c in ruleset.definition.sheet.live.conditions if c.id in live.conditions
        ],
        "notes": [
            {"label": entry.label, "text": live.text[entry.id]}
            for entry in ruleset.definition.sheet.live.text
            if live.text.get(entry.id)
        ],
        # What the character carries, worn, bound and paid with, as the sheet block says it.
        "carries": inventory_lines(game, character),
    }


def _pools(ruleset: Ruleset, character: Character, live: LiveState) -> list[dict[str, Any]]:
    shown = []
    for pool in pools_of(ruleset, character):
        value, temp = pool.now(live)
        shown.append({"label": pool.label, "value": value, "max": pool.maximum, "temp": temp})
    return shown


def _tracks(ruleset: Ruleset, character: Character, live: LiveState) -> list[dict[str, Any]]:
    plan = plan_for(ruleset)
    permanent = character.permanent_values(plan)
    shown: list[dict[str, Any]] = []
    for track in ruleset.definition.sheet.live.tracks:
        if hidden(track.hide_when, ruleset.index.fields, character.build):
            continue
        if not track.is_wound:
            high = max(track.min, int(permanent[plan.slot(("trackMax", track.id))]))
            value = track_value(track, live, high)
            shown.append({"id": track.id, "label": track.label, "value": value, "max": high})
            continue
        shape = wound_track(ruleset, character, track)
        wounds = shape.settled(live.wounds.get(track.id) or Wounds())
        kinds = {kind.id: kind.label for kind in track.kinds or ()}
        marks = list(wounds.marks) + [""] * max(0, shape.capacity - len(wounds.marks))
        shown.append(
            {
                "id": track.id,
                "label": track.label,
                "wound": True,
                "indexed": shape.indexed,
                "now": shape.now(wounds),
                "penalty": shape.penalty(wounds),
                "overflow": wounds.overflow,
                "kinds": [{"id": k, "label": label} for k, label in kinds.items()],
                "boxes": [
                    {"box": at + 1, "kind": mark or None, "label": kinds.get(mark, mark) or None}
                    for at, mark in enumerate(marks[: shape.capacity])
                ],
            }
        )
    return shown


def _party(game: Game) -> dict[str, Any] | None:
    party = party_of(game.ruleset)
    if party is None:
        return None
    sheet = game.party_values()
    computed = {member.field for member in party.from_members or ()}
    return {
        "label": party.label,
        "revision": game.party_revision,
        "pools": [
            {"label": slot.label, "value": slot.now(game.party_live)[0], "max": slot.maximum}
            for slot in game.party_pools()
        ],
        "fields": [
            {
                "id": field.id,
                "label": field.label,
                "type": field.type,
                # As the sheet reads it: a field never saved shows its default.
                "value": party_value(party, sheet, field.id),
                # Worked out from the members: shown, never the draft's to set.
                "computed": field.id in computed,
            }
            for field in party.fields
        ],
        "sheet": sheet.to_json(),
    }


def _last(chat: Chat) -> dict[str, Any] | None:
    for at in range(len(chat.messages) - 1, -1, -1):
        message = chat.messages[at]
        if message.role == "reply":
            return {
                "message": at,
                "narration": message.swipe.narration,
                "receipts": list(message.swipe.receipts),
                "swipes": [swipe.narration for swipe in message.swipes],
                "selected": message.selected,
                "latest": at == len(chat.messages) - 1,
            }
    return None


def _builder(ruleset: Ruleset | None) -> list[dict[str, Any]]:
    """The text fields a character builder offers suggestion chips for (SH-4), with how many to
    choose when the ruleset says (SH-5; a number, or a reference read from a new character)."""
    if ruleset is None:
        return []
    offered = []
    new = Character("new", Build(MappingProxyType({})))
    for field in ruleset.definition.sheet.fields:
        suggestions = getattr(field, "suggestions", None)
        if field.type != "text" or not suggestions:
            continue
        pick = getattr(field, "pick", None)
        if pick is not None and not isinstance(pick, int):
            pick = _number(new.view(ruleset, LiveState()).read(pick))
        offered.append(
            {"id": field.id, "label": field.label, "suggestions": list(suggestions), "pick": pick}
        )
    return offered


def _number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
