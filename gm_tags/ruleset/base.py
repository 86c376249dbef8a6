"""Building blocks every ruleset model shares: the strict base, ids, prompt-safe text, numbers.

The ruleset format is strict everywhere (an unknown key refuses the file), so every model derives
from `Strict`, which accepts `$comment` on every object (and never keeps it), as the Engine does;
the JSON Schema we publish allows it on every object too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    StringConstraints,
    WithJsonSchema,
)
from pydantic.alias_generators import to_camel

from ..text import unsafe_reason
from .descriptions import describe


class Strict(BaseModel):
    """Frozen, unknown keys refused, JSON keys in camelCase, no silent type coercion.

    `$comment` is accepted on every object, as the Engine accepts it, and never kept.
    """

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        strict=True,
        alias_generator=to_camel,
        populate_by_name=True,
        # Building every validator costs more than the rest of the import together; build each on
        # first use instead, so `import gm_tags` stays cheap for code that never loads a ruleset.
        defer_build=True,
        # Editors show a key's description on hover: every key's is written in descriptions.py.
        json_schema_extra=describe,
    )

    comment: Any = Field(default=None, alias="$comment", exclude=True, repr=False)


class Carried(Strict):
    """A section the page only refers to: the keys we use are checked, the rest carried as data."""

    model_config = ConfigDict(extra="allow")


def _without_comment(table: Any) -> Any:
    if isinstance(table, dict) and "$comment" in table:
        return {key: value for key, value in table.items() if key != "$comment"}
    return table


# A plain JSON object used as a table (value labels, an enumTable's rows): `$comment` is dropped.
WITHOUT_COMMENT = BeforeValidator(_without_comment)


def _prompt_safe(text: str) -> str:
    reason = unsafe_reason(text)
    if reason is not None:
        raise ValueError(f"text {reason}")
    return text


PROMPT_SAFE = AfterValidator(_prompt_safe)


def length(max_length: int, min_length: int = 1) -> StringConstraints:
    return StringConstraints(min_length=min_length, max_length=max_length)


SheetId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
Label = Annotated[str, length(80), PROMPT_SAFE]
Short = Annotated[str, length(8), PROMPT_SAFE]


def _number(value: Any) -> int | float:
    if type(value) is int or type(value) is float:
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a number, found {type(value).__name__} {value!r}")
    return value


Number = Annotated[int | float, PlainValidator(_number), WithJsonSchema({"type": "number"})]


def shape(choose: Callable[[Any], str | None], expected: str) -> Discriminator:
    """Picks a union member by the input's shape (`choose` returns a member's `Tag`, or None)."""
    return Discriminator(
        choose, custom_error_type="wrong_shape", custom_error_message=f"expected {expected}"
    )
