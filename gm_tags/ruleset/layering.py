"""The ruleset a game plays by: its definition with the game's layers applied, as the Engine
applies them.

Guidance is appended with a space (guidance is one line, and the reminder prints it in one
bullet), enum values are taken out of their fields (with their labels, and the layer's replacement
default where the declared one went), and the last layer that declares a ladder replaces the
ladder. A later layer that conflicts with an earlier one is not applied; declaration order decides,
so the same choices always give the same rules. Import checks (`checks_layers.py`) make every
combination valid, so nothing is re-validated here.
"""

from __future__ import annotations

from collections.abc import Iterable

from .document import RulesetFile
from .layer_models import Layer
from .sheet import EnumField


def conflicting(one: Layer, other: Layer) -> bool:
    """Conflicts read both ways: naming one side of the pair is enough."""
    return other.id in (one.conflicts or ()) or one.id in (other.conflicts or ())


def active_layers(definition: RulesetFile, chosen: Iterable[str]) -> list[Layer]:
    """The chosen layers the ruleset declares, in declaration order, less the later of each
    conflicting pair."""
    wanted = set(chosen)
    kept: list[Layer] = []
    for layer in definition.layers or ():
        if layer.id in wanted and not any(conflicting(earlier, layer) for earlier in kept):
            kept.append(layer)
    return kept


def selection_problems(definition: RulesetFile, chosen: Iterable[str]) -> list[str]:
    """Why a new game cannot start with these layers (the Engine's `ruleset_layer_unknown` and
    `ruleset_layer_conflict`); empty when it can."""
    declared = {layer.id: layer for layer in definition.layers or ()}
    chosen = list(dict.fromkeys(chosen))
    problems = [f"this ruleset has no layer {name!r}" for name in chosen if name not in declared]
    selected = [layer for layer in definition.layers or () if layer.id in chosen]
    for position, layer in enumerate(selected):
        for earlier in selected[:position]:
            if conflicting(earlier, layer):
                problems.append(
                    f"{earlier.label!r} and {layer.label!r} cannot be turned on together"
                )
    return problems


def _appended(base: str | None, additions: Iterable[str | None]) -> str | None:
    parts = [part.strip() for part in (base, *additions) if part and part.strip()]
    return " ".join(parts) if parts else None


def layered_definition(definition: RulesetFile, layers: list[Layer]) -> RulesetFile:
    """`definition` with `layers` applied (the same object when there are none)."""
    if not layers:
        return definition
    gm = definition.gm.model_copy(
        update={
            "check_guidance": _appended(
                definition.gm.check_guidance, (layer.gm.guidance for layer in layers if layer.gm)
            ),
            "world_guidance": _appended(
                definition.gm.world_guidance,
                (layer.gm.world_guidance for layer in layers if layer.gm),
            ),
        }
    )
    resolution = definition.resolution
    for layer in layers:
        if layer.difficulty_ladder is not None:
            resolution = resolution.model_copy(
                update={"difficulty_ladder": list(layer.difficulty_ladder)}
            )
    sheet = definition.sheet.model_copy(
        update={"fields": [_narrowed(field, layers) for field in definition.sheet.fields]}
    )
    return definition.model_copy(update={"gm": gm, "resolution": resolution, "sheet": sheet})


def _narrowed(field: object, layers: list[Layer]) -> object:
    if not isinstance(field, EnumField):
        return field
    removed: set[str] = set()
    fallback: str | None = None
    for layer in layers:
        for narrowed in layer.fields or ():
            if narrowed.id != field.id:
                continue
            # Two layers that together would leave the field no value: the earlier stands, and
            # the later one's narrowing of this field is left out (each alone keeps one).
            if set(field.values) <= removed | set(narrowed.remove_values):
                continue
            removed.update(narrowed.remove_values)
            fallback = narrowed.default if narrowed.default is not None else fallback
    if not removed:
        return field
    values = [value for value in field.values if value not in removed]
    labels = field.value_labels
    default = fallback if fallback is not None else field.default
    return field.model_copy(
        update={
            "values": values,
            "value_labels": (
                {value: label for value, label in labels.items() if value not in removed}
                if labels is not None
                else None
            ),
            "default": default if default in values else None,
        }
    )
