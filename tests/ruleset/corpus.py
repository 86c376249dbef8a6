"""The ruleset fixture corpus: valid rulesets, and invalid ones with the problem each reports."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import FIXTURES

RULESETS = FIXTURES / "rulesets"
INVALID = RULESETS / "invalid"
EXPECTATION = re.compile(r"^Refused \((?P<rules>[^)]*)\) at (?P<path>\S+): (?P<why>.*)$")


@dataclass(frozen=True)
class InvalidCase:
    source: Path
    rules: tuple[str, ...]
    path: str
    why: str

    @property
    def name(self) -> str:
        return self.source.name.removesuffix(".json")


def valid_sources() -> list[Path]:
    return sorted(RULESETS.glob("*.json")) + sorted(RULESETS.glob("packaged-*"))


def invalid_cases() -> list[InvalidCase]:
    cases = []
    for source in sorted(INVALID.iterdir()):
        carrier = source / "manifest.json" if source.is_dir() else source
        comment = json.loads(carrier.read_text(encoding="utf-8"))["$comment"]
        found = EXPECTATION.match(comment)
        assert found, f"{carrier}: $comment does not say where it is refused: {comment!r}"
        rules = tuple(rule.strip() for rule in found["rules"].split(","))
        cases.append(InvalidCase(source, rules, found["path"], found["why"]))
    return cases
