"""One registry of tag families: the grammar's tag names are the shipped families', and a family
added in one package with one registration is read, applied, streamed and taught like any other."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gm_tags import Game, Ruleset
from gm_tags.families.registry import FAMILIES, SHIPPED, registered
from gm_tags.grammar import opening, terminal_pattern
from gm_tags.parse import parse_all
from gm_tags.scan import scan
from gm_tags.syntax import TAG_NAME, grammar_tag_names, tag_names
from tests.families import omen

OMEN = f'[{omen.NAME}: sign="Crows"]'
REPLY = f"The sky darkens. {OMEN} Then **{OMEN}** silence."


def test_the_grammars_tag_names_are_the_registered_families() -> None:
    assert sorted(grammar_tag_names()) == sorted(FAMILIES) == sorted(f.name for f in SHIPPED)
    assert terminal_pattern(TAG_NAME) == f"(?i:{'|'.join(grammar_tag_names())})"


@pytest.fixture
def omens() -> Iterator[None]:
    with registered(omen.FAMILY):
        yield


@pytest.mark.usefixtures("omens")
def test_a_registered_family_is_read_by_the_grammar() -> None:
    assert tag_names()[-1] == omen.NAME
    [tag, again] = parse_all(scan(REPLY))
    assert (tag.name, tag.attributes, tag.problem) == (omen.NAME, (("sign", "Crows"),), None)
    assert again.start == REPLY.index("[", tag.end)


@pytest.mark.usefixtures("omens")
def test_a_registered_family_applies_and_writes_its_receipts(ember: Ruleset) -> None:
    turn = Game.new(ember, {"Mira": {}}).apply_reply(REPLY)
    assert [(r.family, r.now, r.summary) for r in turn.receipts] == [
        (omen.NAME, "0/4", "omen Crows -> 0/4"),
        (omen.NAME, "1/4", "omen Crows -> 1/4"),
    ]
    assert turn.narration == "The sky darkens. Then silence."
    assert f'[{omen.NAME}: sign="Crows" result="ok" now="1/4"]' in turn.reply
    assert [(c.name, c.filled) for c in turn.game.clocks] == [("Crows", 1)]
    broken = Game.new(ember).apply_reply(f"[{omen.NAME}: sky=red]")
    assert broken.game.recent == (
        f"a {omen.NAME} tag that could not be read refused (malformed: an omen names its sign "
        "with sign=)",
    )


@pytest.mark.usefixtures("omens")
def test_a_registered_family_streams_as_it_applies(ember: Ruleset) -> None:
    game = Game.new(ember, {"Mira": {}})
    stream = game.stream(seed=1)
    shown = [stream.feed(char) for char in REPLY]
    rest, turn = stream.finish()
    assert "".join(shown) + rest == turn.narration == "The sky darkens. Then silence."
    assert not any("[" in piece for piece in shown)
    assert turn == game.apply_reply(REPLY, seed=1)


@pytest.mark.usefixtures("omens")
def test_a_registered_family_is_taught_in_the_reminder(ember: Ruleset) -> None:
    reminder = Game.new(ember, {"Mira": {}}).reminder()
    section = reminder.split("\n\n")[0]
    assert section.startswith("Game state and commands\n") and omen.LESSON in section.split("\n")


def test_an_unregistered_family_is_text_and_the_grammar_forgets_it(ember: Ruleset) -> None:
    with registered(omen.FAMILY):
        assert opening().search(REPLY) is not None
    turn = Game.new(ember).apply_reply(REPLY)
    assert (turn.receipts, turn.narration) == ((), REPLY)
    assert omen.NAME not in FAMILIES and omen.NAME not in tag_names()
    assert opening().search(REPLY) is None
