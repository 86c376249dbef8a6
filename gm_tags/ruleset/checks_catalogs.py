"""Import checks on catalogs (Capability API 1.21): a catalog can never write a row the sheet
could not hold. Ids are unique, feeds and filters name what exists, an asset is the catalog's own
file, every entry's filter values fit their filters, every row lands in a list the catalog feeds
with values checked as that list's rows (the reserved `_catalog` mark is no column), and an
entry's `mechanics` is checked by `checks_mechanics.py`.
Messages follow the Engine's, at its paths (`catalogs.0.entries.0.rows.0.values`).
"""

from __future__ import annotations

import math
import re
from typing import Any

from .catalogs import CATALOG_MARK, asset_path
from .checks import Path, Reporter
from .checks_mechanics import MechanicsChecks
from .document import Catalog, CatalogEntry, CatalogRow
from .index import by_id
from .refs import ValueRef
from .sheet import (
    BooleanColumn,
    EnumColumn,
    LongTextColumn,
    NumberColumn,
    SheetList,
    TextColumn,
)

MOST_SCALED = 4
SHEET_ID = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
SHEET_ID_MESSAGE = "An id is lowercase letters, digits and underscores, starting with a letter"


class CatalogChecks(Reporter):
    def run(self) -> None:
        catalogs = self.ruleset.catalogs or []
        self.unique(catalogs, ("catalogs",))
        party = self.ruleset.party
        self.lists = {**by_id(party.lists or [] if party else []), **self.index.lists}
        for position, catalog in enumerate(catalogs):
            self.catalog(catalog, ("catalogs", position))

    def catalog(self, catalog: Catalog, path: Path) -> None:
        for at, feed in enumerate(catalog.feeds):
            self.exists(self.lists, feed, (*path, "feeds", at), "list")
        self.unique(catalog.filters or [], (*path, "filters"))
        for at, declared in enumerate(catalog.filters or []):
            if declared.start_from is not None:
                self.exists(
                    self.index.fields,
                    declared.start_from.field,
                    (*path, "filters", at, "startFrom", "field"),
                    "field",
                )
        if catalog.asset is not None and catalog.asset != asset_path(catalog.id):
            self.report((*path, "asset"), f'A catalog asset is "{asset_path(catalog.id)}"')
        self.unique(catalog.entries or [], (*path, "entries"))
        filters: dict[str, str] = {f.id: f.type for f in catalog.filters or []}
        for at, entry in enumerate(catalog.entries or []):
            self.entry(catalog, entry, filters, (*path, "entries", at))

    def entry(
        self, catalog: Catalog, entry: CatalogEntry, filters: dict[str, str], path: Path
    ) -> None:
        for name, value in (entry.filters or {}).items():
            problem = _filter_problem(name, filters.get(name), value)
            if problem:
                self.report((*path, "filters", name), problem)
        holds = catalog.holds or "rows"
        if entry.creature is not None and holds != "creatures":
            self.report(
                (*path, "creature"),
                f'Catalog "{catalog.id}" holds {holds}, so an entry cannot carry a creature',
            )
        # A catalog of items or creatures writes no rows: its own checks refuse any it has.
        rows = entry.rows if catalog.holds in (None, "rows") else []
        for at, row in enumerate(rows):
            self.row(catalog, row, (*path, "rows", at))
            if row.scaled is not None and row.list_ in catalog.feeds:
                alone = sum(1 for other in rows if other.list_ == row.list_) == 1
                self.scaled(row, alone, (*path, "rows", at))
        if entry.mechanics is not None:
            lists = [row.list_ for row in entry.rows]
            checks = MechanicsChecks(self.ruleset, self.index, self.problems)
            checks.entry(entry.mechanics, lists, (*path, "mechanics"))

    def row(self, catalog: Catalog, row: CatalogRow, path: Path) -> None:
        if row.list_ not in catalog.feeds:
            self.report((*path, "list"), f'"{row.list_}" is not one of this catalog\'s feeds')
            return
        sheet_list = self.lists.get(row.list_)
        if sheet_list is not None:
            for problem in row_problems(sheet_list, row.values):
                self.report((*path, "values"), problem)

    def scaled(self, row: CatalogRow, alone: bool, path: Path) -> None:
        """Columns the sheet keeps up to date (1.23), as the Engine holds them: at most four number
        columns of the row, each with a starting value, on the entry's only row for its list."""
        scaled = row.scaled or {}
        if not scaled:
            self.report((*path, "scaled"), "scaled names at least one column, or is left out")
        if len(scaled) > MOST_SCALED:
            self.report((*path, "scaled"), f"At most {MOST_SCALED} columns of a row can be scaled")
        if not alone:
            self.report(
                (*path, "scaled"),
                f'A scaled row must be this entry\'s only row for the list "{row.list_}"',
            )
        sheet_list = self.lists.get(row.list_)
        columns = {c.id: c for c in sheet_list.columns} if sheet_list is not None else {}
        for column, kept in scaled.items():
            if not SHEET_ID.match(column):
                self.report((*path, "scaled", column), SHEET_ID_MESSAGE)
            elif sheet_list is not None and column not in columns:
                self.report((*path, "scaled", column), f'Unknown column "{column}"')
            elif sheet_list is not None and not isinstance(columns[column], NumberColumn):
                self.report((*path, "scaled", column), f'Column "{column}" is not a number')
            elif sheet_list is not None and column not in row.values:
                self.report(
                    (*path, "values"), f'Scaled column "{column}" needs a starting value in values'
                )
            if kept.table is not None:
                self.ascending(kept.table, (*path, "scaled", column, "table"))
            self.scaled_from(kept.from_, (*path, "scaled", column, "from"))

    def scaled_from(self, ref: ValueRef, at: Path) -> None:
        """VR-3, VR-8: what a scaled column reads exists, reads no live state and no list sum."""
        self.ref(ref, at)
        self.no_live_read(ref, at, "a catalog's scaled column")
        for leaf in self.index.leaves(ref):
            if leaf[0] == "listSum":
                self.report(
                    at,
                    "a catalog's scaled column cannot read a list "
                    f"sum, even through a derived value; it reads {self.index.explain(ref, leaf)}",
                )
                break


