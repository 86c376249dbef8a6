"""The installed `gm-tags` console script, run as a user runs it: every way it ends is one line,
never a traceback, and no file it writes is ever left half-written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow  # each test starts the installed gm-tags script

SCRIPT = Path(sys.executable).with_name("gm-tags")
CREW = str(FIXTURES / "rulesets" / "crew-of-shadows.json")


def gm_tags(
    *argv: str, stdin: bytes = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(SCRIPT), *argv], input=stdin, capture_output=True, cwd=cwd, check=False
    )
    return subprocess.CompletedProcess(
        result.args, result.returncode, result.stdout.decode(), result.stderr.decode()
    )


def apply_writing(game: Path, reply: bytes) -> subprocess.CompletedProcess[str]:
    """`gm-tags apply --write` of a reply on standard input to the game file `game`."""
    return gm_tags("apply", "--ruleset", CREW, "--game", str(game), "--write", "-", stdin=reply)


def test_version() -> None:
    result = gm_tags("--version")
    assert (result.returncode, result.stdout.strip()) == (0, "gm-tags 0.1.0")


def test_help_is_written_for_users() -> None:
    result = gm_tags("--help")
    assert result.returncode == 0
    assert "Exit codes" in result.stdout and "apply" in result.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ("prompt", "--budget", "many"),
        ("apply", "reply.txt"),  # no --ruleset
        ("frobnicate",),
    ],
)
def test_a_bad_command_line_is_one_line_and_exit_2(argv: tuple[str, ...]) -> None:
    result = gm_tags(*argv)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_a_closed_pipe_ends_quietly() -> None:
    command = f"{SCRIPT} schema | head -c 10"
    result = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True)
    assert result.stdout == b'{\n  "$defs'[:10]
    assert b"Traceback" not in result.stderr and b"BrokenPipe" not in result.stderr
    assert result.returncode == 0


def _default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_ends_with_one_line(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [str(SCRIPT), "play", "--ruleset", CREW, "--db", str(tmp_path / "gm.sqlite")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # As a shell starts it: Ctrl-C neither ignored nor blocked, whatever an earlier test left
        # in this process (a child inherits both).
        preexec_fn=_default_ctrl_c,
    )
    assert process.stdout is not None
    process.stdout.readline()  # the chat is open and waiting for a reply
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=20)
    assert process.returncode == 130
    assert err.decode().strip() == "gm-tags: interrupted"


def test_a_reply_that_is_not_utf8_leaves_the_game_file_whole(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    first = apply_writing(game, b'[clock: name="Heat" size="4"]')
    assert first.returncode == 0
    before = game.read_bytes()
    result = apply_writing(game, 'Caf\xe9 [clock: name="Heat" tick="1"]'.encode("latin-1"))
    assert result.returncode == 2
    assert "not UTF-8" in result.stderr and "Traceback" not in result.stderr
    assert game.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.json"]


def test_a_game_in_a_folder_that_does_not_exist_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "game.json"
    result = apply_writing(missing, b"Hi.")
    assert result.returncode == 2
    assert "does not exist" in result.stderr and "Traceback" not in result.stderr


def test_a_missing_game_file_is_a_new_game_only_when_written(tmp_path: Path) -> None:
    game = tmp_path / "gmae.json"  # a typo
    result = gm_tags("apply", "--ruleset", CREW, "--game", str(game), "-", stdin=b"Hi.")
    assert result.returncode == 2
    assert "does not exist; add --write" in result.stderr
    assert not game.exists()


def test_the_game_file_is_replaced_whole(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    for reply in ('[clock: name="Heat" size="4"]', '[clock: name="Heat" tick="2"]'):
        assert apply_writing(game, reply.encode()).returncode == 0
    assert json.loads(game.read_text("utf-8"))["rulesetClocks"][0]["filled"] == 2
    assert os.listdir(tmp_path) == ["game.json"]
