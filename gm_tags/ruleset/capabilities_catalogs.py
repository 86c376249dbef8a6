"""Where a catalog entry uses a key a Capability API minor brought, for the gates in
`capabilities.py`. A package's catalog asset files are read into the ruleset before the gates
run, so an entry in `catalogs/<id>.json` is gated exactly as an inline one (the Engine's install
gate reads both).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .document import CatalogEntry, RulesetFile
from .mechanics import Mechanics

Path = tuple[str | int, ...]

# The keys each minor added to `mechanics`, in the Engine's install gate's groups.
FIGHT_KEYS = ("targetCount", "autoHit", "applies", "temporary", "scales", "budget")
TURN_KEYS = ("plus", "free", "gives", "standard", "rider")


def _entries(ruleset: RulesetFile) -> Iterator[tuple[Path, CatalogEntry]]:
    for position, catalog in enumerate(ruleset.catalogs or ()):
        for at, entry in enumerate(catalog.entries or ()):
            yield ("catalogs", position, "entries", at), entry


def _mechanics(
    select: Callable[[Mechanics, dict[str, object]], Iterator[Path]],
) -> Callable[[RulesetFile], Iterator[Path]]:
    """The paths, under each entry's `mechanics`, of the keys `select` picks."""

    def used_at(ruleset: RulesetFile) -> Iterator[Path]:
        for path, entry in _entries(ruleset):
            mechanics = entry.mechanics
            if mechanics is None:
                continue
            written = mechanics.model_dump(by_alias=True, exclude_none=True)
            for key in select(mechanics, written):
                yield (*path, "mechanics", *key)

    return used_at


def _keys(keys: tuple[str, ...]) -> Callable[[Mechanics, dict[str, object]], Iterator[Path]]:
    return lambda _mechanics, written: ((key,) for key in keys if key in written)


def _turn_economy(mechanics: Mechanics, written: dict[str, object]) -> Iterator[Path]:
    # `rider` is also a new value of an old key: a kind an older Engine does not know.
    if mechanics.kind == "rider" and "rider" not in written:
        yield ("kind",)
    yield from ((key,) for key in TURN_KEYS if key in written)


def _moments(mechanics: Mechanics, _written: dict[str, object]) -> Iterator[Path]:
    if mechanics.moment is not None:
        yield ("reaction",)


def _used_moments(mechanics: Mechanics, _written: dict[str, object]) -> Iterator[Path]:
    moment = mechanics.moment
    if moment is not None and (moment.on == "used" or moment.against is not None):
        yield ("reaction",)


def _check_faces(mechanics: Mechanics, _written: dict[str, object]) -> Iterator[Path]:
    check = mechanics.check
    for name in ("explode", "double"):
        if check is not None and getattr(check, name) is not None:
            yield ("check", name)


def fight_mechanics(ruleset: RulesetFile) -> Iterator[Path]:
    yield from _mechanics(_keys(FIGHT_KEYS))(ruleset)


def turn_economy(ruleset: RulesetFile) -> Iterator[Path]:
    yield from _mechanics(_turn_economy)(ruleset)


def check_effects(ruleset: RulesetFile) -> Iterator[Path]:
    yield from _mechanics(_keys(("check",)))(ruleset)


def reaction_moments(ruleset: RulesetFile) -> Iterator[Path]:
    yield from _mechanics(_moments)(ruleset)


def used_moments(ruleset: RulesetFile) -> Iterator[Path]:
    yield from _mechanics(_used_moments)(ruleset)


def check_faces(ruleset: RulesetFile) -> Iterator[Path]:
    yield from _mechanics(_check_faces)(ruleset)


def item_effects(ruleset: RulesetFile) -> Iterator[Path]:
    """An item that changes checks while worn or carried, and a rarity cap's `bonus` (1.53)."""
    for path, entry in _entries(ruleset):
        for key in ("worn", "carried"):
            if entry.item is not None and getattr(entry.item, key) is not None:
                yield (*path, "item", key)
    items = ruleset.items
    for position, cap in enumerate(items.rarity_caps or () if items else ()):
        if cap.bonus is not None:
            yield ("items", "rarityCaps", position, "bonus")


def item_abilities(ruleset: RulesetFile) -> Iterator[Path]:
    """An item that changes an ability while worn or carried (1.54)."""
    for path, entry in _entries(ruleset):
        for key in ("worn", "carried"):
            effect = getattr(entry.item, key, None) if entry.item is not None else None
            if effect is not None and effect.abilities:
                yield (*path, "item", key, "abilities")
