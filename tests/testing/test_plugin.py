"""A user's test project, run with pytester: the plugin's `gm_game` and `turn_snapshot` pin three
fixture replies, and the tests fail, showing what changed, when a reply or the ruleset does."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow

PROJECT_TEST = """
import pathlib
import pytest

HERE = pathlib.Path(__file__).parent
REPLIES = ["sheet-and-clock.txt", "two-actions.txt", "vault-opens.txt"]


@pytest.mark.parametrize("name", REPLIES)
def test_reply(name, gm_game, turn_snapshot):
    game = gm_game(HERE / "crew.json", HERE / "start.json", seed=7)
    assert game.play((HERE / name).read_text("utf-8")) == turn_snapshot


def test_a_character_list(gm_game, turn_snapshot):
    characters = [{"name": "Mira"}]
    game = gm_game(HERE / "crew.json", characters=characters)
    assert game.play('Mira climbs. [clock: name="Climb" size="4"]') == turn_snapshot
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    shutil.copy(FIXTURES / "rulesets" / "crew-of-shadows.json", pytester.path / "crew.json")
    shutil.copy(FIXTURES / "games" / "crew-mid-heist.json", pytester.path / "start.json")
    for name in ("sheet-and-clock.txt", "two-actions.txt", "vault-opens.txt"):
        shutil.copy(FIXTURES / "replies" / "en" / name, pytester.path / name)
    pytester.makepyfile(test_turns=PROJECT_TEST)
    return pytester


def test_the_plugin_pins_replies_and_passes_while_nothing_changes(project: pytest.Pytester) -> None:
    project.runpytest("--snapshot-update").assert_outcomes(passed=4)
    written = sorted(project.path.glob("__snapshots__/test_turns/*.turn.txt"))
    assert len(written) == 4
    text = written[0].read_text("utf-8")
    assert "=== receipts ===" in text and "=== changed ===" in text
    project.runpytest().assert_outcomes(passed=4)


def test_a_changed_reply_fails_and_shows_the_difference(project: pytest.Pytester) -> None:
    project.runpytest("--snapshot-update").assert_outcomes(passed=4)
    reply = project.path / "sheet-and-clock.txt"
    reply.write_text(reply.read_text("utf-8").replace('tick="1"', 'tick="2"'), "utf-8")
    result = project.runpytest("-vv")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*Alarm raised 4/6*"])


def test_a_changed_ruleset_fails_where_its_rules_show(project: pytest.Pytester) -> None:
    project.runpytest("--snapshot-update").assert_outcomes(passed=4)
    crew = project.path / "crew.json"
    ruleset = json.loads(crew.read_text("utf-8"))
    for pool in ruleset["sheet"]["live"]["pools"]:
        if pool["id"] == "stress":
            pool["max"] = {"const": 12}
    crew.write_text(json.dumps(ruleset), "utf-8")
    result = project.runpytest("-vv")
    assert result.parseoutcomes()["failed"] >= 1
    result.stdout.fnmatch_lines(["*+   + Stress 10/12*"])
