"""Loading a ruleset: a file, a package folder, JSON text or a dict in; a `Ruleset` or one
`RulesetError` holding every problem out. Loading never half-succeeds.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from ..errors import Problem, RulesetError, SourceError
from .assets import assets_named, in_asset_form, merged
from .base import Carried, Strict
from .capabilities import gate
from .checks_blocks import BlockChecks
from .checks_catalogs import CatalogChecks
from .checks_combat import CombatChecks
from .checks_effects import EffectChecks
from .checks_items import ItemChecks
from .checks_layers import LayerChecks
from .checks_sheet import SheetChecks
from .document import RulesetFile
from .index import SheetIndex
from .layering import active_layers, layered_definition
from .problems import problems_from
from .salvage import problems_beyond_shape

RULESET_FILE = "ruleset.json"
MANIFEST_FILE = "manifest.json"
MAX_FILE_BYTES = 256 * 1024


class CapabilityApi(Strict):
    major: Literal[1]
    minor: Annotated[int, Field(ge=0)]


class PinnedFile(Strict):
    path: str
    sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    bytes: Annotated[int, Field(ge=0)]


class Manifest(Carried):
    """A capability package's manifest; the keys we read are checked, the rest carried."""

    schema_version: Literal[1, 2]
    capability_api: CapabilityApi
    id: str
    name: str
    kind: list[str] = ["ruleset"]
    files: list[PinnedFile] = []


