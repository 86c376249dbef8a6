"""What every key of the ruleset format means, written once for the JSON Schema's `description`,
which editors show on hover and complete with (`gm-tags schema`).

A key that means the same wherever it sits is described in `BY_KEY`; a key whose meaning depends on
the object it sits in is described per object in `BY_OBJECT` (the model's name, as in the schema's
`$defs`). tests/ruleset/test_schema_descriptions.py holds every key of the schema to a description,
so a key added to the format without one fails there.
"""

from __future__ import annotations

from typing import Any

from .keys import BY_KEY
from .mechanics import MECHANICS_OBJECTS
from .play import PLAY_OBJECTS
from .sheet import SHEET_OBJECTS

BY_OBJECT: dict[str, dict[str, str]] = {**SHEET_OBJECTS, **PLAY_OBJECTS, **MECHANICS_OBJECTS}


def describe(schema: dict[str, Any], model: type) -> None:
    """Give every property of `model`'s schema the description written for it (a `description`
    set on the field itself stays)."""
    owned = BY_OBJECT.get(_schema_name(model), {})
    for key, prop in schema.get("properties", {}).items():
        text = owned.get(key) or BY_KEY.get(key)
        if text is not None and isinstance(prop, dict):
            prop.setdefault("description", text)


def _schema_name(model: type) -> str:
    # Two models share a name (`Cost`, `Naturals`); the schema tells them apart by module.
    if model.__name__ in ("Cost", "Naturals"):
        return f"{model.__module__.replace('.', '__')}__{model.__name__}"
    return model.__name__
