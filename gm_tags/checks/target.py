"""What a check names, resolved as the Engine resolves it.

Names are compared normalized (lower case, anything not a letter or digit read as a space). An
entry answers to its id, label and short name. The words "check", "ability check", "save" and
"saving throw" at the end are set aside. In order: a save by its name; then, when a save word was
used, the one save whose ability the rest names; then a skill; then an ability on its own. A name
that matches nothing rolls plain dice with no modifier (the check is not refused).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from ..ruleset.loader import Ruleset

_NOT_WORD = re.compile(r"[^0-9a-z\u00c0-\uffff]+")
_SUFFIXES = ("ability check", "saving throw", "check", "save")


@dataclass(frozen=True, slots=True)
class CheckTarget:
    kind: Literal["skill", "save", "ability", "none"]
    entry: Any = None

    @property
    def label(self) -> str | None:
        return None if self.entry is None else str(self.entry.label)


def normalized(name: str) -> str:
    return " ".join(_NOT_WORD.sub(" ", name.lower()).split())


def _names(entry: Any) -> set[str]:
    return {normalized(n) for n in (entry.id, entry.label, getattr(entry, "short", None)) if n}


def resolve_target(ruleset: Ruleset, name: str) -> CheckTarget:
    sheet = ruleset.definition.sheet
    full = normalized(name)
    stripped, save_word = full, False
    for suffix in _SUFFIXES:
        if stripped.endswith(" " + suffix) or stripped == suffix:
            save_word = suffix in ("save", "saving throw")
            stripped = stripped[: -len(suffix)].strip()
            break
    for save in sheet.saves:
        if full in _names(save):
            return CheckTarget("save", save)
    if save_word:
        abilities = [a for a in sheet.abilities if stripped in _names(a)]
        matching = [s for s in sheet.saves if abilities and s.ability == abilities[0].id]
        if len(matching) == 1:
            return CheckTarget("save", matching[0])
    for skill in sheet.skills:
        if full in _names(skill) or (stripped and stripped in _names(skill)):
            return CheckTarget("skill", skill)
    for ability in sheet.abilities:
        if stripped in _names(ability) or full in _names(ability):
            return CheckTarget("ability", ability)
    return CheckTarget("none")


def find_ability(ruleset: Ruleset, name: str | None) -> Any:
    if not name:
        return None
    wanted = normalized(name)
    return next((a for a in ruleset.definition.sheet.abilities if wanted in _names(a)), None)
