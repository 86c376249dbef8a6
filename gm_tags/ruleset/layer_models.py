"""A ruleset's layers in the Engine's shape: variants the player turns on when a game is created.

Every effect narrows or appends: guidance is appended, enum values are taken out (with a
replacement default where the declared one goes), the difficulty ladder is replaced by another of
the same resolution kind, and catalog entries are hidden from a picker. The effects are applied in
`layering.py`; what a layer may name is checked in `checks_layers.py`.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, Tag, field_validator, model_validator

from .base import PROMPT_SAFE, Label, Number, SheetId, Strict, length, shape
from .resolution import PoolStep, SumStep

MOST_LAYERS = 12
# What one layer may add to the prompt, its two guidance texts together.
LAYER_GUIDANCE = 4000

LayerGuidance = Annotated[str, length(LAYER_GUIDANCE), PROMPT_SAFE]
EnumValue = Annotated[str, Field(min_length=1, max_length=80)]
Word = Annotated[str, Field(max_length=80)]

# The shape the Engine reads, shown to an author who wrote the older one.
ENGINE_FIELD_SHAPE = (
    '"fields": [{"id": FIELD, "removeValues": [VALUE, ...], "default": VALUE}] '
    "(default optional: the value that stands in when a layer takes the default away)"
)


class LayerField(Strict):
    """An enum field the layer narrows: the values it takes out, and the value that becomes the
    default where the declared default is one of them."""

    id: SheetId
    remove_values: Annotated[list[EnumValue], Field(min_length=1, max_length=40)]
    default: Word | None = None


class LayerGm(Strict):
    guidance: LayerGuidance | None = None
    world_guidance: LayerGuidance | None = None

    @model_validator(mode="after")
    def _within_one_layers_share(self) -> LayerGm:
        total = len(self.guidance or "") + len(self.world_guidance or "")
        if total > LAYER_GUIDANCE:
            raise ValueError(
                f"one layer carries at most {LAYER_GUIDANCE} characters of guidance in total, "
                f"found {total}"
            )
        return self


class CatalogHide(Strict):
    """Which entries of a catalog the picker leaves out: exactly one comparison with a filter."""

    filter: SheetId
    above: Number | None = None
    below: Number | None = None
    equals: Word | None = None
    not_in: Annotated[list[Word], Field(min_length=1, max_length=24)] | None = None

    @model_validator(mode="after")
    def _one_comparison(self) -> CatalogHide:
        named = [self.above, self.below, self.equals, self.not_in]
        if sum(value is not None for value in named) != 1:
            raise ValueError("a hide rule names exactly one of: above, below, equals, notIn")
        return self

    @property
    def numeric(self) -> bool:
        return self.above is not None or self.below is not None


class LayerCatalog(Strict):
    id: SheetId
    hide: CatalogHide


def _step_shape(step: Any) -> str | None:
    if isinstance(step, SumStep) or (isinstance(step, dict) and "dc" in step):
        return "sum"
    if isinstance(step, PoolStep) or (isinstance(step, dict) and "successes" in step):
        return "pool"
    return None


LadderStep = Annotated[
    Annotated[SumStep, Tag("sum")] | Annotated[PoolStep, Tag("pool")],
    shape(_step_shape, 'a step with "label" and "dc" (dice-sum) or "successes" (dice-pool)'),
]


class Layer(Strict):
    id: SheetId
    label: Label
    summary: Annotated[str, length(300), PROMPT_SAFE] | None = None
    conflicts: Annotated[list[SheetId], Field(max_length=MOST_LAYERS)] | None = None
    gm: LayerGm | None = None
    fields: Annotated[list[LayerField], Field(max_length=24)] | None = None
    difficulty_ladder: Annotated[list[LadderStep], Field(min_length=1, max_length=12)] | None = None
    catalogs: Annotated[list[LayerCatalog], Field(max_length=24)] | None = None
    # Not a key of the Engine's layer: an older gm-tags shape, refused with the one to write.
    remove_values: Any = Field(default=None, exclude=True, repr=False)

    @field_validator("remove_values")
    @classmethod
    def _engine_shape(cls, value: Any) -> None:
        if value is not None:
            raise ValueError(
                "a layer takes values out of an enum field under its fields, as the Engine "
                f"reads it: {ENGINE_FIELD_SHAPE}"
            )
        return None
