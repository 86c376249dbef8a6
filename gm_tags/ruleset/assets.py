"""A package's catalog asset files (`catalogs/<id>.json`, Capability API 1.21): each is read into
its catalog as `entries`, so one pass checks and gates them as inline entries are, and each
problem found in one is then said the way the Engine says it, in the file's own terms
(`entries.0.rows.0.values: Unknown column "level"`, with `file` naming the asset).

The file itself is `{"schemaVersion": 1, "catalog": "<the catalog's id>", "entries": [...]}`, strict
(`$comment` allowed); a file for another catalog is refused as the Engine refuses it
(`catalog: this file is for "x", not "y"`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ROOT_PATH, Problem
from .catalogs import asset_path

FILE_KEYS = ("schemaVersion", "catalog", "entries", "$comment")


def assets_named(data: dict[str, Any]) -> dict[int, str]:
    """The catalogs (by position) whose entries live in an asset file, and that file's path."""
    catalogs = data.get("catalogs")
    named: dict[int, str] = {}
    for position, catalog in enumerate(catalogs if isinstance(catalogs, list) else ()):
        asset = catalog.get("asset") if isinstance(catalog, dict) else None
        if isinstance(asset, str):
            named[position] = asset
    return named


def file_problems(catalog_id: object, path: str, content: Any) -> list[Problem]:
    """What is wrong with the asset file's own shape (not its entries), in the file's terms."""
    if not isinstance(content, dict):
        kind = type(content).__name__
        return [Problem(ROOT_PATH, f"a catalog file is an object, found {kind}", path)]
    problems = [
        Problem(
            ROOT_PATH, f"unknown key {key!r}; a catalog file has {', '.join(FILE_KEYS[:3])}", path
        )
        for key in content
        if key not in FILE_KEYS
    ]
    version = content.get("schemaVersion")
    if version != 1 or isinstance(version, bool):
        problems.append(
            Problem("schemaVersion", f"found {version!r}; a catalog file is schemaVersion 1", path)
        )
    if content.get("catalog") != catalog_id:
        found = content.get("catalog")
        problems.append(Problem("catalog", f'this file is for "{found}", not "{catalog_id}"', path))
    if not isinstance(content.get("entries"), list):
        problems.append(Problem("entries", "a catalog file's entries are a list", path))
    return problems


def merged(
    data: dict[str, Any], pinned: set[str], contents: Mapping[str, Any]
) -> tuple[dict[str, Any], list[Problem]]:
    """`data` with each asset's entries read into its catalog, and what kept one from being read.
    A path that is not the catalog's own stays for the catalog checks to refuse at its `asset`."""
    catalogs = list(data.get("catalogs") or ())
    problems: list[Problem] = []
    for position, path in assets_named(data).items():
        catalog = catalogs[position]
        if path != asset_path(str(catalog.get("id"))):
            continue
        where = f"catalogs.{position}.asset"
        if path not in pinned or path not in contents:
            problems.append(
                Problem(where, f"names the catalog file {path}, which the manifest does not list")
            )
            continue
        found = file_problems(catalog.get("id"), path, contents[path])
        if found:
            problems += found
            continue
        entry = {key: value for key, value in catalog.items() if key != "asset"}
        catalogs[position] = {**entry, "entries": contents[path]["entries"]}
    return ({**data, "catalogs": catalogs} if catalogs else data), problems


def in_asset_form(problems: list[Problem], assets: Mapping[int, str]) -> list[Problem]:
    """Each problem under an asset catalog's `entries`, said at the asset's own path."""
    said = []
    for problem in problems:
        for position, path in assets.items():
            head = f"catalogs.{position}.entries"
            if problem.path == head or problem.path.startswith(head + "."):
                # A message may name another place in the same file (`already used at ...`).
                problem = Problem(
                    problem.path[len(f"catalogs.{position}.") :],
                    problem.message.replace(head, "entries"),
                    path,
                )
                break
        said.append(problem)
    return said
