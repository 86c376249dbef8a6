"""Binding `[loot: table="..." who="..."]` tags to the loot command
(`gm_tags.commands.inventory.LootCommand`); which table and whose bag are the game's to say."""

from __future__ import annotations

from ...commands.common import Refused, malformed, requested
from ...commands.inventory import LootCommand
from ...parse import Tag
from ..inventory.bind import name


def bind_loot(tag: Tag) -> LootCommand | Refused:
    attributes = requested(tag)
    table = (attributes.get("table") or "").strip()
    if not table:
        return malformed(tag, "a loot tag names its table=")
    return LootCommand(table, name(attributes.get("who")))
