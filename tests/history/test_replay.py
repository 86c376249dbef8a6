"""Recorded sessions replayed into the store (`gm-tags replay`) and a chat on the command line
(`gm-tags play`), as a user runs them."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gm_tags.cli import main
from gm_tags.store import Chats, SqliteStore
from tests.conftest import FIXTURES

SESSIONS = sorted((FIXTURES / "sessions").glob("*.jsonl"))


def run(
    *argv: str, stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[int, str]:
    if monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_there_are_at_least_three_recorded_sessions() -> None:
    assert len(SESSIONS) >= 3


@pytest.mark.parametrize("session", SESSIONS, ids=[path.stem for path in SESSIONS])
def test_a_replay_prints_each_step_and_is_the_same_every_time(
    session: Path, tmp_path: Path
) -> None:
    first_code, first = run("replay", str(session), "--db", str(tmp_path / "a.sqlite"))
    second_code, second = run("replay", str(session), "--db", str(tmp_path / "b.sqlite"))
    assert first_code == second_code == 0
    steps = [line for line in first.splitlines() if line.startswith("== ")]
    entries = session.read_text("utf-8").splitlines()[1:]
    assert len(steps) == len([entry for entry in entries if entry.strip()])
    # The dice are seeded per step, so the same session throws the same dice.
    assert first.replace("a.sqlite", "b.sqlite") == second


@pytest.mark.spec("EN-2", "EN-3", "CL-15")
def test_the_heist_keeps_only_the_chosen_swipe_and_survives_in_the_store(tmp_path: Path) -> None:
    db = tmp_path / "gm.sqlite"
    code, out = run("replay", str(FIXTURES / "sessions" / "heist.jsonl"), "--db", str(db))
    assert code == 0
    assert "refused: opened at an older revision" in out

    store = SqliteStore(db)
    chat = Chats(store).open("heist")
    store.close()
    document = chat.game.to_document()
    clocks = {clock["name"]: clock["filled"] for clock in document["rulesetClocks"]}
    # Swipe 1 (the quiet check) was chosen: the alarm ticks of swipes 0 and 2 never happened,
    # and Tobin's stress spend in swipe 0 is not in the story either.
    assert clocks["Alarm raised"] == 2
    assert clocks["Vault door"] == 8
    assert "stress" not in json.dumps(document["rulesetLive"].get("tobin vell", {}))
    assert [message.role for message in chat.messages] == [
        "user",
        "reply",
        "user",
        "reply",
        "event",
    ]
    assert len(chat.messages[1].swipes) == 3 and chat.messages[1].selected == 1
    assert document["gamePartySheet"]["fields"]["lair"] == "The loft above the Leaky Bucket"
    assert document["rulesetLive"]["$party"]["pools"]["coin"]["value"] == 3


def test_replaying_again_replaces_the_chat_instead_of_adding_to_it(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.sqlite")
    session = str(FIXTURES / "sessions" / "hollows.jsonl")
    run("replay", session, "--db", db)
    run("replay", session, "--db", db, "--chat", "again")
    run("replay", session, "--db", db)
    store = SqliteStore(db)
    chats = Chats(store)
    assert sorted(store.chat_ids()) == ["again", "hollows"]
    assert len(chats.open("hollows").messages) == len(chats.open("again").messages)
    store.close()


def test_a_broken_session_file_is_reported_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"user": "no header"}\n', encoding="utf-8")
    code, _ = run("replay", str(broken), "--db", str(tmp_path / "gm.sqlite"))
    assert code == 2
    assert "the first line names the ruleset" in capsys.readouterr().err


def test_a_step_that_cannot_be_taken_is_reported_with_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = tmp_path / "bad.jsonl"
    header = {"ruleset": str(FIXTURES / "rulesets" / "crew-of-shadows.json")}
    session.write_text(
        json.dumps(header) + '\n{"user": "hello"}\n{"regenerate": "again"}\n', encoding="utf-8"
    )
    code, out = run("replay", str(session), "--db", str(tmp_path / "gm.sqlite"))
    assert code == 1
    assert "== player ==" in out
    assert f"{session}: line 3 (regenerate): the last message is not a reply" in (
        capsys.readouterr().err
    )
    assert SqliteStore(tmp_path / "gm.sqlite").chat_ids() == []  # nothing of it was stored


def test_a_line_that_is_not_json_is_reported_with_its_line_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = tmp_path / "bad.jsonl"
    header = {"ruleset": str(FIXTURES / "rulesets" / "crew-of-shadows.json")}
    session.write_text(json.dumps(header) + '\n\n{"user": "hello"}\n{"reply": oops}\n', "utf-8")
    code, _ = run("replay", str(session), "--db", str(tmp_path / "gm.sqlite"))
    assert code == 2
    assert f"{session}: line 4: not JSON" in capsys.readouterr().err


def test_a_taken_chat_id_is_refused_unless_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "gm.sqlite")
    heist = str(FIXTURES / "sessions" / "heist.jsonl")
    assert run("replay", heist, "--db", db)[0] == 0
    before = Chats(SqliteStore(db)).open("heist").game.to_document()
    code, _ = run("replay", heist, "--db", db)
    assert code == 1
    assert "exists already; add --replace" in capsys.readouterr().err
    assert run("replay", heist, "--db", db, "--replace")[0] == 0
    assert Chats(SqliteStore(db)).open("heist").game.to_document() == before


def test_a_session_that_fails_half_way_leaves_the_chat_it_would_replace(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "gm.sqlite")
    heist = FIXTURES / "sessions" / "heist.jsonl"
    assert run("replay", str(heist), "--db", db)[0] == 0
    before = Chats(SqliteStore(db)).open("heist").game.to_document()
    broken = tmp_path / "heist.jsonl"
    lines = heist.read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    header["ruleset"] = str((heist.parent / header["ruleset"]).resolve())
    if "game" in header:
        header["game"] = str((heist.parent / header["game"]).resolve())
    broken.write_text("\n".join([json.dumps(header), *lines[1:3], '{"select": 9}']) + "\n", "utf-8")
    assert run("replay", str(broken), "--db", db, "--replace")[0] == 1
    assert Chats(SqliteStore(db)).open("heist").game.to_document() == before


PLAY = """\
The alarm starts. [clock: name="Alarm raised" size="6"]
.
/regen
The alarm starts louder. [clock: name="Alarm raised" size="4"]
.
/swipe 0
/prompt
/undo
/swipe 7
/quit
"""


def test_play_reads_replies_and_history_commands_from_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "gm.sqlite")
    ruleset = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
    code, out = run("play", "--ruleset", ruleset, "--db", db, stdin=PLAY, monkeypatch=monkeypatch)
    assert code == 0
    six = '[clock: name="Alarm raised" size="6" result="ok" now="0/6"]'
    four = '[clock: name="Alarm raised" size="4" result="ok" now="0/4"]'
    assert six in out and four in out
    assert "--- narration ---\nThe alarm starts.\n---" in out
    # /prompt after choosing swipe 0 shows the six-segment clock the model now reads.
    reminder = out.split(four, 1)[1]
    assert "Alarm raised" in reminder and "0/6" in reminder
    assert "cannot:" in out  # /swipe 7 after /undo: there is no reply to choose a swipe of

    store = SqliteStore(db)
    chat = Chats(store).open("play")
    store.close()
    assert chat.messages == ()  # /undo took the reply away, in the store too
    assert chat.game.clocks == ()


def test_play_goes_on_with_a_stored_chat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "gm.sqlite")
    ruleset = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
    first = '[clock: name="Plan" size="4"]\n.\n/quit\n'
    run("play", "--ruleset", ruleset, "--db", db, stdin=first, monkeypatch=monkeypatch)
    code, out = run(
        "play", "--db", db, stdin='[clock: name="Plan" tick="3"]\n.\n', monkeypatch=monkeypatch
    )
    assert code == 0
    assert '[clock: name="Plan" tick="3" result="ok" now="3/4"]' in out


def test_play_without_a_stored_chat_needs_a_ruleset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("play", "--db", str(tmp_path / "gm.sqlite"), monkeypatch=monkeypatch)
    assert code == 2
    assert "--ruleset" in capsys.readouterr().err


def test_play_says_what_each_history_command_did_and_lists_them_on_help(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "gm.sqlite")
    ruleset = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
    stdin = PLAY.replace("/quit\n", "/swipe x\n/help\n/nope\n/quit\n")
    code, out = run("play", "--ruleset", ruleset, "--db", db, stdin=stdin, monkeypatch=monkeypatch)
    assert code == 0
    lines = out.splitlines()
    assert "the next reply will be swipe 1 of the last reply (0 to 0 kept)" in lines
    assert "swipe 0 of 0-1 chosen: The alarm starts." in lines
    assert "deleted the last message; 0 left" in lines
    assert "cannot: /swipe takes a swipe number, got 'x'" in lines
    assert any(line.startswith("/swipe N ") for line in lines)  # /help
    assert "unknown command /nope: /help lists them" in lines
