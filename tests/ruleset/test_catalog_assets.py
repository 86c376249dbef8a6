"""A package's catalog asset files: checked and gated as inline entries are, every problem in one
said in the file's own terms, as the Engine's `parseRulesetCatalogFile` says it
(`entries.0.rows.0.values: Unknown column "level"`), with the file named (its block
game-ruleset-catalogs, "A catalog asset file goes through the same checks")."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from gm_tags import Problem, RulesetError, load_ruleset
from tests.ruleset.corpus import RULESETS

KEEPERS = RULESETS / "packaged-lantern-keepers"
ASSET = "catalogs/wards.json"


def package(folder: Path, asset: Any, *, minor: int = 145) -> Path:
    """The Lantern Keepers package with `asset` as its wards catalog file, pinned again."""
    shutil.copytree(KEEPERS, folder, dirs_exist_ok=True)
    (folder / ASSET).write_text(json.dumps(asset), "utf-8")
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    manifest["capabilityApi"]["minor"] = minor
    for pinned in manifest["files"]:
        raw = (folder / pinned["path"]).read_bytes()
        pinned.update(sha256=hashlib.sha256(raw).hexdigest(), bytes=len(raw))
    (folder / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    return folder


def wards(*entries: dict[str, Any], **file: Any) -> dict[str, Any]:
    return {"schemaVersion": 1, "catalog": "wards", "entries": list(entries), **file}


def refused(folder: Path) -> list[Problem]:
    with pytest.raises(RulesetError) as error:
        load_ruleset(folder)
    return error.value.problems


SALT = {
    "id": "salt-line",
    "label": "Salt line",
    "rows": [{"list": "wards", "values": {"name": "Salt"}}],
}


@pytest.mark.spec("engine:game-ruleset-catalogs")
def test_an_entry_problem_is_said_at_the_files_own_path(tmp_path: Path) -> None:
    bad = {
        **SALT,
        "id": "iron",
        "rows": [{"list": "wards", "values": {"name": "Iron", "level": 3}}],
    }
    problems = refused(package(tmp_path, wards(SALT, bad)))
    assert problems == [Problem("entries.1.rows.0.values", 'Unknown column "level"', ASSET)]
    assert str(problems[0]) == f'{ASSET}: entries.1.rows.0.values: Unknown column "level"'


@pytest.mark.spec("engine:game-ruleset-catalogs")
def test_a_shape_problem_and_a_duplicate_id_are_said_there_too(tmp_path: Path) -> None:
    (shape,) = refused(package(tmp_path / "shape", wards(SALT, {"id": "Nails", "label": "N"})))
    assert (shape.file, shape.path) == (ASSET, "entries.1.id")
    (twice,) = refused(package(tmp_path / "twice", wards(SALT, SALT)))
    assert twice == Problem(
        "entries.1.id", "duplicate id 'salt-line'; already used at entries.0", ASSET
    )


@pytest.mark.spec("engine:game-ruleset-catalogs")
@pytest.mark.parametrize(
    ("file", "path", "message"),
    [
        (wards(SALT, catalog="tricks"), "catalog", 'this file is for "tricks", not "wards"'),
        (
            wards(SALT, schemaVersion=2),
            "schemaVersion",
            "found 2; a catalog file is schemaVersion 1",
        ),
        (wards(SALT, extra=1), "(root)", "unknown key 'extra'"),
        (
            {"schemaVersion": 1, "catalog": "wards"},
            "entries",
            "a catalog file's entries are a list",
        ),
        ([SALT], "(root)", "a catalog file is an object, found list"),
    ],
    ids=["another-catalog", "schema-version", "unknown-key", "no-entries", "not-an-object"],
)
def test_a_file_that_is_no_catalog_file_is_refused_in_its_own_terms(
    tmp_path: Path, file: Any, path: str, message: str
) -> None:
    (problem,) = refused(package(tmp_path, file))
    assert (problem.file, problem.path) == (ASSET, path)
    assert problem.message.startswith(message)


@pytest.mark.spec("engine:game-ruleset-check-effects")
def test_a_key_in_an_asset_file_is_gated_at_its_path_there(tmp_path: Path) -> None:
    charm = {**SALT, "mechanics": {"kind": "utility", "cost": [{"pool": "oil", "amount": 1}]}}
    charm["mechanics"]["targetCount"] = 2
    problems = refused(package(tmp_path, wards(charm), minor=25))
    gated = [p for p in problems if "needs Capability API 1.26" in p.message]
    assert [(p.file, p.path) for p in gated] == [(ASSET, "entries.0.mechanics.targetCount")]


def test_the_shipped_asset_still_loads() -> None:
    assert load_ruleset(KEEPERS).definition.catalogs is not None


@pytest.mark.spec("engine:game-ruleset-check-effects")
def test_an_item_effect_in_a_catalog_file_asks_for_1_53(tmp_path: Path) -> None:
    """The Engine's block: Ember Roads' outfitter kept in catalogs/outfitter.json, the waystone's
    carried effect in it, installs on 1.53 and is refused on 1.52, at the file's own path."""
    data = json.loads((RULESETS / "reference" / "ember-roads.json").read_text("utf-8"))
    position = next(i for i, c in enumerate(data["catalogs"]) if c["id"] == "outfitter")
    entries = data["catalogs"][position].pop("entries")
    data["catalogs"][position]["asset"] = "catalogs/outfitter.json"
    waystone = next(i for i, e in enumerate(entries) if e["id"] == "waystone")
    files = {
        "ruleset.json": json.dumps(data).encode("utf-8"),
        "catalogs/outfitter.json": json.dumps(
            {"schemaVersion": 1, "catalog": "outfitter", "entries": entries}
        ).encode("utf-8"),
    }

    def gated(minor: int) -> list[Problem]:
        folder = tmp_path / str(minor)
        (folder / "catalogs").mkdir(parents=True)
        for name, raw in files.items():
            (folder / name).write_bytes(raw)
        pins = [
            {"path": n, "sha256": hashlib.sha256(r).hexdigest(), "bytes": len(r)}
            for n, r in files.items()
        ]
        manifest = {"schemaVersion": 2, "capabilityApi": {"major": 1, "minor": minor}}
        manifest |= {"id": "ember-roads", "name": "Ember Roads", "files": pins}
        (folder / "manifest.json").write_text(json.dumps(manifest), "utf-8")
        try:
            load_ruleset(folder)
        except RulesetError as error:
            return [p for p in error.problems if "needs Capability API 1.53" in p.message]
        return []

    at = f"entries.{waystone}.item.carried"
    assert any((p.file, p.path) == ("catalogs/outfitter.json", at) for p in gated(52))
    assert gated(53) == []
