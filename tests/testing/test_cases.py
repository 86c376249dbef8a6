"""`gm-tags test DIR`: a folder of cases built from the fixtures passes, a changed expectation is
a diff and exit 1, `--update` rewrites, and a refused ruleset is never written over."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest

from gm_tags.cli import main
from tests.conftest import FIXTURES

CASES = {
    "en/sheet-and-clock.txt": ("crew-of-shadows.json", "crew-mid-heist.json"),
    "en/ember-checks.txt": ("reference/ember-roads.json", "ember-roads.json"),
    "ja/hollows-sheet.txt": ("hearts-and-hollows.ja.json", "hollows-village.ja.json"),
    "hi/rajmarg-sheet.txt": ("rajmarg.hi.json", "rajmarg.hi.json"),
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    cases = tmp_path / "cases"
    cases.mkdir()
    index: dict[str, object] = {"seed": 3, "cases": {}}
    for reply, (ruleset, game) in CASES.items():
        name = reply.replace("/", "-")
        shutil.copy(FIXTURES / "replies" / reply, cases / name)
        index["cases"][name] = {  # type: ignore[index]
            "ruleset": os.path.relpath(FIXTURES / "rulesets" / ruleset, cases),
            "game": os.path.relpath(FIXTURES / "games" / game, cases),
        }
    (cases / "cases.json").write_text(json.dumps(index, indent=2), "utf-8")
    return cases


def gm_tags_test(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["test", *argv], out)
    return code, out.getvalue()


def test_new_cases_fail_until_updated_then_pass(folder: Path) -> None:
    code, said = gm_tags_test(str(folder))
    assert code == 1
    assert said.count("new ") == 4 and "--update writes it" in said
    code, said = gm_tags_test(str(folder), "--update")
    assert (code, said.count("updated")) == (0, 4)
    expected = (folder / "ja-hollows-sheet.expected.txt").read_text("utf-8")
    assert "=== receipts ===" in expected and "蒼" in expected
    assert gm_tags_test(str(folder)) == (
        0,
        "".join(f"ok       {n}\n" for n in sorted(r.replace("/", "-") for r in CASES))
        + "4 cases, 0 failed\n",
    )


def test_a_changed_expectation_is_a_diff_and_exit_1(folder: Path) -> None:
    gm_tags_test(str(folder), "--update")
    expected = folder / "en-sheet-and-clock.expected.txt"
    expected.write_text(expected.read_text("utf-8").replace("3/6", "4/6"), "utf-8")
    code, said = gm_tags_test(str(folder))
    assert code == 1
    assert "differs  en-sheet-and-clock.txt" in said
    assert "-  + Alarm raised 4/6\n" in said and "+  + Alarm raised 3/6\n" in said
    assert "1 failed" in said
    assert gm_tags_test(str(folder), "--update")[0] == 0
    assert gm_tags_test(str(folder))[0] == 0


def test_a_refused_ruleset_is_reported_and_its_expected_file_kept(folder: Path) -> None:
    gm_tags_test(str(folder), "--update")
    broken = folder / "broken.json"
    broken.write_text(json.dumps({"schemaVersion": 1, "id": ""}), "utf-8")
    index = json.loads((folder / "cases.json").read_text("utf-8"))
    index["cases"]["en-sheet-and-clock.txt"]["ruleset"] = "broken.json"
    (folder / "cases.json").write_text(json.dumps(index), "utf-8")
    before = (folder / "en-sheet-and-clock.expected.txt").read_text("utf-8")
    code, said = gm_tags_test(str(folder), "--update")
    assert code == 1
    assert "refused  en-sheet-and-clock.txt" in said and "missing required key" in said
    assert (folder / "en-sheet-and-clock.expected.txt").read_text("utf-8") == before


def test_a_folder_without_cases_json_is_one_line_and_exit_2(tmp_path: Path) -> None:
    code = main(["test", str(tmp_path)], io.StringIO())
    assert code == 2


def test_the_bundled_cases_pass() -> None:
    code, said = gm_tags_test(str(FIXTURES / "cases"))
    assert (code, said.splitlines()[-1]) == (0, "3 cases, 0 failed")
