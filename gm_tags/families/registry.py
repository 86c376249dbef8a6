"""The one registry of tag families: the pipeline binds and runs a tag by its family, the stream
asks which families' tags have branches after them, the reminder teaches each family, and the
grammar's tag names (`gm_tags.syntax.tag_names`) take the name of every family registered here
beyond the ones the grammar file spells (tests/families/test_registry.py checks those are these).

A new family is a package (its `FAMILY`) and one `register` call.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..prompt.reminder import Teaching
from ..state import GameState
from ..syntax import add_tag_name, remove_tag_name
from . import clock, fight, inventory, loot, sheet, skill_check
from .family import Family

# In the order the reminder teaches them.
SHIPPED: tuple[Family[Any], ...] = (
    sheet.FAMILY,
    inventory.FAMILY,
    loot.FAMILY,
    skill_check.FAMILY,
    clock.FAMILY,
    fight.FAMILY,
)
FAMILIES: dict[str, Family[Any]] = {family.name: family for family in SHIPPED}


def family(name: str) -> Family[Any] | None:
    """The family whose tags are `[name: ...]`, if one is registered."""
    return FAMILIES.get(name)


def taught(game: GameState) -> list[Teaching]:
    """What the reminder teaches of each family, in the registry's order."""
    return [family.teach(game) for family in FAMILIES.values()] if game.ruleset else []


def register(family: Family[Any]) -> None:
    """Tags named `family.name` are that family's from now on: read, applied, streamed, taught."""
    if family.name in FAMILIES:
        raise ValueError(f"a family named {family.name!r} is registered already")
    add_tag_name(family.name)
    FAMILIES[family.name] = family


def unregister(name: str) -> None:
    if FAMILIES.pop(name, None) is not None:
        remove_tag_name(name)


@contextmanager
def registered(family: Family[Any]) -> Iterator[Family[Any]]:
    """`family` registered for the length of a `with` block."""
    register(family)
    try:
        yield family
    finally:
        unregister(family.name)
