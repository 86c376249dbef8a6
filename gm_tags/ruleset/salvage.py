"""The rest of a ruleset's problems when its shape is wrong somewhere: the cross-reference checks
of every part that is well shaped, in the same pass.

Pydantic stops at the shape; the cross-reference checks need a whole definition. So the parts
that are not well shaped are set aside: a value of the wrong simple type is replaced by a stand-in
of the right one, and anything else is taken out up to the nearest key that can go (a whole list,
when an element of it is wrong). The checks then run on what is left, and only their problems
about parts that were left whole are kept: nothing under a part set aside, and nothing naming an
id that stood in one. When nothing can be salvaged (the shape is wrong at the top), there are no
further problems to report.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import ValidationError

from ..errors import Problem, join_path
from .document import RulesetFile
from .problems import real_path

ROUNDS = 6
_STAND_INS: dict[str, Callable[[int], Any]] = {
    "string_type": lambda n: f"salvaged_{n}",
    "int_type": lambda n: 1,
    "int_parsing": lambda n: 1,
    "float_type": lambda n: 1,
    "bool_type": lambda n: False,
}


def problems_beyond_shape(
    data: Any, check: Callable[[RulesetFile], list[Problem]]
) -> list[Problem]:
    """The problems `check` finds in the well-shaped parts of `data`, whose shape was refused."""
    if not isinstance(data, dict):
        return []
    try:
        return _salvaged(copy.deepcopy(data), check)
    except Exception:  # a best effort beside the shape problems: never in their way
        return []


def _salvaged(data: dict[str, Any], check: Callable[[RulesetFile], list[Problem]]) -> list[Problem]:
    set_aside: list[tuple[Any, ...]] = []
    ids: set[str] = set()
    stand_ins = 0
    for _ in range(ROUNDS):
        try:
            definition = RulesetFile.model_validate(data)
        except ValidationError as error:
            for detail in error.errors(include_url=False):
                loc = real_path(tuple(detail["loc"]), data, keep_last=False)
                kind = detail["type"]
                if kind in _STAND_INS and loc and kind != "missing":
                    stand_ins += 1
                    _replace(data, loc, _STAND_INS[kind](stand_ins))
                    # A stand-in value can upset its neighbours (a default outside a min that
                    # stood in): the whole object holding it is set aside.
                    set_aside.append(loc[:-1] if len(loc) > 1 else loc)
                    continue
                at = _removable(data, loc)
                if at is None:
                    return []
                ids.update(_ids_in(_get(data, at)))
                _delete(data, at)
                set_aside.append(at)
            continue
        return [p for p in check(definition) if _untouched(p, set_aside, ids)]
    return []


def _untouched(problem: Problem, set_aside: list[tuple[Any, ...]], ids: set[str]) -> bool:
    for path in map(join_path, set_aside):
        if problem.path == path or problem.path.startswith(path + "."):
            return False
        if path.startswith(problem.path + ".") or problem.path == "(root)":
            return False
    return not any(f"'{name}'" in problem.message or f'"{name}"' in problem.message for name in ids)


def _removable(data: Any, loc: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The nearest key at or above `loc` that can be taken out: one in an object, not the root,
    and not inside a list (a whole list goes, so no list's positions move)."""
    path = list(loc)
    while path:
        parent = _get(data, tuple(path[:-1]))
        inside_list = any(isinstance(_get(data, tuple(path[:i])), list) for i in range(len(path)))
        if isinstance(parent, dict) and not inside_list:
            return tuple(path)
        path.pop()
    return None


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    node = data
    for part in path:
        node = node[part]
    return node


def _replace(data: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _delete(data: Any, path: tuple[Any, ...]) -> None:
    del _get(data, path[:-1])[path[-1]]


def _ids_in(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("id"), str):
            yield node["id"]
        for value in node.values():
            yield from _ids_in(value)
    elif isinstance(node, list):
        for item in node:
            yield from _ids_in(item)
