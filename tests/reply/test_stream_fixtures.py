"""The fixture replies outside `fixtures/replies` stream to the batch result too, in chunks of
every size from 1 to 16: the worked cases of `fixtures/cases` (docs/testing.md) and every reply,
regeneration and continuation of the recorded sessions in `fixtures/sessions`, each from the
game it is played on (tests/reply/test_stream.py holds `fixtures/replies`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gm_tags import Game, load_ruleset
from tests.conftest import FIXTURES
from tests.reply.test_stream import streamed

CASES = FIXTURES / "cases"
SESSIONS = FIXTURES / "sessions"


def game_of(folder: Path, ruleset: str, game: str) -> Game:
    document = json.loads((folder / game).read_text("utf-8"))
    return Game.from_document(load_ruleset(folder / ruleset), document)


def fixture_replies() -> list[tuple[str, Game, str]]:
    """Each reply's name, the game it starts from, and its text."""
    found = []
    index = json.loads((CASES / "cases.json").read_text("utf-8"))
    for name, case in index["cases"].items():
        game = game_of(
            CASES, case.get("ruleset", index["ruleset"]), case.get("game", index["game"])
        )
        found.append((f"cases/{name}", game, (CASES / name).read_text("utf-8")))
    for session in sorted(SESSIONS.glob("*.jsonl")):
        header, *steps = (json.loads(line) for line in session.read_text("utf-8").splitlines())
        start = game_of(SESSIONS, header["ruleset"], header["game"])
        for at, step in enumerate(steps):
            for kind in ("reply", "regenerate", "continue"):
                if isinstance(step.get(kind), str):
                    found.append((f"sessions/{session.stem}/{at}-{kind}", start, step[kind]))
    return found


FIXTURE_REPLIES = fixture_replies()


def test_the_cases_and_every_session_reply_are_here() -> None:
    names = [name for name, _, _ in FIXTURE_REPLIES]
    assert sum(name.startswith("cases/") for name in names) == 3
    assert sum(name.startswith("sessions/") for name in names) >= 10


@pytest.mark.parametrize(
    ("game", "text"),
    [(game, text) for _, game, text in FIXTURE_REPLIES],
    ids=[name for name, _, _ in FIXTURE_REPLIES],
)
def test_every_case_and_session_reply_streams_to_the_batch_result_in_chunks_up_to_16(
    game: Game, text: str
) -> None:
    batch = game.apply_reply(text, seed=7)
    for size in range(1, 17):
        streamed(game, text, list(range(size, len(text), size)), batch=batch)
