"""The grammar decides what a tag says: the pipeline's reading of every tag agrees with a plain
Lark parse of the grammar file, Lark really runs on every tag, and refusals say where and what."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lark import Lark, Tree
from lark.exceptions import UnexpectedInput
from syrupy.assertion import SnapshotAssertion

from gm_tags import Game
from gm_tags.grammar import grammar_text, unquoted
from gm_tags.parse import parse
from gm_tags.scan import scan
from tests.conftest import ROOT

PLAIN = Lark((ROOT / "grammar" / "tags.lark").read_text("utf-8"), start="tag", parser="lalr")


def test_anyone_can_parse_a_tag_with_the_grammar_file_alone() -> None:
    tree = PLAIN.parse('[Clock : name="Alarm raised", tick=2 clear]')
    assert [child.data for child in tree.children if isinstance(child, Tree)] == [
        "attribute",
        "attribute",
        "flag",
    ]


def plain_reading(text: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]] | None:
    """What the grammar file says one tag holds, read from Lark's own tree (None: it cannot read
    it), with the forgiveness docs/tags.md promises: keys in any case, empty values absent, the
    same attribute twice only when it agrees."""
    try:
        tree = PLAIN.parse(text)
    except UnexpectedInput:
        return None
    attributes: dict[str, str] = {}
    flags: list[str] = []
    for item in tree.children:
        if not isinstance(item, Tree):
            continue
        key = str(item.children[0]).lower()
        if item.data == "flag":
            flags.append(key) if key not in flags else None
            continue
        value = unquoted(str(item.children[1]))
        if key in attributes and attributes[key] != value:
            return None
        if value:
            attributes.setdefault(key, value)
    return tuple(attributes.items()), tuple(flags)


keys = st.sampled_from(["name", "tick", "who", "op", "pool", "amount", "Name", "TICK", "clear"])
values = st.text(alphabet="ab 12-[]=,\n'\u3000鐘", max_size=8)
quoted = st.one_of(
    st.builds(lambda v: f'"{v}"', values.map(lambda v: v.replace('"', ""))),
    st.builds(lambda v: f"'{v}'", values.map(lambda v: v.replace("'", ""))),
    st.builds(lambda v: f"\u201c{v}\u201d", values),
    st.builds(lambda v: f"\u300c{v}\u300d", values),
    st.text(alphabet="abc12-鐘", min_size=1, max_size=6),
)
spaces = st.sampled_from(["", " ", "  ", "\n", "\u3000", "\t"])
items = st.one_of(
    st.builds(lambda k, s1, s2, v: f"{k}{s1}={s2}{v}", keys, spaces, spaces, quoted),
    keys,
    st.just(","),
)


@st.composite
def tags(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(["clock", "CLOCK", "sheet", "skill_check", " Sheet "]))
    colon = draw(st.sampled_from([":", "\uff1a"]))
    body = " ".join(draw(st.lists(items, max_size=5)))
    text = f"[{name}{colon} {body}]"
    for _ in range(draw(st.integers(0, 2))):  # mutations: a character dropped, doubled or added
        at = draw(st.integers(0, len(text) - 1))
        change = draw(st.sampled_from(["drop", "double", "add"]))
        extra = draw(st.sampled_from(list("[]=\"',:\n a")))
        text = {
            "drop": text[:at] + text[at + 1 :],
            "double": text[:at] + text[at : at + 1] + text[at:],
            "add": text[:at] + extra + text[at:],
        }[change]
    return text


@given(tags())
def test_the_pipelines_tag_is_what_lark_reads(text: str) -> None:
    candidates = scan(text)
    whole = len(candidates) == 1 and candidates[0].text == text and candidates[0].closed
    if not whole:
        return  # the mutation moved where the tag ends: the scanner's business, tested elsewhere
    tag = parse(candidates[0])
    expected = plain_reading(text)
    if expected is None:
        assert tag.problem is not None and tag.attributes == ()
    else:
        assert tag.problem is None, tag.problem
        assert (tag.attributes, tag.flags) == expected


@pytest.mark.parametrize(
    ("tag", "problem"),
    [
        ('[clock: name="Bell" tick "2"]', 'at column 26: expected = after "tick"'),
        ('[clock: name="Bell tick=2]', 'at column 14: unclosed quote in the value of "name"'),
        ("[clock: name=\u201cBell tick=2]", 'at column 14: unclosed quote in the value of "name"'),
        # `name= tick` gives the name the value "tick"; then "=2" stands where a key should.
        (
            "[clock: name= tick=2]",
            'at column 19: found "=2"; expected ",", a key or the closing bracket',
        ),
        ("[clock: name=]", 'at column 14: the value of "name" is missing after ='),
        (
            '[clock: name="A" tick="1" tick="2"]',
            'at column 27: "tick" given twice with different values',
        ),
        (
            '[clock: name="A" = ]',
            'at column 18: found "="; expected ",", a key or the closing bracket',
        ),
        ("[clock: ?]", 'at column 9: found "?"; expected ",", a key or the closing bracket'),
        (
            '[clock: name="A"\n\nThe guards run.',
            "unterminated: no closing bracket before the next opening one, a blank line or 1500 "
            "characters",
        ),
    ],
)
def test_a_refusal_says_where_and_what_went_wrong(game: Game, tag: str, problem: str) -> None:
    receipt = game.apply_reply(tag).receipts[0]
    assert (receipt.reason, receipt.detail) == ("malformed", problem)
    assert problem in game.apply_reply(tag).game.reminder()


def test_the_reminder_after_a_reply_of_broken_tags(game: Game, snapshot: SnapshotAssertion) -> None:
    reply = (
        'The door creaks. [clock: name="Vault" tick "2"] A bell. [clock: name="Bell tick=1]\n'
        '[sheet: who="Mira" op="spend" pool=] [clock: name="A" size="4" size="6"] '
        "[skill_check: skill='Prowl' dc=2 dc=3] [clock: ?]"
    )
    reminder = game.apply_reply(reply).game.reminder()
    first = reminder.split("\n\n", 1)[0]
    assert first == snapshot


def test_the_grammar_is_the_file_shipped() -> None:
    assert grammar_text() == (ROOT / "grammar" / "tags.lark").read_text("utf-8")
