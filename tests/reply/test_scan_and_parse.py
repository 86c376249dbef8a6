"""Finding tags in free text and reading each with the grammar."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm_tags import Game, load_ruleset
from gm_tags.parse import parse
from gm_tags.scan import MAX_BODY, scan
from tests.conftest import FIXTURES


def tags(reply: str) -> list[tuple[str, tuple[tuple[str, str], ...], str | None]]:
    return [(tag.name, tag.attributes, tag.problem) for tag in map(parse, scan(reply))]


@pytest.mark.parametrize(
    "text",
    [
        "[OOC: let's pause here]",
        "See [the map](https://example.invalid/map) and [sic].",
        "A lone [ bracket, and a lone ] one.",
        '[sheets: op="spend"] is not a tag name; nor is [clocks: name="x"]',
        '[clock name="no colon"]',
    ],
)
def test_square_brackets_that_are_not_command_tags_are_not_candidates(text: str) -> None:
    assert scan(text) == []


def test_a_tag_is_read_with_the_engines_leniency() -> None:
    reply = "[CLOCK : Name = 'Alarm raised'\n  tick=2]"
    assert tags(reply) == [("clock", (("name", "Alarm raised"), ("tick", "2")), None)]


def test_typographic_quotes_bare_values_commas_and_flags_are_read() -> None:
    reply = "[clock: name=\u201cBell tower\u201d, tick=-1] [clock: name=\u2018Gate\u2019 clear]"
    assert tags(reply) == [
        ("clock", (("name", "Bell tower"), ("tick", "-1")), None),
        ("clock", (("name", "Gate"),), None),
    ]
    assert parse(scan(reply)[1]).flags == ("clear",)


def test_the_same_attribute_twice_is_read_once_when_it_agrees_and_refused_when_not() -> None:
    assert tags('[clock: name="A" tick="2" tick="2"]') == [
        ("clock", (("name", "A"), ("tick", "2")), None)
    ]
    assert tags('[clock: name="A" tick="2" tick="3"]') == [
        ("clock", (), 'at column 27: "tick" given twice with different values')
    ]


def test_an_unterminated_tag_stops_at_the_next_bracket_or_blank_line() -> None:
    reply = '[clock: name="Alarm" tick="2"\n\nThe guards run. [clock: name="Bell" tick="1"]'
    (first, second) = scan(reply)
    assert (first.closed, first.text) == (False, '[clock: name="Alarm" tick="2"')
    assert parse(first).problem == (
        "unterminated: no closing bracket before the next opening one, a blank line or 1500 "
        "characters"
    )
    assert parse(second).attributes == (("name", "Bell"), ("tick", "1"))
    bare = scan("[sheet: op=note value=see [page 3]]")
    assert [(c.closed, c.text) for c in bare] == [(False, "[sheet: op=note value=see")]


def test_brackets_inside_double_quotes_do_not_end_or_break_a_tag() -> None:
    (tag,) = map(parse, scan('[sheet: op="note" value="see [page 3]" field="notes"] after'))
    assert tag.attributes == (("op", "note"), ("value", "see [page 3]"), ("field", "notes"))
    outside = scan('[clock: name="The [Red" tick=1] door"\n\nnext paragraph"]')
    assert [c.text for c in outside] == ['[clock: name="The [Red" tick=1]']


def test_a_tag_the_grammar_cannot_read_is_kept_as_a_refusal() -> None:
    (tag,) = map(parse, scan('Text [clock: name="A" = ] more'))
    assert (tag.problem, tag.raw) == (
        'at column 18: found "="; expected ",", a key or the closing bracket',
        '[clock: name="A" = ]',
    )


def test_tags_in_japanese_chinese_and_hindi_prose() -> None:
    reply = (
        '鐘が鳴り始めた。[clock: name="警報" tick="2"]'
        '钟声响起。[sheet: who="李白" op="spend" pool="neili" amount="1"]'
        'घंटी बजी। [clock: name="चेतावनी" size="6"]'
    )
    assert [tag[1][0] for tag in tags(reply)] == [
        ("name", "警報"),
        ("who", "李白"),
        ("name", "चेतावनी"),
    ]


@given(st.text())
def test_candidates_are_ordered_apart_and_cut_from_the_text_itself(text: str) -> None:
    candidates = scan(text)
    ends = 0
    for candidate in candidates:
        assert candidate.start >= ends
        assert text[candidate.start : candidate.end] == candidate.text
        ends = candidate.end
        parse(candidate)


@given(st.lists(st.sampled_from(["[", "]", "[clock:", "[sheet: op=", '"', "\n\n", "x", " "])))
def test_bracket_soup_never_raises(pieces: list[str]) -> None:
    for candidate in scan("".join(pieces)):
        tag = parse(candidate)
        assert tag.problem is None or tag.attributes == ()


def test_a_quote_left_open_ends_the_tag_at_its_bracket_and_is_refused() -> None:
    reply = 'She spends it. [sheet: op="spend" pool="Grit amount="1"] The door holds.'
    (candidate,) = scan(reply)
    assert (candidate.closed, candidate.text) == (True, '[sheet: op="spend" pool="Grit amount="1"]')
    assert reply[candidate.end :] == " The door holds."
    # The value of pool runs to the next quote; what follows it cannot be read.
    assert parse(candidate).problem == (
        'at column 39: found "1""; expected ",", a key or the closing bracket'
    )
    open_at_end = scan('[sheet: op="note" value="see] rest')
    assert [(c.closed, c.text) for c in open_at_end] == [(True, '[sheet: op="note" value="see]')]
    assert parse(open_at_end[0]).problem == 'at column 25: unclosed quote in the value of "value"'


@pytest.mark.parametrize(
    ("body", "closed"), [(MAX_BODY - 1, True), (MAX_BODY, True), (MAX_BODY + 1, False)]
)
def test_the_closing_bracket_is_looked_for_within_the_body_limit(body: int, closed: bool) -> None:
    opening = '[clock: name="'
    value = "x" * (body - len(opening) + len("[clock:") - 1)
    reply = f'{opening}{value}"] after'
    (candidate,) = scan(reply)
    assert len(reply[len("[clock:") : reply.index("]")]) == body
    assert candidate.closed is closed
    if closed:
        assert candidate.text == reply[: reply.index("]") + 1]
    else:
        assert len(candidate.text) == len("[clock:") + MAX_BODY
        assert parse(candidate).problem is not None


def test_a_blank_line_inside_a_quoted_value_leaves_the_tag_unterminated() -> None:
    (candidate,) = scan('[clock: name="A\n\nB" tick="1"] The bell.')
    assert (candidate.closed, candidate.text) == (False, '[clock: name="A')


def test_a_bracket_beyond_the_body_limit_does_not_close_a_quoted_value() -> None:
    opening = '[clock: name="a]'
    body_start = len("[clock:")
    # The quote closes, and its "]" stands, one character past the body limit: the tag ends at
    # the "]" inside the quotes, the last one within reach.
    filler = "x" * (MAX_BODY - (len(opening) - body_start))
    reply = f'{opening}{filler}"] after'
    assert reply.index('"]') + 1 - body_start == MAX_BODY + 1
    (candidate,) = scan(reply)
    assert (candidate.closed, candidate.text) == (True, opening)


@pytest.mark.parametrize("cut", [0, 1, -1])
def test_a_stream_waits_for_a_bracket_at_the_body_limit(cut: int) -> None:
    game = Game.new(load_ruleset(FIXTURES / "rulesets" / "crew-of-shadows.json"))
    body_start = len("[clock:")
    opening = '[clock: name="'
    # Its "]" stands exactly at the body limit: the last place that still closes the tag.
    reply = f'{opening}{"x" * (MAX_BODY - len(opening) + body_start - 1)}"] The bell.'
    assert reply.index("]") == body_start + MAX_BODY
    at = body_start + MAX_BODY + cut
    stream = game.stream()
    shown = stream.feed(reply[:at]) + stream.feed(reply[at:])
    rest, turn = stream.finish()
    whole = game.apply_reply(reply)
    assert shown + rest == whole.narration == "The bell."
    assert [(r.reason, r.detail) for r in turn.receipts] == [
        (r.reason, r.detail) for r in whole.receipts
    ]
