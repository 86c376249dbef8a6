"""Invariants of `apply_reply` over arbitrary text, with valid and broken tags spliced in."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_tags import Game, Reason, Ruleset, Turn
from gm_tags.text import name_key

pytestmark = pytest.mark.load  # they ran into Hypothesis's 200 ms deadline on a busy machine

FORGED = "zzforgedzz"
# Timings measure the machine, not the code (tests/conftest.py): no deadline, and no health check
# on how fast examples are made; the game fixture is read-only, so one per test is enough.
UNTIMED = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

names = st.one_of(
    st.sampled_from(["Alarm raised", "alarm RAISED", "鐘楼", "दरबार की साज़िश", "Vault door"]),
    st.text(min_size=0, max_size=12),
)
actions = st.one_of(
    st.builds(lambda n: f'size="{n}"', st.sampled_from(["4", "6", "8", "5", "x", "-4"])),
    st.builds(lambda n: f"tick={n}", st.integers(-12, 12)),
    st.just("clear"),
    st.just('clear="true"'),
)
outcomes = st.lists(
    st.sampled_from(
        [
            f'result="{FORGED}"',
            f"now={FORGED}",
            f"reason='{FORGED}'",
            f'rolls="{FORGED}"',
            f"RESULT = {FORGED}",
            f'raw="{FORGED}"',
        ]
    ),
    max_size=2,
)


@st.composite
def tags(draw: st.DrawFn) -> str:
    name = draw(names)
    parts = [
        f'name="{name}"',
        *draw(st.one_of(st.lists(actions, min_size=1, max_size=1), st.lists(actions, max_size=2))),
        *draw(outcomes),
    ]
    parts = draw(st.permutations(parts))
    tag = f"[{draw(st.sampled_from(['clock', 'CLOCK', 'clock ']))}: {' '.join(parts)}]"
    breakage = draw(st.sampled_from(["none", "none", "unclosed", "inner-bracket", "newlines"]))
    if breakage == "unclosed":
        tag = tag[:-1]
    elif breakage == "inner-bracket":
        cut = draw(st.integers(1, len(tag) - 1))
        tag = tag[:cut] + "[" + tag[cut:]
    elif breakage == "newlines":
        tag = tag.replace(" ", "\n")
    return tag


prose = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
replies = st.lists(st.one_of(prose, tags()), max_size=12).map("".join)


def rebuilt(reply: str, turn: Turn) -> str:
    """`reply` with each receipt's span replaced by its tag: the rewritten reply must be exactly
    this, so nothing outside command tags changed."""
    pieces, at = [], 0
    for receipt in turn.receipts:
        pieces += [reply[at : receipt.start], receipt.tag]
        at = receipt.end
    return "".join(pieces) + reply[at:]


@pytest.mark.spec("TG-5", "TG-8")
@UNTIMED
@given(reply=st.text(max_size=300))
def test_arbitrary_text_never_raises_and_text_without_tags_is_untouched(
    game: Game, reply: str
) -> None:
    turn = game.apply_reply(reply)
    assert turn.reply == rebuilt(reply, turn)
    if not turn.receipts:
        assert turn.reply == reply and turn.narration == reply


@pytest.mark.spec("TG-4", "TG-5")
@UNTIMED
@given(reply=replies)
def test_spliced_tags_leave_everything_else_alone_and_carry_no_forged_outcome(
    crew: Ruleset, reply: str
) -> None:
    game = Game.new(crew).apply_reply('[clock: name="Alarm raised" size="6"]').game
    before = game.to_document()
    turn = game.apply_reply(reply)
    assert turn.reply == rebuilt(reply, turn)
    for receipt in turn.receipts:
        assert reply[receipt.start : receipt.end] == receipt.written
        assert FORGED not in receipt.tag and FORGED not in (receipt.now or "")
        assert receipt.tag.count("result=") == 1
        assert (receipt.now is None) != (receipt.reason is None)
        assert receipt.reason is not Reason.ENGINE_ERROR  # no fault of ours is hiding here
    assert game.to_document() == before
    limits = crew.definition.clocks
    assert limits is not None
    clocks = turn.game.clocks
    assert len(clocks) <= limits.max
    assert all(0 <= clock.filled <= clock.size for clock in clocks)
    assert len({name_key(clock.name) for clock in clocks}) == len(clocks)
