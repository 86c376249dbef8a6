"""`gm-tags` as a user runs it: output lines and exit codes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gm_tags.cli import main
from tests.ruleset.corpus import INVALID, RULESETS


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_validate_says_ok_for_every_valid_ruleset() -> None:
    paths = [str(RULESETS / "storyteller.json"), str(RULESETS / "packaged-lantern-keepers")]
    code, out = run("validate", *paths)
    assert code == 0
    assert out.splitlines() == [f"OK {path}" for path in paths]


def test_validate_prints_one_line_per_problem_and_exits_1() -> None:
    bad = INVALID / "levels-max-disagrees.json"
    code, out = run("validate", str(RULESETS / "storyteller.json"), str(bad))
    assert code == 1
    assert out.splitlines()[1:] == [
        f"{bad}: sheet.live.tracks.0.max: max must equal the number of levels (3), found 4"
    ]


def test_validate_exits_2_when_a_path_cannot_be_read_or_is_not_json(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    code, out = run(
        "validate", str(INVALID / "missing-gm.json"), str(tmp_path / "absent.json"), str(broken)
    )
    assert code == 2
    lines = out.splitlines()
    assert lines[0].endswith("(root): missing required key 'gm'")
    assert lines[1].startswith(f"{tmp_path / 'absent.json'}: ")
    assert "cannot read" in lines[1]
    assert "not JSON" in lines[2]


def test_schema_is_json_schema_that_allows_comments() -> None:
    code, out = run("schema")
    schema = json.loads(out)
    assert code == 0
    assert schema["additionalProperties"] is False
    assert "$comment" in schema["properties"] and "$schema" in schema["properties"]
    assert "$comment" in schema["$defs"]["Track"]["properties"]


def test_unknown_command_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["frobnicate"])
    assert exit_.value.code == 2
