"""The fight section of the per-turn reminder (`docs/fights.md`): while no fight runs, how to
begin one and whom it may be against; while one runs, the commands that apply and a fight block
(round, order and whose turn, every side's health, conditions, budgets left, the options of the
side to act, and what happened lately). A ruleset without a `combat` block gets nothing.
"""

from __future__ import annotations

from ..engine.fight.abilities import runs
from ..engine.fight.concentration import holding
from ..engine.fight.health import health_of
from ..engine.fight.options import options_for
from ..engine.fight.turns import gm_plays, whose_turn
from ..ruleset.combat import Combat
from ..ruleset.loader import Ruleset
from ..sheet.encounter import Combatant, Encounter
from ..state import GameState
from .text import safe

# The names the begin line lists (the bestiary first, then the tiers).
MOST_NAMED = 12


def fight_section(game: GameState) -> str:
    ruleset = game.ruleset
    combat = ruleset.definition.combat if ruleset is not None else None
    if ruleset is None or combat is None:
        return ""
    if game.fight is None:
        return "\n".join(_begin_lines(ruleset, combat))
    return "\n".join([*_running_lines(combat), *_block(game, game.fight)])


def _begin_lines(ruleset: Ruleset, combat: Combat) -> list[str]:
    names = [
        f"{safe(entry.label)} ({entry.id})"
        for catalog in ruleset.definition.catalogs or ()
        if catalog.holds == "creatures"
        for entry in catalog.entries or ()
        if entry.creature is not None
    ]
    tiers = [f"{safe(t.label)} ({t.id})" for t in (combat.threat.tiers if combat.threat else ())]
    lines = [
        "Fights run by these rules: the engine rolls every die and keeps every number.",
        '- Begin one: [fight: op="begin" against="name, name"] (each a creature, a threat tier, '
        'or your own "Name (tier, health N, damage N)"; boss="name" for one you may play '
        "yourself).",
    ]
    if names:
        lines.append("Creatures: " + ", ".join(names[:MOST_NAMED]) + ".")
    if tiers:
        lines.append("Threat tiers: " + ", ".join(tiers[:MOST_NAMED]) + ".")
    return lines


def _running_lines(combat: Combat) -> list[str]:
    lines = [
        "A fight runs. Only whoever is on turn acts, with one of the options listed for them:",
        '- Attack: [fight: op="attack" who="Name" target="Name" with="option"]',
    ]
    others = [*(combat.standard or ()), *(c.label for c in combat.contests or ())]
    if others:
        lines.append(
            "- Another option (" + ", ".join(safe(s) for s in others[:10]) + "): "
            '[fight: op="act" who="Name" with="option" target="Name"] (help names an ally; '
            "a contest an opponent)"
        )
    return [
        *lines,
        '- Heal: [fight: op="heal" who="Name" target="Name" amount="3"] (on a wound track it '
        "clears the lightest mark)",
        '- Pass the turn: [fight: op="next"] (the engine then plays the opponents it plays)',
        '- End it: [fight: op="end"] (what it cost stays on the sheets)',
        "Leave result, now and reason out: the engine writes them.",
    ]


def _block(game: GameState, fight: Encounter) -> list[str]:
    turn = safe(whose_turn(game, fight))
    lines = ["<fight>", turn[:1].upper() + turn[1:] + "."]
    order = []
    for position, member_id in enumerate(fight.order):
        member = fight.get(member_id)
        mark = "> " if position == fight.turn else ""
        order.append(mark + _member(game, member))
    lines.append("Order: " + "; ".join(order) + ".")
    actor = fight.actor
    if actor.side == "party" or gm_plays(game, actor):
        offered = [
            f"{safe(o.label)} ({o.id})"
            for o in options_for(game, actor, actor.spent)
            if o.left and o.kind != "end-turn" and (o.kind != "ability" or runs(o))
        ]
        lines.append(
            f"{safe(actor.name)} may: " + (", ".join(offered) or "nothing; pass the turn") + "."
        )
        lines.append(_budgets(game, actor))
    if fight.log:
        lines.append("Lately: " + " | ".join(safe(line, 300) for line in fight.log[-4:]))
    lines.append("</fight>")
    return lines


def _member(game: GameState, member: Combatant) -> str:
    """`Name health` with what they suffer (an opponent's conditions are the encounter's), what
    they hold, dodging, and dying, stable or dead."""
    health = health_of(game, member)
    down = f" {member.fate}" if member.fate else " down"
    words = f"{safe(member.name)} {health.text}" + (down if health.value <= 0 else "")
    on: tuple[str, ...] = member.conditions
    if member.side == "party":
        on = game.live_of(next(c for c in game.characters if c.key == member.id)).conditions
    sheet = game.ruleset.definition.sheet if game.ruleset else None
    labels = [c.label for c in sheet.live.conditions if c.id in on] if sheet else []
    labels += ["dodging"] if "dodge" in member.stances else []
    labels += ["helped"] if "helped" in member.stances else []
    if labels:
        words += " (" + ", ".join(safe(label) for label in labels) + ")"
    held = holding(game, member)
    return words + (f", concentrating on {safe(held)}" if held else "")


def _budgets(game: GameState, actor: Combatant) -> str:
    assert game.ruleset is not None and game.ruleset.definition.combat is not None
    budgets = game.ruleset.definition.combat.economy.budgets
    left = [f"{safe(b.label)} {b.count - actor.spent.get(b.id, 0)}/{b.count}" for b in budgets]
    return "Budgets left: " + ", ".join(left) + "."