def _filter_problem(name: str, kind: str | None, value: Any) -> str | None:
    if kind is None:
        return f'Unknown filter "{name}"'
    if kind == "number":
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        return None if is_number and math.isfinite(value) else f'Filter "{name}" takes a number'
    if kind == "text":
        ok = isinstance(value, str) and len(value) <= 80
        return None if ok else f'Filter "{name}" takes one word or phrase'
    words = isinstance(value, list) and len(value) <= 24
    if words and all(isinstance(word, str) and len(word) <= 80 for word in value):
        return None
    return f'Filter "{name}" takes a list of words'


def row_problems(sheet_list: SheetList, values: dict[str, Any]) -> list[str]:
    """Why `values` is no row `sheet_list` could hold, in the Engine's words (empty: it could)."""
    columns = {column.id: column for column in sheet_list.columns}
    problems = [
        f'Unknown column "{key}"' + (" (the reserved mark)" if key == CATALOG_MARK else "")
        for key in values
        if key not in columns
    ]
    for column in sheet_list.columns:
        value = values.get(column.id)
        if value is None:
            if getattr(column, "required", False):
                problems.append(f'Column "{column.id}" is required')
            continue
        problem = _cell_problem(column, value)
        if problem:
            problems.append(problem)
    return problems


def _cell_problem(column: Any, value: Any) -> str | None:
    name = f'Column "{column.id}"'
    if isinstance(column, NumberColumn):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"{name} takes a number"
        if column.integer and value != int(value):
            return f"{name} takes a whole number"
        if not column.min <= value <= column.max:
            return f"{name} is outside {_plain(column.min)} to {_plain(column.max)}"
        return None
    if isinstance(column, BooleanColumn):
        return None if isinstance(value, bool) else f"{name} takes true or false"
    if isinstance(column, EnumColumn):
        return None if value in column.values else f"{name} takes one of its declared values"
    if not isinstance(value, str):
        return f"{name} takes text"
    if isinstance(column, TextColumn | LongTextColumn) and len(value) > column.max_length:
        return f"{name} is longer than {column.max_length} characters"
    return None


def _plain(number: float) -> str:
    return str(int(number)) if number == int(number) else str(number)
