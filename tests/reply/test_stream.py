"""A reply fed in chunks (`Game.stream`) ends exactly where `apply_reply` on the whole text does,
gives out narration as it becomes safe, and never shows a piece of a tag."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_tags import Game, Turn
from gm_tags.chats.cut import applied_again
from gm_tags.families.registry import FAMILIES, unregister
from gm_tags.grammar import opening
from gm_tags.scan import MAX_BODY
from tests.fuzzing import GAMES, fixture_game, reply
from tests.reply.test_reply_corpus import INDEX, REPLIES, starting_game

REPLY_NAMES = sorted(INDEX)


def streamed(
    game: Game, text: str, cuts: list[int], seed: int = 7, batch: Turn | None = None
) -> tuple[list[str], Turn]:
    """Feed `text` cut at `cuts`; check after every chunk that what was shown is a prefix of the
    batch narration and holds no tag opening; return the pieces shown and the turn."""
    batch = batch or game.apply_reply(text, seed=seed)
    stream = game.stream(seed=seed)
    pieces: list[str] = []
    bounds = [0, *sorted(set(cuts)), len(text)]
    for start, end in itertools.pairwise(bounds):
        pieces.append(stream.feed(text[start:end]))
        shown = "".join(pieces)
        assert batch.narration.startswith(shown), (text[:end], shown)
        assert opening().search(shown) is None
    rest, turn = stream.finish()
    pieces.append(rest)
    assert "".join(pieces) == batch.narration
    assert turn.reply == batch.reply
    assert turn.receipts == batch.receipts
    assert turn.game.to_document() == batch.game.to_document()
    assert turn.game.recent == batch.game.recent
    assert turn.game.rolled == batch.game.rolled
    return pieces, turn


@pytest.mark.parametrize("name", REPLY_NAMES)
def test_every_fixture_reply_streams_to_the_batch_result_in_chunks_of_every_size_up_to_16(
    name: str,
) -> None:
    text = (REPLIES / name).read_text("utf-8")
    game = starting_game(INDEX[name])
    batch = game.apply_reply(text, seed=7)
    for size in (*range(1, 17), 64):
        streamed(game, text, list(range(size, len(text), size)), batch=batch)


@pytest.mark.parametrize("name", REPLY_NAMES)
def test_the_narration_given_out_for_a_text_does_not_hang_on_its_chunks(name: str) -> None:
    """A stream stopped anywhere gives the narration a stream fed that text in one piece gives
    (the proxy reads a stopped reply again that way, as far as the client was sent it)."""
    text = (REPLIES / name).read_text("utf-8")
    game = starting_game(INDEX[name])
    ends = sorted({*range(1, len(text), max(1, len(text) // 24)), len(text)})
    for size in (1, 4, 7):
        stream, given, at = game.stream(seed=7), "", 0
        for end in ends:
            while at < end:
                given += stream.feed(text[at : min(at + size, end)])
                at = min(at + size, end)
            whole = game.stream(seed=7)
            assert whole.feed(text[:end]) == given, (size, text[:end])
            assert whole.stop().narration == given, (size, text[:end])


@pytest.mark.slow  # every cut of every fixture reply: 14 to 47 s a reply on a busy machine
@pytest.mark.parametrize("name", REPLY_NAMES)
def test_every_fixture_reply_streams_to_the_batch_result_cut_in_two_anywhere(name: str) -> None:
    """Every place: inside tag names and quoted values, between a check and its branches, beside
    a combining mark."""
    text = (REPLIES / name).read_text("utf-8")
    game = starting_game(INDEX[name])
    batch = game.apply_reply(text, seed=7)
    # Every place in the replies up to 400 characters; in longer ones, 400 places spread evenly.
    for cut in range(1, len(text), max(1, len(text) // 240)):
        streamed(game, text, [cut], batch=batch)


@pytest.mark.parametrize(("ruleset", "game"), GAMES, ids=[game for _, game in GAMES])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_generated_replies_stream_to_the_batch_result_however_they_are_cut(
    ruleset: str, game: str, seed: int, data: st.DataObject
) -> None:
    start = fixture_game(ruleset, game)
    text = reply(start, random.Random(seed))
    cuts = data.draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=40))
    streamed(start, text, cuts, seed=seed)


def test_a_tag_applies_the_moment_its_bracket_closes_and_the_prose_before_it_shows(
    game: Game,
) -> None:
    stream = game.stream()
    assert stream.feed('The bell rings. [clock: name="Alarm" size=') == "The bell rings."
    assert stream.receipts == ()
    assert stream.feed('"6"') == ""
    assert stream.feed("]") == ""
    (receipt,) = stream.receipts
    assert (receipt.result, receipt.now) == ("ok", "0/6")
    assert stream.feed(" Guards stir.") == " Guards stir."
    rest, turn = stream.finish()
    assert rest == ""
    assert turn.narration == "The bell rings. Guards stir."


def test_a_bracket_that_could_still_open_a_tag_is_held_and_one_that_cannot_is_shown(
    game: Game,
) -> None:
    stream = game.stream()
    assert stream.feed("She reads the sign [cl") == "She reads the sign"
    assert stream.feed("osed] and") == " [closed] and"


def test_stray_brackets_amid_flowing_prose_show_as_the_batch_narration_has_them(
    game: Game,
) -> None:
    """Brackets no tag opens at go on with the prose, but for a `[ cl` that a tag removed
    right after it joins into an opening (`[ cl` + `ock: x]`): it waits, and its `[` goes."""
    text = (
        'Calm prose goes on. Mira [ cl[clock: name="Alarm" size="4"]ock: x] waits. [a] [ ] '
        '[[b] **[ cl** done. *[clock: name="Alarm" tick="1"]* [ \u3000 [clock: '
        'name="Alarm" tick="1"]clock: y]'
    )
    assert "Mira  clock: x] waits. [a] [ ] [[b] **[ cl** done." in game.apply_reply(text).narration
    for size in range(1, 16):
        streamed(game, text, list(range(size, len(text), size)))


def test_brackets_before_one_that_could_still_open_a_tag_wait_with_it(game: Game) -> None:
    """`[ [` amid prose: the second could open a tag, and a tag removed after it could join the
    first into an opening, so both wait until the text after them says neither can."""
    stream = game.stream()
    assert stream.feed("She waits.") == "She waits."
    assert stream.feed(" [ [") == ""
    assert stream.feed(" sk") == ""
    assert stream.feed("y] falls.") == " [ [ sky] falls."
    text = 'She waits. [ [ [sk  now [ [[clock: name="Alarm" size="4"]clock: x] falls. [ [ '
    for size in range(1, 9):
        streamed(game, text, list(range(size, len(text), size)))


def test_a_quoted_bracket_does_not_close_a_tag_early(game: Game) -> None:
    stream = game.stream()
    stream.feed('Onward. [clock: name="The [Red] Door')
    assert stream.receipts == ()
    stream.feed('" size="4"] The door creaks.')
    (receipt,) = stream.receipts
    assert receipt.written == '[clock: name="The [Red] Door" size="4"]'
    assert receipt.reason is not None and receipt.reason.value == "bad-name"


@pytest.mark.parametrize("seed", range(6))
def test_the_text_after_a_check_waits_for_its_branches(seed: int) -> None:
    ember = starting_game(INDEX["en/ember-checks.txt"])
    stream = ember.stream(seed=seed)
    shown = stream.feed('The gate guard squints. [skill_check: skill="Sneak" dc="8"]')
    assert shown == "The gate guard squints."
    assert len(stream.receipts) == 1
    assert stream.feed(" ") == ""
    assert stream.feed("[success: The lock clicks.]") == ""
    shown += stream.feed("[failure: A pin snaps.]")
    shown += stream.feed(" She listens.")
    rest, turn = stream.finish()
    assert shown + rest == turn.narration
    assert ("The lock clicks." in turn.narration) != ("A pin snaps." in turn.narration)


def test_an_unterminated_tag_is_held_no_longer_than_the_scanner_reads_for_one(game: Game) -> None:
    stream = game.stream()
    opened = 'Ahead. [clock: name="Alarm" tick="1"'
    assert stream.feed(opened) == "Ahead."
    prose = " and the corridor goes on" * (MAX_BODY // 25 + 2)
    shown = stream.feed(prose)
    # The scanner read MAX_BODY characters for its `]`: the tag ends there, refused, and the
    # prose after it shows at once, as the batch narration has it.
    assert shown.endswith("goes on")
    assert game.apply_reply(opened + prose).narration == "Ahead." + shown
    (receipt,) = stream.receipts
    assert receipt.reason is not None and receipt.reason.value == "malformed"


@pytest.mark.parametrize("before", ["Ahead.", "Ahead. The hall is quiet. "])
def test_a_tag_opening_in_a_chunk_with_no_end_in_reach_lets_the_prose_after_it_show(
    game: Game, before: str
) -> None:
    # The tag opens while all is calm (the narrator's line lent to `feed`), in one chunk with
    # more than the scanner's bound of prose after it: the scan settles it there, refused, and
    # the prose after it is given out by that chunk's feed, as the batch narration has it.
    prose = " and the corridor goes on" * (MAX_BODY // 25 + 2)
    text = before + '[clock: name="Alarm" tick="1"' + prose + " More."
    pieces, turn = streamed(game, text, [len(before), len(text) - len(" More.")])
    assert pieces[1].endswith("the corridor goes on"), pieces[1][-40:]
    (receipt,) = turn.receipts
    assert receipt.reason is not None and receipt.reason.value == "malformed"


def test_a_finished_stream_takes_no_more_and_finishes_the_same_again(game: Game) -> None:
    stream = game.stream()
    stream.feed("All quiet.")
    first = stream.finish()
    assert stream.finish() == ("", first[1])
    with pytest.raises(RuntimeError):
        stream.feed(" more")


def test_a_continued_stream_keeps_what_the_reply_before_it_left_for_the_reminder(
    game: Game,
) -> None:
    first = game.apply_reply('[clock: name="Alarm" tick="x"] Dark.')
    more = ' [clock: name="Alarm" tick="y"] Darker.'
    stream = first.game.stream(continues=True)
    stream.feed(more)
    _, turn = stream.finish()
    assert turn.game.recent == first.game.continue_reply(more).game.recent
    assert len(turn.game.recent) == 2


# Pieces that open, close, quote and wrap tags and branches, in every combination.
TOKENS = (
    *("[", "]", "*", "**", "_", "(", ")", "`", '"', "\u201c", "\u201d", "\u300c", "\u300d"),
    *(" ", "  ", "\n", "\n\n", "\t", "\r\n", ".", ",", ":", "\u3002", "\u0915", "\u093f"),
    *("clock:", "[clock:", ' name="A"', " size=4", " tick=1", "sheet:", "[ sheet :", "[CLOCK："),
    *("[skill_check:", ' skill="Sneak" dc="8"', "[success:", "[failure:", " ok", "word"),
)


# Prose words outweigh the rest, so the narrator's line is lent to `feed` (as it is through
# most of a real reply) when tags open and close and brackets stray.
PROSE_TOKENS = (
    *("The ", "lantern ", "goes", " dark", ". ", ", ", "word", " ", "\u3002", "\u4e2d\u6587") * 4,
    *('[clock: name="A" tick=1]', '[clock: name="B" size=4]', '[sheet: who="Mira" hp-=1]') * 2,
    *("[sic]", "[ ", "[", "]", "[[", "**", "*", "(", "\n", "\r\n", "!", "\t", "  ", "[ cl"),
    *("ock: x]", '[skill_check: skill="Sneak" dc="8"]', "[success: ok]", "\u201c", "\u201d"),
    "clock:",
)


@pytest.mark.parametrize(
    ("tokens", "regular"),
    [(TOKENS, False), (PROSE_TOKENS, True)],
    ids=["tag-pieces", "prose-with-tags-in-regular-chunks"],
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 1000))
def test_text_made_of_tag_pieces_streams_to_the_batch_result(
    tokens: tuple[str, ...], regular: bool, data: st.DataObject, seed: int
) -> None:
    text = "".join(data.draw(st.lists(st.sampled_from(tokens), min_size=1, max_size=50)))
    cuts = data.draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=30))
    if regular:  # chunks of one size, as a model's tokens mostly come, and a few cuts more
        size = data.draw(st.integers(1, 12))
        cuts += range(size, len(text), size)
    streamed(starting_game(INDEX["en/ember-checks.txt"]), text, cuts, seed=seed)


@pytest.mark.parametrize("after", ["[", "[ ", "[[", "**[", "[s", " [cl"])
def test_a_tag_that_closes_amid_flowing_prose_with_a_bracket_after_it_in_the_chunk(
    game: Game, after: str
) -> None:
    head = 'The lantern goes dark. [clock: name="A" size="4"]Mira waits.'
    text = f'{head}{after}clock: name="A" tick="1"] Done.'
    pieces, _ = streamed(game, text, [22, 26, 36, len(head) + len(after)])
    assert pieces[:4] == ["The lantern goes dark.", "", "", " Mira waits."]


def test_a_line_that_starts_with_white_space_after_a_tag_reaches_the_client_whole(
    game: Game,
) -> None:
    text = 'The door.\n\n[clock: name="A" size="6"]\n\n  - Mira runs.\n  - Tobin hides.\n'
    pieces, _ = streamed(game, text, list(range(4, len(text), 4)))
    assert "".join(pieces) == "The door.\n\n  - Mira runs.\n  - Tobin hides.\n"
    assert "".join(pieces[:-1]).endswith("  - Tobin hides.")  # given out as it came, not at the end


# Lines as a model lays them out: indented, tabbed, list items, blank lines before and between,
# tags alone on a line or inside one, wrapped in markup, and checks with their branches.
INDENTS = ("", "  ", "    ", "\t", " \t", "\u3000")
LINE_PIECES = (
    *("Mira runs.", "- Tobin hides", "* a list item", "word", "(aside)", "the lamp:", ".", ","),
    *('[clock: name="A" size="6"]', '[clock: name="A" tick="1"]', '**[clock: name="B" size="4"]**'),
    *('[skill_check: skill="Sneak" dc="8"]', "[success: The lock clicks.]", "[failure: Snap.]"),
    *("[sheet: bogus]", "[cl", "ock: x]", " ", "  ", "\t"),
)


@st.composite
def laid_out_replies(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        indent = draw(st.sampled_from(INDENTS))
        pieces = draw(st.lists(st.sampled_from(LINE_PIECES), max_size=5))
        lines.append(indent + " ".join(pieces))
    lead = draw(st.sampled_from(("", "\n", "\n\n", " \n", "\t\n\n")))
    end = draw(st.sampled_from(("", "\n", "\n\n", "  ")))
    return lead + draw(st.sampled_from(("\n", "\n\n", "\r\n"))).join(lines) + end


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=laid_out_replies(), seed=st.integers(0, 1000))
def test_indented_tabbed_and_blank_led_lines_stream_to_the_batch_result_at_every_chunk_size(
    text: str, seed: int
) -> None:
    game = starting_game(INDEX["en/ember-checks.txt"])
    batch = game.apply_reply(text, seed=seed)
    for size in range(1, 17):
        streamed(game, text, list(range(size, len(text), size)), seed=seed, batch=batch)


def test_a_tag_whose_family_was_unregistered_is_text_shown_as_it_comes(game: Game) -> None:
    # The grammar still spells `[clock:` as an opening, but no family takes it: the scan leaves
    # it as text, so a stream shows it at once (nothing will close it as a tag) and ends as the
    # batch narration does.
    said = 'Ahead. [clock: name="Alarm"'
    text = said + ' tick="1"] The corridor [sheet: who="Mira" stress="+1"] ends.'
    clock = FAMILIES["clock"]
    unregister("clock")
    try:
        batch = game.apply_reply(text, seed=7)
        assert game.stream(seed=7).feed(said) == 'Ahead. clock: name="Alarm"'
        assert batch.narration.startswith('Ahead. clock: name="Alarm" tick="1"]')
        for size in (1, 4, len(text)):
            streamed(game, text, list(range(size, len(text), size)), batch=batch)
    finally:
        FAMILIES["clock"] = clock  # shipped families are no registered tag names


@pytest.mark.parametrize(
    ("after", "applied"),
    [("", []), (' [sheet: who="Mira" stress="+1"] Done.', ["sheet"])],
    ids=["no command", "a command after it"],
)
def test_a_tag_no_family_takes_hides_an_opening_in_its_quoted_value_however_it_is_cut(
    after: str, applied: list[str]
) -> None:
    # `[sheet:` stands inside the quoted value of a tag whose family was unregistered: the scan
    # of the whole reply reads both as one candidate, which is text (its openings' `[` left out,
    # with or without a command in the reply). A stream cut inside it once took the inner
    # opening for a tag of its own and refused it; with no command, a stream's narration ended
    # with its last characters twice.
    game = starting_game(INDEX["en/sheet-and-clock.txt"])
    text = 'A [clock: name="x [sheet: who=" ] end.' + after
    clock = FAMILIES["clock"]
    unregister("clock")
    try:
        batch = game.apply_reply(text, seed=7)
        assert [receipt.family for receipt in batch.receipts] == applied
        assert batch.narration.startswith('A clock: name="x sheet: who=" ] end.')
        # Shown up to the `[` inside it: where it may yet end, a tag of its own open.
        assert game.stream(seed=7).feed(text[: text.index('" ]')]) == 'A clock: name="x'
        for cut in range(1, len(text)):
            streamed(game, text, [cut], batch=batch)
    finally:
        FAMILIES["clock"] = clock  # shipped families are no registered tag names


@pytest.mark.parametrize("name", REPLY_NAMES)
def test_a_stopped_stream_keeps_the_text_that_reads_again_to_what_it_gave_out(name: str) -> None:
    """A stream stopped anywhere keeps as its text what was given out and the tags that apply,
    no more: read again whole (a continue joined onto it, a retell, a cut), it narrates what
    the client was shown and applies the same tags. Not the start of a check's branch held back,
    a `[` that may still open a tag, or a tag still open (issue #29: a reply stopped inside a
    branch kept `[success: She reaches it before the fir`, shown again after a continue)."""
    text = (REPLIES / name).read_text("utf-8")
    game = starting_game(INDEX[name])
    for end in sorted({*range(1, len(text), max(1, len(text) // 60)), len(text)}):
        for size in (1, 5):
            assert_stopped_keeps_what_reads_again(game, text, end, size, seed=7)


@pytest.mark.parametrize(("ruleset", "game"), GAMES, ids=[game for _, game in GAMES])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_a_generated_reply_stopped_anywhere_keeps_the_text_that_reads_again_to_it(
    ruleset: str, game: str, seed: int, data: st.DataObject
) -> None:
    """Stray brackets, tags glued together, `[` before a tag the narration held back."""
    start = fixture_game(ruleset, game)
    text = reply(start, random.Random(seed))
    end = data.draw(st.integers(0, len(text)))
    size = data.draw(st.sampled_from([1, 3, 8]))
    assert_stopped_keeps_what_reads_again(start, text, end, size, seed=seed)


def assert_stopped_keeps_what_reads_again(
    game: Game, text: str, end: int, size: int, *, seed: int
) -> None:
    """`text` up to `end`, fed in `size` pieces and stopped: the text kept, read again whole
    with the same dice, narrates what was given out, with the same receipts; fed again and
    stopped, it keeps the same (white space aside)."""
    stream = game.stream(seed=seed)
    given = "".join(stream.feed(text[at : min(at + size, end)]) for at in range(0, end, size))
    turn = stream.stop()
    kept, why = stream.text, (size, text[:end])
    # Its start, less what no one was given: markup held before a tag at the end that no
    # markup will now close, a `[` held before a tag.
    assert _taken_from(kept, text[:end]), why
    again = applied_again(game, kept, turn.thrown)  # each roll the faces it threw, by its tag
    assert again.narration.rstrip() == given.rstrip() == turn.narration.rstrip(), why
    assert again.receipts == turn.receipts, why
    once_more = game.stream(seed=seed)
    once_more.feed(kept)
    stopped_again = once_more.stop()
    assert once_more.text.rstrip() == kept.rstrip(), why
    assert (stopped_again.narration, stopped_again.receipts) == (turn.narration, turn.receipts)


def _taken_from(kept: str, text: str) -> bool:
    """Whether `kept` is `text` with some characters left out."""
    rest = iter(text)
    return all(char in rest for char in kept)


@pytest.mark.parametrize("held", ["**", "["])
def test_a_check_a_stopped_reply_moves_keeps_its_faces_read_again(held: str) -> None:
    """What the client was not given before a check at the end (markup, a `[`) is left out of
    the kept text: the check begins earlier there, and its roll goes with it."""
    game = starting_game(INDEX[REPLY_NAMES[0]])
    text = f'Mira runs. {held}[skill_check: skill="Prowl" dc="1"]'
    for seed in range(12):
        stream = game.stream(seed=seed)
        for at in range(0, len(text), 4):
            stream.feed(text[at : at + 4])
        turn = stream.stop()
        assert stream.text == 'Mira runs. [skill_check: skill="Prowl" dc="1"]'
        again = applied_again(game, stream.text, turn.thrown)
        assert again.receipts == turn.receipts, seed