@dataclass(frozen=True)
class Ruleset:
    """A validated, immutable ruleset and the lookups built from it once, at load."""

    definition: RulesetFile
    index: SheetIndex
    manifest: Manifest | None = None
    source: str | None = None
    # The JSON that was validated (a package's catalogs read in), kept so the ruleset itself can
    # be stored beside the games played with it.
    data: Any = None
    # On the ruleset a game plays by when layers are on: the ruleset as loaded (whose document
    # and fingerprint this one shares), and the layers applied, in declaration order.
    base: Ruleset | None = None
    layers: tuple[str, ...] = ()

    def with_layers(self, chosen: Iterable[str]) -> Ruleset:
        """This ruleset with the `chosen` layers applied (see `layering`), built once per
        combination; the loaded ruleset itself when none of them applies."""
        loaded = self.base or self
        active = active_layers(loaded.definition, chosen)
        ids = tuple(layer.id for layer in active)
        if ids == self.layers:
            return self
        if not ids:
            return loaded
        layered = loaded.layered_by_ids.get(ids)
        if layered is None:
            definition = layered_definition(loaded.definition, active)
            layered = Ruleset(
                definition,
                SheetIndex.build(definition),
                loaded.manifest,
                loaded.source,
                loaded.data,
                base=loaded,
                layers=ids,
            )
            loaded.layered_by_ids[ids] = layered
        return layered

    @functools.cached_property
    def layered_by_ids(self) -> dict[tuple[str, ...], Ruleset]:
        return {}

    @functools.cached_property
    def document(self) -> dict[str, Any]:
        """The ruleset as it can be stored and loaded again (`load_stored`)."""
        manifest = self.manifest.model_dump(by_alias=True) if self.manifest else None
        return {"ruleset": self.data, "manifest": manifest}

    @functools.cached_property
    def fingerprint(self) -> str:
        """What the ruleset's content is known by: a hash of its stored document."""
        canonical = json.dumps(self.document, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def name(self) -> str:
        return self.definition.name


def load_ruleset(source: str | Path | dict[str, Any]) -> Ruleset:
    """Load and check a ruleset from a path (file or package folder), JSON text or a dict."""
    if isinstance(source, dict):
        return validate(source)
    if isinstance(source, Path) or not source.lstrip().startswith("{"):
        path = Path(source)
        if path.is_dir():
            return _load_package(path)
        return validate(_read_json(path), source=str(path))
    return validate(_parse(source, "<text>"), source="<text>")


def validate(
    data: Any,
    *,
    source: str | None = None,
    manifest: Manifest | None = None,
    assets: Mapping[int, str] | None = None,
) -> Ruleset:
    """Check parsed ruleset JSON completely; raise `RulesetError` holding every problem. `assets`
    names the catalogs whose entries were read from an asset file, whose problems are then said
    in that file's terms."""
    try:
        definition = RulesetFile.model_validate(data)
    except ValidationError as error:
        # Every problem in one pass: the shape's, then the cross-references of what is well shaped.
        problems = problems_from(error, data, RulesetFile)
        problems += problems_beyond_shape(
            data, lambda found: _cross_checks(found, SheetIndex.build(found), manifest)
        )
        raise RulesetError(in_asset_form(problems, assets or {}), source) from None
    index = SheetIndex.build(definition)
    problems = _cross_checks(definition, index, manifest)
    if problems:
        raise RulesetError(in_asset_form(problems, assets or {}), source)
    return Ruleset(definition, index, manifest, source, data)


def _cross_checks(
    definition: RulesetFile, index: SheetIndex, manifest: Manifest | None
) -> list[Problem]:
    """What pydantic cannot check: ids that exist, live reads, hideWhen values, capability gates."""
    problems: list[Problem] = []
    for checks in (
        SheetChecks,
        BlockChecks,
        CatalogChecks,
        ItemChecks,
        CombatChecks,
        EffectChecks,
        LayerChecks,
    ):
        reporter = checks(definition, index)
        reporter.run()
        problems.extend(reporter.problems)
    if manifest is not None:
        problems.extend(gate(definition, manifest.capability_api.minor, manifest.schema_version))
    return problems


def load_stored(document: dict[str, Any]) -> Ruleset:
    """A ruleset from its stored document (`Ruleset.document`), checked again as at import."""
    manifest = document.get("manifest")
    return validate(
        document["ruleset"],
        source="<stored>",
        manifest=Manifest.model_validate(manifest) if manifest is not None else None,
    )


def _read_json(path: Path) -> Any:
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise SourceError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise RulesetError(
            [Problem("(root)", f"the file is {len(raw)} bytes; at most {MAX_FILE_BYTES}")],
            str(path),
        )
    return _parse(raw, str(path))


def _parse(raw: str | bytes, where: str) -> Any:
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SourceError(f"{where}: not JSON: {error}") from None


def _load_package(folder: Path) -> Ruleset:
    where = str(folder)
    manifest_data = _read_json(folder / MANIFEST_FILE)
    try:
        manifest = Manifest.model_validate(manifest_data)
    except ValidationError as error:
        problems = problems_from(error, manifest_data, Manifest)
        raise RulesetError(
            [Problem(f"manifest.{p.path}".replace(".(root)", ""), p.message) for p in problems],
            where,
        ) from None
    pinned = {entry.path: entry for entry in manifest.files}
    problems = _check_pins(folder, pinned)
    if RULESET_FILE not in pinned:
        problems.append(Problem("manifest.files", f"the package must list {RULESET_FILE}"))
    if problems:
        raise RulesetError(problems, where)
    data = _read_json(folder / RULESET_FILE)
    if not isinstance(data, dict):
        return validate(data, source=where, manifest=manifest)
    named = assets_named(data)
    contents = {
        path: _read_json(folder / path)
        for path in named.values()
        if path in pinned and (folder / path).is_file()
    }
    data, problems = merged(data, set(pinned), contents)
    if problems:
        raise RulesetError(problems, where)
    return validate(data, source=where, manifest=manifest, assets=named)


def _check_pins(folder: Path, pinned: dict[str, PinnedFile]) -> list[Problem]:
    problems = []
    for position, (name, entry) in enumerate(pinned.items()):
        path = folder / name
        if not path.is_file() or folder.resolve() not in path.resolve().parents:
            problems.append(
                Problem(
                    f"manifest.files.{position}.path", f"{name!r} is not a file inside the package"
                )
            )
            continue
        raw = path.read_bytes()
        if len(raw) != entry.bytes:
            problems.append(
                Problem(
                    f"manifest.files.{position}.bytes",
                    f"declares {entry.bytes} bytes; {name} has {len(raw)}",
                )
            )
        elif hashlib.sha256(raw).hexdigest() != entry.sha256:
            problems.append(
                Problem(
                    f"manifest.files.{position}.sha256",
                    f"{name} does not match its declared sha256",
                )
            )
    return problems
