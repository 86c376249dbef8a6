"""A catalog's parts in the Engine's shape (Capability API 1.21): what its picker filters on, the
units its numbers are in, and where its entries live. An entry's `mechanics` is `mechanics.py`;
cross-references are `checks_catalogs.py`.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field

from .base import PROMPT_SAFE, Label, Number, SheetId, Strict, length

# The reserved mark a picked row carries: "<catalog id>/<entry id>". No list may declare it.
CATALOG_MARK = "_catalog"
ENTRY_ID = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
ASSET = re.compile(r"^catalogs/[a-z][a-z0-9_]{0,39}\.json$")


def asset_path(catalog_id: str) -> str:
    return f"catalogs/{catalog_id}.json"


class StartFrom(Strict):
    field: SheetId


class CatalogFilter(Strict):
    id: SheetId
    label: Label
    type: Literal["number", "text", "tags"]
    start_from: StartFrom | None = None


class Distance(Strict):
    label: Annotated[str, length(12), PROMPT_SAFE]
    per_cell: Annotated[Number, Field(gt=0)]


class Units(Strict):
    distance: Distance | None = None
