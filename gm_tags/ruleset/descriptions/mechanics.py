"""What the keys of a catalog entry's `mechanics` mean (gm_tags/ruleset/mechanics.py), and of an
item's `worn` and `carried` (gm_tags/ruleset/effects.py)."""

from __future__ import annotations

MECHANICS_OBJECTS: dict[str, dict[str, str]] = {
    "Mechanics": {
        "kind": "What the entry does: `attack`, `heal`, `buff`, `debuff`, `utility` or `rider`.",
        "range": "How far it reaches, in the catalog's distance unit.",
        "area": "The area it covers: a `shape` and a `size`.",
        "targets": "Who it may target: `self`, `ally`, `enemy` or `any`.",
        "friendlyFire": "Whether an area also strikes allies.",
        "amount": "The damage or healing: `dice` and/or `flat`.",
        "damageType": "The damage type dealt (one of `combat.damageTypes`).",
        "plus": "Further damage clauses (at most 3) beside `amount`, each rolled on its own.",
        "attackRoll": "Whether using it throws an attack.",
        "save": "The save a target makes against it, and what a success does.",
        "cost": "What one use pays (at most 4 pools or pool groups), whole or nothing.",
        "perCostStep": "What each step paid above the cost adds (upcasting in a pool group).",
        "check": "What using it does to the check it is named on (`use=`).",
        "concentration": "Whether it lasts only while its user concentrates.",
        "reaction": "`true` if it is taken at a moment rather than on a turn, or that moment.",
        "targetCount": "How many targets it strikes (1 to 20).",
        "autoHit": "Whether it hits without an attack throw.",
        "applies": "Conditions it puts on the targets it affects (at most 4).",
        "temporary": "Temporary points it gives on the health pool.",
        "scales": "Extra dice that grow with a value of the sheet (`from`, `table`).",
        "budget": "The action budget using it spends (else the list's).",
        "free": "`true`: using it spends no budget.",
        "gives": "Budgets it hands its user for this turn (at most 4).",
        "standard": "Standard actions its holder may take for another budget.",
        "rider": "What this passive entry adds to the first qualifying hit of a period.",
    },
    "Area": {
        "shape": "`burst`, `cone` or `line`.",
        "size": "How big, in the catalog's distance unit.",
    },
    "Amount": {"dice": "Dice thrown, such as `2d6` or `1d8+3`.", "flat": "A fixed amount."},
    "Save": {
        "save": "The save thrown (`sheet.saves[]`).",
        "onSuccess": "What a successful save does: `none`, `half` or `negates`.",
    },
    "gm_tags__ruleset__mechanics__Cost": {
        "pool": "The pool or pool group paid from.",
        "amount": "How much of it one use costs.",
    },
    "PlusClause": {
        "dice": "Dice thrown for this clause, such as `2d6`.",
        "flat": "A fixed amount for this clause.",
        "type": "Its own damage type (one of `combat.damageTypes`).",
        "save": "A save the target makes against this clause alone.",
    },
    "ClauseSave": {
        "save": "The save thrown (`sheet.saves[]`).",
        "difficulty": "The number it is thrown against (else the action's).",
        "onSuccess": "What a success leaves of the clause: `none` or `half`.",
    },
    "Applies": {
        "condition": "The condition put on (`sheet.live.conditions[]`).",
        "duration": '`"instant"`, `"until-save"` (with `saveEnds`) or `{"rounds": N}`.',
        "saveEnds": "The save that takes it off, and when it is thrown.",
        "endsAfter": "It comes off after `own-attack`, `attacked` or `own-save`.",
    },
    "Rounds": {
        "rounds": "How many of the holder's turns it lasts (1 to 1000).",
        "at": '`"turn-start"`: counted as each turn begins rather than ends.',
    },
    "SaveEnds": {
        "save": "The save thrown (`sheet.saves[]`).",
        "at": "When it is thrown: `turn-end` or `turn-start`.",
    },
    "Moment": {
        "on": "The moment it waits for: `aimed`, `hit`, `harmed` or `used`.",
        "at": "Whom it may be aimed at: `source` (who caused the moment) or `chosen`.",
        "cancels": "`true`: it calls off what opened the moment (`aimed` or `used` only).",
        "against": "Only entries of these catalogs open the moment.",
    },
    "Against": {"catalogs": "The catalogs whose entries open the moment (1 to 12)."},
    "Rider": {
        "on": "The moment it fires: `hit`.",
        "when": "Any of `advantage`, `ally-adjacent` must hold for it to fire.",
        "oncePer": "How often it fires: once per `turn` or `round`.",
        "amount": "What it adds: `dice` and/or `flat`.",
        "type": "Its damage type (else the blow's).",
        "sources": "The attack lists (`combat.attacks[].list`) it fires on.",
        "requires": "A column that must be set on the attack's row.",
    },
    "RiderColumn": {"column": "The column of the attack list's row."},
    "Scales": {
        "from": "The value reference it grows with.",
        "table": "`[[at least, extra dice], ...]`, ascending.",
    },
    "Gift": {
        "budget": "The budget given (`combat.economy.budgets[]`).",
        "count": "How many (1 to 10).",
    },
    "StandardPermit": {
        "actions": "The standard actions allowed (each once).",
        "budget": "The budget they are taken for (not the first one).",
    },
    "CheckEffect": {
        "reroll": "Dice thrown again on the check (`upTo`, `mode`).",
        "dice": "Dice added to the check's pool.",
        "successes": "Successes added to the check.",
        "threshold": "The target face the check uses.",
        "explode": "The face from which dice explode on this check.",
        "double": "The face from which dice count double on this check.",
    },
    "CheckReroll": {"upTo": "Dice showing up to this face are thrown again."},
    "WornEffect": {
        "abilities": 'Ability id -> what it is while the item is held (`{"set": n}`).',
        "resist": "Damage types taken at half while the item is held (a fight's).",
        "vulnerable": "Damage types taken double while the item is held (a fight's).",
        "immune": "Damage types taken not at all while the item is held (a fight's).",
        "conditionImmunities": "Conditions (`sheet.live.conditions[]`) its holder cannot have.",
    },
}
