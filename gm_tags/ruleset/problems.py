"""Pydantic's validation errors, rewritten as problems a ruleset author can act on.

Two things need mending. Paths: pydantic puts union tags and type names into an error's location
(`resolution.dice-sum.dice`); we keep only the steps that exist in the input, so the path reads as
the Engine writes it (`resolution.dice`). Messages: each says what was found and what is allowed.
"""

from __future__ import annotations

import types
import typing
from typing import Any, cast

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from ..errors import Problem, join_path

_MISSING = object()


def problems_from(error: ValidationError, data: Any, model: type[BaseModel]) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    for detail in error.errors(include_url=False):
        problem = _problem(detail, data, model)
        key = (problem.path, problem.message)
        if key not in seen:
            seen.add(key)
            problems.append(problem)
    return problems


def _problem(detail: ErrorDetails, data: Any, model: type[BaseModel]) -> Problem:
    loc = tuple(detail["loc"])
    kind = detail["type"]
    real = _real_path(loc, data, keep_last=kind == "missing")
    found = _found(detail.get("input", _MISSING))
    if kind == "extra_forbidden":
        key, parent = real[-1], real[:-1]
        allowed = _allowed_keys(model, loc[:-1])
        hint = f"; this object takes: {', '.join(allowed)}" if allowed else ""
        return Problem(join_path(parent), f"unknown key {key!r}{hint}")
    if kind == "missing":
        return Problem(join_path(real[:-1]), f"missing required key {real[-1]!r}")
    if kind in {"model_type", "model_attributes_type", "dict_type"}:
        # Pydantic names its own class here ("instance of Dice"); an author needs the keys.
        keys = _allowed_keys(model, loc)
        shape = f"an object with the keys {', '.join(keys)}" if keys else "an object"
        return Problem(join_path(real), f"found {found}; must be {shape}")
    return Problem(join_path(real), _message(detail, found))


def _message(detail: ErrorDetails, found: str) -> str:
    kind, ctx = detail["type"], detail.get("ctx", {})
    text = detail["msg"]
    if kind == "value_error":
        return str(text).removeprefix("Value error, ")
    if kind == "literal_error":
        return f"found {found}; allowed: {ctx.get('expected')}"
    if kind == "union_tag_invalid":
        return (
            f"{ctx.get('discriminator')} is {ctx.get('tag')!r}; allowed: {ctx.get('expected_tags')}"
        )
    if kind == "union_tag_not_found":
        return f"missing {ctx.get('discriminator')}, which says what kind of object this is"
    if kind in {"too_long", "too_short"}:
        what = "characters" if isinstance(detail.get("input"), str) else "items"
        bound = "at most" if kind == "too_long" else "at least"
        limit = ctx.get("max_length" if kind == "too_long" else "min_length")
        return f"has {ctx.get('actual_length')} {what}; {bound} {limit} allowed"
    if kind == "string_too_long":
        return f"is {len(str(detail.get('input')))} characters; at most {ctx.get('max_length')}"
    if kind == "string_too_short":
        return f"is too short; at least {ctx.get('min_length')} character(s)"
    if kind == "string_pattern_mismatch":
        return f"found {found}; must match {ctx.get('pattern')}"
    if kind in {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}:
        return f"found {found}; {str(text).lower()}"
    return f"found {found}; {str(text)[0].lower()}{str(text)[1:]}"


def _found(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    text = repr(value) if not isinstance(value, bool) else str(value).lower()
    return text if len(text) <= 60 else text[:57] + "..."


def _real_path(loc: tuple[Any, ...], data: Any, *, keep_last: bool) -> tuple[Any, ...]:
    """The steps of `loc` that exist in `data` (and the last one, for a missing key)."""
    real: list[Any] = []
    node = data
    for index, part in enumerate(loc):
        in_dict = isinstance(node, dict) and isinstance(part, str) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_dict or in_list:
            node = cast(Any, node)[part]
            real.append(part)
        elif keep_last and index == len(loc) - 1:
            real.append(part)
    return tuple(real)


real_path = _real_path


def _allowed_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys of the model that validated the object at `loc`, found by walking the types."""
    node: Any = model
    for part in loc:
        node = _step(node, part)
        if node is None:
            return []
    target = _model_in(node)
    if target is None:
        return []
    keys = (info.alias or name for name, info in target.model_fields.items())
    return sorted(key for key in keys if not key.startswith("$"))


def _unwrap(tp: Any) -> tuple[Any, list[Any]]:
    metadata: list[Any] = []
    while typing.get_origin(tp) is typing.Annotated:
        args = typing.get_args(tp)
        tp, metadata = args[0], metadata + list(args[1:])
    return tp, metadata


def _members(tp: Any) -> list[Any]:
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        return list(typing.get_args(tp))
    return []


def _step(tp: Any, part: Any) -> Any:
    tp, _ = _unwrap(tp)
    members = _members(tp)
    if members:
        for member in members:
            _, metadata = _unwrap(member)
            if any(getattr(meta, "tag", None) == part for meta in metadata):
                return member
        concrete = [m for m in members if m is not type(None)]
        return _step(concrete[0], part) if len(concrete) == 1 else _by_literal(concrete, part)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, info in tp.model_fields.items():
            if part in {name, info.alias}:
                return (
                    info.annotation
                    if not info.metadata
                    else typing.Annotated[info.annotation, *info.metadata]
                )
        return None
    origin = typing.get_origin(tp)
    if origin is list:
        return typing.get_args(tp)[0]
    if origin is dict:
        return typing.get_args(tp)[1]
    return None


def _by_literal(members: list[Any], tag: Any) -> Any:
    """The member of a pydantic discriminated union whose discriminator literal is `tag`."""
    for member in members:
        model = _model_in(member)
        if model is None:
            continue
        for info in model.model_fields.values():
            if typing.get_origin(info.annotation) is typing.Literal and tag in typing.get_args(
                info.annotation
            ):
                return member
    return None


def _model_in(tp: Any) -> type[BaseModel] | None:
    tp, _ = _unwrap(tp)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    concrete = [m for m in _members(tp) if m is not type(None)]
    if len(concrete) == 1:
        return _model_in(concrete[0])
    return None
