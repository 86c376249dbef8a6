"""Import checks on layers: every effect names something the ruleset has, in the Engine's terms,
so no layer is a toggle that changes nothing (or that the effective ruleset could not hold)."""

from __future__ import annotations

from typing import Any

from .checks import Path, Reporter
from .checks_blocks import pool_ladder
from .layer_models import Layer, LayerCatalog, LayerField
from .resolution import DicePool, PoolStep, SumStep
from .sheet import EnumField


class LayerChecks(Reporter):
    def run(self) -> None:
        layers = self.ruleset.layers or []
        self.unique(layers, ("layers",))
        ids = {layer.id for layer in layers}
        compared = self.hide_when_values()
        for position, layer in enumerate(layers):
            path: Path = ("layers", position)
            for conflict_position, other in enumerate(layer.conflicts or []):
                at = (*path, "conflicts", conflict_position)
                if other == layer.id:
                    self.report(at, "a layer cannot conflict with itself")
                else:
                    self.exists({i: None for i in ids}, other, at, "layer")
            self.unique(layer.fields or [], (*path, "fields"))
            for field_position, narrowed in enumerate(layer.fields or []):
                self.narrowed_field(narrowed, (*path, "fields", field_position), compared)
            if layer.difficulty_ladder is not None:
                self.ladder(layer, (*path, "difficultyLadder"))
            for catalog_position, rule in enumerate(layer.catalogs or []):
                self.catalog_rule(rule, (*path, "catalogs", catalog_position))

    def narrowed_field(
        self, narrowed: LayerField, path: Path, compared: dict[tuple[str, Any], str]
    ) -> None:
        if not self.exists(self.index.fields, narrowed.id, (*path, "id"), "field"):
            return
        field = self.index.fields[narrowed.id]
        if not isinstance(field, EnumField):
            self.report((*path, "id"), f"field {narrowed.id!r} is not an enum field")
            return
        for position, value in enumerate(narrowed.remove_values):
            at = (*path, "removeValues", position)
            if value not in field.values:
                self.report(at, f"{value!r} is not one of the values of {narrowed.id!r}")
            elif (narrowed.id, value) in compared:
                self.report(
                    at,
                    f"a layer cannot remove {value!r} from {narrowed.id!r}: a hideWhen "
                    f"compares with it at {compared[(narrowed.id, value)]}",
                )
        left = [value for value in field.values if value not in narrowed.remove_values]
        if not left:
            self.report(
                (*path, "removeValues"), f"a layer must leave {narrowed.id!r} at least one value"
            )
        elif narrowed.default is not None:
            if narrowed.default not in left:
                self.report(
                    (*path, "default"),
                    f"default {narrowed.default!r} is not one of the values this layer leaves "
                    f"({', '.join(left)})",
                )
        elif field.default is not None and field.default not in left:
            self.report(
                (*path, "removeValues"),
                f"removing {field.default!r} takes the default of {narrowed.id!r} away; name "
                "the value that stands in with default",
            )

    def ladder(self, layer: Layer, path: Path) -> None:
        steps = layer.difficulty_ladder or []
        resolution = self.ruleset.resolution
        if isinstance(resolution, DicePool):
            wrong = [p for p, step in enumerate(steps) if not isinstance(step, PoolStep)]
            kind, shape = "dice-pool", '"successes" (and a "target" where the target moves)'
        else:
            wrong = [p for p, step in enumerate(steps) if not isinstance(step, SumStep)]
            kind, shape = "dice-sum", '"dc"'
        for position in wrong:
            self.report(
                (*path, position),
                f"a layer replaces the ladder in the ruleset's own kind: a {kind} step "
                f"names {shape}",
            )
        if isinstance(resolution, DicePool) and not wrong:
            pool_ladder(self, resolution, [s for s in steps if isinstance(s, PoolStep)], path)

    def catalog_rule(self, rule: LayerCatalog, path: Path) -> None:
        catalogs = {catalog.id: catalog for catalog in self.ruleset.catalogs or []}
        if not self.exists(catalogs, rule.id, (*path, "id"), "catalog"):
            return
        filters = {entry.id: entry for entry in catalogs[rule.id].filters or []}
        if rule.hide.filter not in filters:
            self.report(
                (*path, "hide", "filter"),
                f"catalog {rule.id!r} declares no filter {rule.hide.filter!r}",
            )
            return
        numeric = filters[rule.hide.filter].type == "number"
        if rule.hide.numeric != numeric:
            self.report(
                (*path, "hide"),
                f"filter {rule.hide.filter!r} holds a number, so hide uses above or below"
                if numeric
                else f"filter {rule.hide.filter!r} holds words, so hide uses equals or notIn",
            )

    def hide_when_values(self) -> dict[tuple[str, Any], str]:
        """Every (field, value) a hideWhen compares with, and where the first one stands."""
        sheet = self.ruleset.sheet
        found: dict[tuple[str, Any], str] = {}
        groups: list[tuple[str, list[Any]]] = [
            ("sheet.fields", sheet.fields),
            ("sheet.derived", sheet.derived),
            ("sheet.lists", sheet.lists),
            ("sheet.live.pools", sheet.live.pools),
            ("sheet.live.tracks", sheet.live.tracks),
            ("sheet.live.states", sheet.live.states),
        ]
        for where, items in groups:
            for position, item in enumerate(items):
                rule = getattr(item, "hide_when", None)
                if rule is None:
                    continue
                for value in rule.values:
                    found.setdefault((rule.field, value), f"{where}.{position}.hideWhen")
        return found
