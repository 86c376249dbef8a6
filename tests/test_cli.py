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


CREW = str(RULESETS / "crew-of-shadows.json")
GAMES = RULESETS.parent / "games"
REPLIES = RULESETS.parent / "replies"


def test_apply_prints_the_rewritten_reply() -> None:
    code, out = run(
        "apply",
        "--ruleset",
        CREW,
        "--game",
        str(GAMES / "crew-mid-heist.json"),
        str(REPLIES / "en" / "heist-alarm.txt"),
    )
    assert code == 0
    assert '[clock: name="Alarm raised" tick="2" result="ok" now="4/6"]' in out
    assert '[clock: name="Silver counted" size="4" result="ok" now="0/4"]' in out
    assert out.startswith("Mira's pick slips")


def test_apply_json_has_reply_narration_receipts_and_the_new_game(tmp_path: Path) -> None:
    code, out = run(
        "apply",
        "--json",
        "--ruleset",
        CREW,
        "--game",
        str(GAMES / "crew-mid-heist.json"),
        str(REPLIES / "en" / "vault-opens.txt"),
    )
    result = json.loads(out)
    assert code == 0
    assert set(result) == {"reply", "narration", "receipts", "game"}
    assert "[clock:" not in result["narration"]
    assert [receipt["now"] for receipt in result["receipts"]] == ["8/8", "cleared"]
    assert [clock["name"] for clock in result["game"]["rulesetClocks"]] == [
        "Alarm raised",
        "Vault door",
    ]
    assert result["game"]["gameCharacterCards"][0]["name"] == "Mira"


def test_apply_write_saves_the_game_and_reads_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO('[clock: name="Heat" size="4"]'))
    assert run("apply", "--ruleset", CREW, "--game", str(game), "--write", "-")[0] == 0
    monkeypatch.setattr("sys.stdin", io.StringIO('[clock: name="heat" tick="3"]'))
    code, out = run("apply", "--ruleset", CREW, "--game", str(game), "--write", "-")
    assert (code, out) == (0, '[clock: name="Heat" tick="3" result="ok" now="3/4"]\n')
    saved = json.loads(game.read_text("utf-8"))
    assert saved["rulesetClocks"] == [{"name": "Heat", "size": 4, "filled": 3}]
    assert saved["gameRuleset"]["id"] == "crew-of-shadows"


def test_apply_refuses_a_bad_game_document_listing_its_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "game.json"
    game.write_text('{"rulesetClocks": [{"name": "Heat", "size": 40}]}', encoding="utf-8")
    reply = tmp_path / "reply.txt"
    reply.write_text("Nothing.", encoding="utf-8")
    code, out = run("apply", "--ruleset", CREW, "--game", str(game), str(reply))
    assert (code, out) == (1, "")
    assert "rulesetClocks.0.size" in capsys.readouterr().err


def test_apply_exits_2_on_an_unreadable_reply(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run("apply", "--ruleset", CREW, "no/such/reply.txt")
    assert code == 2
    assert "no/such/reply.txt" in capsys.readouterr().err


def test_prompt_prints_the_system_section_and_the_reminder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    keepers = str(RULESETS / "packaged-lantern-keepers")
    code, out = run("prompt", "--ruleset", keepers, "--game", str(GAMES / "lantern-keepers.json"))
    assert code == 0
    system, reminder = out.split("=== reminder ===\n")
    assert system.startswith("=== system ===\nLantern Keepers:")
    assert "Game Master rules reference" in system
    assert "<character_sheets>\nOdile" in reminder
    code, out = run("prompt", "--ruleset", keepers, "--budget", "40")
    assert code == 0 and "left out here to fit the context" in out
    assert "cut by" in capsys.readouterr().err


CREW_FILE = str(RULESETS / "crew-of-shadows.json")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["serve", "--port", "99999"], "a port is 1 to 65535, got 99999"),
        (["proxy", "--upstream", "replay:x", "--ruleset", CREW_FILE, "--port", "0"], "got 0"),
        (["prompt", "--ruleset", CREW_FILE, "--budget", "-3"], "must be 1 or more, got -3"),
        (["proxy", "--upstream", "ftp:/x", "--ruleset", CREW_FILE], "'ftp:/x' is neither"),
        (["proxy", "--upstream", "http://", "--ruleset", CREW_FILE], "nor replay:SESSION.jsonl"),
        (["proxy", "--upstream", "replay:x", "--ruleset", CREW_FILE, "--timeout", "-1"], "than 0"),
    ],
    ids=["port-99999", "port-0", "budget-negative", "upstream-ftp", "upstream-no-host", "timeout"],
)
def test_a_bad_option_is_one_usage_line_and_exit_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["serve", "proxy"])
def test_a_taken_port_is_said_and_leaves_no_store_behind(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    db = tmp_path / "new.sqlite"
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = str(holder.getsockname()[1])
        extra = ["--upstream", "replay:x", "--ruleset", CREW_FILE] if command == "proxy" else []
        code = main([command, "--db", str(db), "--port", port, *extra])
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    assert not db.exists()


def test_validate_names_an_unreadable_file_once(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    _, out = run("validate", str(broken))
    assert out.count(str(broken)) == 1
