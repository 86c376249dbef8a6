"""The promises no reply may break, for every fixture game: `apply_reply` never raises, one
receipt per tag, narration with no tag in it, documents that read back within their limits, forged
outcomes that change nothing, and a reminder that keeps its shape (see `tests/fuzzing.py`)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzzing import GAMES, check_forged_change_nothing, check_turn, fixture_game, reply

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.spec("TG-5", "TG-8")
@pytest.mark.parametrize(("ruleset", "game"), GAMES, ids=[game for _, game in GAMES])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_no_reply_breaks_a_promise(ruleset: str, game: str, seed: int) -> None:
    start = fixture_game(ruleset, game)
    rng = random.Random(seed)
    text = reply(start, rng)
    check_turn(start, start.to_document(), text, start.apply_reply(text, seed=seed))


@pytest.mark.parametrize(("ruleset", "game"), GAMES, ids=[game for _, game in GAMES])
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_forged_outcomes_change_nothing(ruleset: str, game: str, seed: int) -> None:
    check_forged_change_nothing(fixture_game(ruleset, game), random.Random(seed), seed)


@pytest.mark.parametrize(("ruleset", "game"), GAMES, ids=[game for _, game in GAMES])
@SETTINGS
@given(seeds=st.lists(st.integers(0, 2**32 - 1), min_size=2, max_size=6))
def test_a_chain_of_replies_keeps_every_document_readable(
    ruleset: str, game: str, seeds: list[int]
) -> None:
    """Replies one after another, huge amounts among them: every snapshot reads back."""
    current = fixture_game(ruleset, game)
    for seed in seeds:
        text = reply(current, random.Random(seed))
        before = current.to_document()
        turn = current.apply_reply(text, seed=seed)
        check_turn(current, before, text, turn)
        current = turn.game
