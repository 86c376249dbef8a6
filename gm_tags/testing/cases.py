"""`gm-tags test DIR`: golden files for ruleset authors who do not write Python.

A folder of cases: each reply file (`NAME.txt`) is applied to a game with a fixed seed, rendered
as `gm_tags.testing.render` writes a turn, and compared with `NAME.expected.txt` beside it.
`cases.json` in the folder says what each reply runs against:

    {"ruleset": "../rulesets/heist.json", "game": "../games/start.json", "seed": 0,
     "cases": {"alarm.txt": {}, "fresh-crew.txt": {"game": null}}}

Paths are relative to the folder; a case may set its own `ruleset`, `game` (null: a new game) or
`seed`. Without `cases`, every `*.txt` that is not an expected file is a case.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TextIO

from ..errors import GameDocumentError, RulesetError, SourceError
from .render import TestGame, render

INDEX = "cases.json"
EXPECTED = ".expected.txt"

Verdict = Literal["ok", "differs", "new", "refused", "updated"]


@dataclass(frozen=True)
class Outcome:
    name: str
    verdict: Verdict
    message: str = ""


def run_cases(folder: Path, out: TextIO, *, update: bool = False) -> int:
    """Run every case in `folder`, say how each went on `out`, and return the exit code: 0 when
    all pass (or were updated), 1 when any differs, is new or is refused."""
    outcomes = list(_outcomes(folder, update=update))
    for outcome in outcomes:
        out.write(f"{outcome.verdict:<8} {outcome.name}\n")
        if outcome.message:
            out.write(outcome.message.rstrip("\n") + "\n")
    failed = sum(o.verdict in ("differs", "new", "refused") for o in outcomes)
    out.write(f"{len(outcomes)} cases, {failed} failed\n")
    return 1 if failed else 0


def _outcomes(folder: Path, *, update: bool) -> Iterator[Outcome]:
    index = _index(folder)
    for name, case in _cases(folder, index):
        settings = {**{k: v for k, v in index.items() if k != "cases"}, **case}
        reply_file = folder / name
        expected_file = folder / (name.removesuffix(".txt") + EXPECTED)
        try:
            game = TestGame.of(
                folder / settings["ruleset"],
                None if settings.get("game") is None else folder / settings["game"],
                seed=settings.get("seed", 0),
            )
            reply = reply_file.read_text(encoding="utf-8")
        except (RulesetError, GameDocumentError) as error:
            yield Outcome(name, "refused", f"  {error}")
            continue
        except (OSError, SourceError, KeyError) as error:
            yield Outcome(name, "refused", f"  cannot run the case: {error}")
            continue
        rendered = render(game.play(reply))
        expected = expected_file.read_text(encoding="utf-8") if expected_file.exists() else None
        if expected == rendered:
            yield Outcome(name, "ok")
        elif update:
            expected_file.write_text(rendered, encoding="utf-8")
            yield Outcome(name, "updated")
        elif expected is None:
            yield Outcome(name, "new", f"  no {expected_file.name}; --update writes it")
        else:
            diff = difflib.unified_diff(
                expected.splitlines(keepends=True),
                rendered.splitlines(keepends=True),
                fromfile=expected_file.name,
                tofile="this run",
            )
            yield Outcome(name, "differs", "".join(diff))


def _index(folder: Path) -> dict[str, Any]:
    path = folder / INDEX
    if not path.exists():
        raise SourceError(f"{folder}: no {INDEX} says which ruleset and game the cases run on")
    try:
        index = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise SourceError(f"{path}: not JSON: {error}") from None
    if not isinstance(index, dict):
        raise SourceError(f"{path}: an object with ruleset, game, seed and cases")
    return index


def _cases(folder: Path, index: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    listed = index.get("cases")
    if isinstance(listed, dict):
        return sorted((name, dict(case or {})) for name, case in listed.items())
    return sorted(
        (path.name, {}) for path in folder.glob("*.txt") if not path.name.endswith(EXPECTED)
    )
