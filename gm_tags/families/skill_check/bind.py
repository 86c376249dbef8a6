"""Binding `[skill_check: ...]` tags to a check request (`gm_tags.engine.checks.CheckCommand`).

    [skill_check: skill="Sneak" dc="8"]
    [skill_check: who="Tobin" skill="Brawl" difficulty="Risky" mode="advantage"]
    [skill_check: skill="Ward" dc="2" threshold="6" bonus="+1" spend="resolve:1"]

A check needs `skill=` and a whole-number `dc=` or a `difficulty=` ladder label; without them it
is malformed. Everything the engine writes back (rolls, totals, results) is discarded: a tag that
already looks rolled is rolled again from the sheet. Out-of-range numbers are clamped when the
check is rolled, and names the sheet does not have are ignored, never refusing the check.
"""

from __future__ import annotations

from ...checks.record import CheckRequest
from ...commands.common import CHECK_OUTCOME_KEYS, Refused, Request, integer, malformed, requested
from ...engine.checks import CheckCommand
from ...parse import Tag

_MODES = {"advantage", "disadvantage"}


def bind_check(tag: Tag) -> CheckCommand | Refused:
    if tag.problem:
        return malformed(tag, tag.problem)
    attributes = {k: v for k, v in requested(tag).items() if k not in CHECK_OUTCOME_KEYS}
    skill = attributes.get("skill", "").strip()
    if not skill:
        return malformed(tag, "a check names what is rolled with skill=")
    dc = integer(attributes["dc"]) if "dc" in attributes else None
    difficulty = attributes.get("difficulty")
    if dc is None and not difficulty:
        return malformed(tag, "a check needs a whole-number dc= or a difficulty= from the ladder")
    mode = attributes.get("mode", "").strip().lower()
    flags = [flag for flag in tag.flags if flag in _MODES]
    if mode not in _MODES:
        mode = flags[0] if len(flags) == 1 else ""
    bonus = attributes.get("bonus")
    check = CheckRequest(
        skill=skill,
        dc=dc,
        difficulty=difficulty,
        who=attributes.get("who"),
        with_=attributes.get("with"),
        mode=mode or None,
        threshold=integer(attributes["threshold"]) if "threshold" in attributes else None,
        bonus=integer(bonus) if bonus is not None else None,
        explode=integer(attributes["explode"]) if "explode" in attributes else None,
        double=integer(attributes["double"]) if "double" in attributes else None,
        reroll=attributes.get("reroll"),
        spend=attributes.get("spend"),
        use=attributes.get("use") or None,
    )
    order = (
        "skill",
        "dc",
        "difficulty",
        "who",
        "with",
        "mode",
        "threshold",
        "bonus",
        "spend",
        "use",
    )
    request: Request = tuple((key, attributes[key]) for key in order if key in attributes)
    return CheckCommand(check, request)
