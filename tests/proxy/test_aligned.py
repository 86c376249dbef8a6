"""The proxy's fast path (`gm_tags.chats.aligned`, `gm_tags.chats.further`) places a transcript
exactly where the full walk (`gm_tags.chats.best.best_walk`) does: on varied lines and
transcripts (forks, events, swipes, repeated messages, edits, deletions, slid windows, cut
replies, white space; the store's index missing some finds), whenever the fast path takes a
transcript, its walk and the plan made from it are the full walk's; and it does take the common
ones (a reply, a regenerate, a continue on the line as given out or on a window that slid, a
reply stopped, the last messages deleted, the last line edited, a player's line edited or an
exchange deleted a few back)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm_tags import Game, load_ruleset
from gm_tags.chats.aligned import aligned_walk
from gm_tags.chats.best import best_walk
from gm_tags.chats.further import further_walk
from gm_tags.chats.plan import Plan, plan_on, plan_step
from gm_tags.chats.replies_back import reply_back_walk
from gm_tags.chats.shown import Indexes
from gm_tags.chats.transcript import Said, bare
from gm_tags.chats.walk import Walk
from gm_tags.history import Chat, Message
from gm_tags.history_pages import PAGE
from gm_tags.store import Chats, SqliteStore
from tests.history.test_store_pages import Counting
from tests.proxy.conftest import RULESET

KEY = "chat-x"
# Alike on purpose: the same text told apart by white space, and an edit that keeps most of one.
PLAYERS = ("We wait.", "Mira climbs.", "Continue.", "We  wait. ", "Run!", "We wait here.")
# A new player's line said before, or near it (an edit of one, as a window may begin with).
SAID_AGAIN = (*PLAYERS, "We wait, all of us.")
# Picks below this say one of PLAYERS or REPLIES; from it on, a text of their own.
ALIKE = 10
REPLIES = (
    "The rain falls.",
    'Bells ring. [clock: name="Alarm" tick="1"] On.',
    "Nothing stirs.",
    "The rain falls. More.",
    'Steps. [clock: name="Alarm" tick="2"]',
    "Rain falls.",  # keeps more than half of "The rain falls.": an edit of it
)


@functools.cache
def start() -> Game:
    return Game.new(load_ruleset(RULESET)).apply_reply('[clock: name="Alarm" size="8"]').game


@functools.cache
def built(steps: tuple[tuple[str, int], ...]) -> Chat:
    """A line after `steps` (cached: lines that share their first steps share those values, as
    a fork shares them with the line it left)."""
    if not steps:
        return Chat(start())
    return grown(built(steps[:-1]), steps[-1])


def grown(chat: Chat, step: tuple[str, int]) -> Chat:
    """`chat` after one step: a player's line, a reply, a regenerated reply, another swipe
    chosen, or an event."""
    kind, pick = step
    last = chat.messages[-1] if chat.messages else None
    if kind == "user" or last is None:
        return chat.user(PLAYERS[pick % len(PLAYERS)] if pick < ALIKE else f"We go on, {pick}.")
    if kind == "regenerate" and last.role == "reply":
        return chat.regenerate(told(pick), seed=pick)[0]
    if kind == "select" and last.role == "reply":
        return chat.select(pick % len(last.swipes))
    if kind == "event":
        return chat.record(f"rest {pick}", chat.game)
    return chat.reply(told(pick), seed=pick)[0]


def told(pick: int) -> str:
    """A reply: one of the few alike ones, or (`pick` from `ALIKE` on) one of its own, which
    still shares runs of four characters with the others (a walk may take it for one edited)."""
    return REPLIES[pick % len(REPLIES)] if pick < ALIKE else f"The hour turns, {pick}."


def shown(chat: Chat) -> list[Said]:
    return [
        Said("user", m.swipe.text) if m.role == "user" else Said("assistant", m.swipe.narration)
        for m in chat.messages
        if m.role != "event"
    ]


def anchors(lines: Sequence[tuple[str, Chat]], said: Sequence[Said]) -> list[tuple[str, int, int]]:
    """What the store's index finds: the latest six assistant messages and the first, at every
    reply of a line read with a swipe whose narration shows them."""
    replies = [at for at, one in enumerate(said) if one.role == "assistant"]
    found = []
    for index in dict.fromkeys(reversed([*replies[:1], *replies[-6:]])):
        for line, chat in lines:
            for position, message in enumerate(chat.messages):
                if message.role == "reply" and any(
                    bare(swipe.narration) == bare(said[index].text) for swipe in message.swipes
                ):
                    found.append((line, index, position))
    return found


def fields(walk: Walk | None) -> object:
    if walk is None:
        return None
    return (
        walk.line,
        walk.first,
        walk.at,
        walk.matched,
        walk.end,
        walk.reached,
        walk.edited,
        list(walk.replies),
        walk.departs,
        list(walk.respaced),
    )


def plan_fields(plan: Plan) -> object:
    messages = [
        (m.role, m.selected, [(s.text, s.narration) for s in m.swipes]) for m in plan.base.messages
    ]
    return plan.line, plan.new, plan.action, messages, plan.game.to_document()


def compared(
    lines: list[tuple[str, Chat]], said: list[Said], missed: frozenset[int] = frozenset()
) -> Walk | None:
    """The fast path's walk, after checking it (and its plan) against the full walk's; the
    store's index finds every reply that shows one of the transcript's but those `missed` (by
    their order among the finds: it gives a text a few places at most)."""
    indexes = Indexes()
    found = [one for at, one in enumerate(anchors(lines, said)) if at not in missed]
    shown_lines = [(line, indexes.of(line, chat)) for line, chat in lines]
    fast = (
        aligned_walk(shown_lines, said, found)
        or further_walk(shown_lines, said, found)
        or reply_back_walk(shown_lines, said, found)
    )
    if fast is not None:
        assert fields(fast) == fields(best_walk(lines, said, found))
        full = plan_step(KEY, lines, said, start(), found)
        assert plan_fields(plan_on(fast, KEY, lines, said, start())) == plan_fields(full)
    return fast


def steps_of(
    picks: st.SearchStrategy[int], least: int = 1, most: int = 12
) -> st.SearchStrategy[list[tuple[str, int]]]:
    return st.lists(
        st.tuples(
            st.sampled_from(["user", "reply", "reply", "regenerate", "select", "event"]), picks
        ),
        min_size=least,
        max_size=most,
    )


# Steps of few texts, said again and again; and of texts mostly their own (a line in which an
# edit or a deletion further back can be told).
steps = steps_of(st.integers(0, ALIKE - 1))
steps_apart = steps_of(st.integers(0, 99))
# Lines long enough to hold a reply a few exchanges back.
steps_long = (steps_of(st.integers(0, ALIKE - 1), 8, 24), steps_of(st.integers(0, 99), 8, 24))


CHANGES = (
    *("reply", "reply", "reply", "regenerate", "continue", "new", "edit", "delete", "slide"),
    *("cut", "spaced", "repeat", "repeat", "repeat", "swipe", "swipe", "swipe", "next", "next"),
    *("cut", "cut", "drop", "drop", "reword"),
    *("edit back", "delete back", "reply back", "last edited", "answered back", "replies back"),
)
# An edit or a deletion further back than the last exchange.
BACK = ("edit back", "delete back")
# A reply further back than the last exchange cut, swiped, shown raw or edited.
REPLY_BACK = ("reply back", "answered back")
# Two or three of the last six replies shown otherwise at once.
REPLIES_BACK = ("replies back",)
# The line's last reply edited by the player (or shown otherwise), then a new line or more.
LAST_EDITED = ("last edited",)


@st.composite
def cases(
    draw: st.DrawFn, changes: Sequence[str] = CHANGES
) -> tuple[list[tuple[str, Chat]], list[Said]]:
    change = draw(st.sampled_from(changes))
    drawn = steps_apart if change.endswith("back") and draw(st.booleans()) else steps
    if change in ("reply back", "last edited", "answered back", "replies back"):
        drawn = steps_long[draw(st.booleans())]
    base = tuple(draw(drawn))
    if change == "swipe":
        base += (("reply", 0), ("regenerate", draw(st.integers(0, 9))))  # a reply of 2 swipes
    if change in ("last edited", "answered back", "replies back"):
        # The line ends with a reply (two exchanges, for the one before the last), mostly of
        # texts of its own, the reply of one or two swipes.
        base += tuple(draw(steps_of(st.integers(0, 99), 1, 2)))
        for _ in range(1 + (change == "answered back")):
            base += (("user", draw(st.integers(0, 99))), ("reply", draw(st.integers(0, 99))))
            base += tuple(
                draw(st.lists(st.tuples(st.just("regenerate"), st.integers(0, 99)), max_size=1))
            )
        base += tuple(
            draw(st.lists(st.tuples(st.just("regenerate"), st.integers(0, 99)), max_size=1))
        )
    chats = [built(base)]
    for _ in range(draw(st.integers(0, 1 if change == "swipe" else 2))):
        # A fork: a line that shares the start of an earlier one and goes on its own way.
        shared = draw(st.integers(0, len(base)))
        chats.append(built(base[:shared] + tuple(draw(drawn))))
    if change == "next":
        # A line that stops where the first one goes on (the player deleted the rest there),
        # whose player says again what came next: mostly at a reply the first one answered.
        answered = [
            at
            for at in range(1, len(base))
            if base[at][0] == "user" and built(base[:at]).messages[-1].role == "reply"
        ]
        chats.append(built(base[: draw(st.sampled_from(answered or [len(base)]))]))
    lines = [(KEY if n == 0 else f"{KEY}:{n + 1}", chat) for n, chat in enumerate(chats)]
    first_line = {"swipe", "last edited", "answered back", "replies back"}
    chosen = chats[-1] if change == "next" else chats[0] if change in first_line else None
    chosen = chosen or draw(st.sampled_from(chats))
    said = shown(chosen)
    last = chosen.messages[-1] if chosen.messages else None
    if change == "swipe" and last is not None and last.role == "reply":
        # The client swiped back to another swipe of the last reply (maybe spaced its own way),
        # then went on with a line of its own, one said before, or a continue.
        other = last.swipes[draw(st.integers(0, len(last.swipes) - 1))]
        said[-1] = Said(
            "assistant", draw(st.sampled_from([other.narration, f" {other.narration}"]))
        )
        change = draw(st.sampled_from(["reply", "repeat", "continue"]))
    if change == "next":
        # The player says what another line holds next (a line that went on from here).
        held = [shown(chat) for _, chat in lines]
        ahead = [
            one[len(said)] for one in held if len(one) > len(said) and one[: len(said)] == said
        ]
        said.append(draw(st.sampled_from([*ahead, Said("user", "A new line.")])))
    if change in ("reply", "new", "edit", "delete", "slide", "spaced", "repeat") or not said:
        # Said again: a line of the players' own, or one some line read holds.
        again = [
            *SAID_AGAIN,
            *(m.swipe.text for _, c in lines for m in c.messages if m.role == "user"),
        ]
        said.append(
            Said("user", "A new line." if change != "repeat" else draw(st.sampled_from(again)))
        )
    if change == "regenerate" and said and said[-1].role == "assistant":
        said.pop()
    if change == "drop":
        # The client deleted its last messages, then asked for more or wrote a line.
        del said[len(said) - draw(st.integers(0, min(4, len(said)))) :]
        said += draw(st.sampled_from([[], [Said("user", "A new line.")]]))
    if change == "reword" and said:
        # The player edited their last line (and asked for the reply to it again).
        users = [at for at, one in enumerate(said) if one.role == "user"]
        last = users[-1] if users else len(said) - 1
        said[last:] = [Said("user", draw(st.sampled_from([f"{said[last].text} Now.", "Go!"])))]
    if change in ("reply back", "replies back"):
        # The client shows a reply a few messages back another way: cut short (a stream
        # stopped, or the player trimmed it), as another of its swipes or its raw text, or
        # edited by the player; or two or three of the last six replies at once. Then the
        # player wrote a new line, or asked for the last reply again or for more.
        single = change == "reply back"  # one of the five before the last
        replies = [n for n, one in enumerate(said) if one.role == "assistant"]
        replies = replies[-6:-1] if single else replies[-6:]
        many = 1 if single else min(2, len(replies))
        most = many if single else 3
        picked = draw(st.lists(st.sampled_from(replies or [0]), min_size=many, max_size=most))
        for at in set(picked) if replies else ():
            said[at] = Said("assistant", draw(told_otherwise(chosen, said[at].text, at)))
        then_asked(draw, said)
    if change == "last edited":
        # The player edited the GM's last message (or the client shows it another way), then
        # wrote a new line or asked for more.
        replies = [n for n, one in enumerate(said) if one.role == "assistant"][-1:]
        if replies:
            at = replies[0]
            said[at] = Said("assistant", draw(told_otherwise(chosen, said[at].text, at)))
        said += draw(st.sampled_from([[Said("user", "A new line.")], []]))
    if change == "answered back" and len(said) > 3 and said[-3].role == "assistant":
        # The client shows the reply the player's last line answers another way (cut, another
        # swipe, its raw text, edited), and asks for the last reply again (a regenerate).
        said[-3] = Said("assistant", draw(told_otherwise(chosen, said[-3].text, len(said) - 3)))
        said.pop()
    if change in ("edit back", "delete back") and said:
        # The player edited one of their lines a few messages back (to a line of their own, or
        # one a line read holds), or the client deleted a message or two there; then the player
        # wrote a new line, or asked for the last reply again or for more.
        back = len(said) - draw(st.integers(1, min(10, len(said))))
        users = [n for n in range(back, len(said)) if said[n].role == "user"]
        if change == "edit back" and users:
            edited = draw(st.sampled_from(users))
            text = draw(st.sampled_from([f"{said[edited].text} Now.", *SAID_AGAIN]))
            said[edited] = Said("user", text)
        else:
            del said[back : back + draw(st.integers(1, 2))]
        then_asked(draw, said)
    at = draw(st.integers(0, max(0, len(said) - 2)))
    if change == "edit" and said:
        said[at] = Said(said[at].role, said[at].text + " (edited)")
    elif change == "delete" and len(said) > 1:
        del said[at]
    elif change == "slide":
        said = said[at:]
    elif change == "cut":
        # The client stopped the last reply, then the player wrote on or asked it to go on.
        replies = [n for n, one in enumerate(said) if one.role == "assistant"]
        if replies:
            text = said[replies[-1]].text
            kept = draw(st.sampled_from([6, max(1, len(text) // 2), max(1, len(text) - 1)]))
            said[replies[-1]] = Said("assistant", text[:kept])
        said += draw(st.sampled_from([[Said("user", "A new line.")], []]))
    elif change == "spaced":
        said[at] = Said(said[at].role, f"  {said[at].text}\n")
    if change != "slide" and draw(st.booleans()):
        # The client's context window slid: its oldest messages dropped, whatever else it did.
        said = said[draw(st.integers(0, max(0, len(said) - 1))) :]
    return lines, said


def then_asked(draw: st.DrawFn, said: list[Said]) -> None:
    """The player writes a new line, or asks for the last reply again, or for more."""
    then = draw(st.sampled_from(["new", "regenerate", "continue"]))
    if then == "new":
        said.append(Said("user", "A new line."))
    elif then == "regenerate" and said and said[-1].role == "assistant":
        said.pop()


def told_otherwise(chat: Chat, text: str, at: int) -> st.SearchStrategy[str]:
    """Another way to show the reply `text`, the `at`-th message `chat` shows: cut short, as
    another of its swipes or its raw text, or edited (keeping all of it, half, or little)."""
    message = [m for m in chat.messages if m.role != "event"][at]
    half = max(1, len(text) // 2)
    return st.sampled_from(
        [
            text[:3],
            text[:half],
            text[:-1],
            *(swipe.narration for swipe in message.swipes),
            *(f" {swipe.narration}\n" for swipe in message.swipes),  # white space of its own
            message.swipe.text,
            f"{text} Quietly.",
            f"{text[:half]} and the wind.",
            f"Quietly, {text[half:]}",
            "Something else entirely.",
            *REPLIES,
        ]
    )


@settings(max_examples=300, deadline=None, derandomize=True)
@given(cases(), st.frozensets(st.integers(0, 12), max_size=4))
def test_the_fast_path_places_a_transcript_where_the_full_walk_does(
    case: tuple[list[tuple[str, Chat]], list[Said]], missed: frozenset[int]
) -> None:
    compared(*case, missed)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(cases(BACK), st.frozensets(st.integers(0, 12), max_size=4))
def test_an_edit_or_a_deletion_further_back_is_placed_where_the_full_walk_does(
    case: tuple[list[tuple[str, Chat]], list[Said]], missed: frozenset[int]
) -> None:
    compared(*case, missed)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(cases(REPLY_BACK), st.frozensets(st.integers(0, 12), max_size=4))
def test_a_reply_further_back_shown_otherwise_is_placed_where_the_full_walk_does(
    case: tuple[list[tuple[str, Chat]], list[Said]], missed: frozenset[int]
) -> None:
    compared(*case, missed)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(cases(LAST_EDITED), st.frozensets(st.integers(0, 12), max_size=4))
def test_the_last_reply_edited_is_placed_where_the_full_walk_does(
    case: tuple[list[tuple[str, Chat]], list[Said]], missed: frozenset[int]
) -> None:
    compared(*case, missed)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(cases(REPLIES_BACK), st.frozensets(st.integers(0, 12), max_size=4))
def test_replies_shown_otherwise_at_once_are_placed_where_the_full_walk_does(
    case: tuple[list[tuple[str, Chat]], list[Said]], missed: frozenset[int]
) -> None:
    compared(*case, missed)


@pytest.fixture(scope="module")
def line() -> Chat:
    return built(
        (
            ("user", 0),
            ("reply", 0),
            ("event", 0),
            ("user", 1),
            ("reply", 1),
            ("regenerate", 2),
            ("user", 4),
            ("reply", 3),
        )
    )


def test_a_reply_a_regenerate_and_a_continue_take_the_fast_path(line: Chat) -> None:
    lines = [(KEY, line)]
    reply = compared(lines, [*shown(line), Said("user", "A new line.")])
    regenerate = compared(lines, shown(line)[:-1])
    continued = compared(lines, shown(line))
    spaced = compared(lines, [Said(one.role, f" {one.text} ") for one in shown(line)])
    assert reply is not None and reply.matched == len(shown(line))
    assert regenerate is not None and continued is not None and spaced is not None


def test_a_players_line_said_before_takes_the_fast_path(line: Chat) -> None:
    # Said before, but never right after a reply that shows the last one: no walk goes further.
    for again in ("We wait.", "Run!", "  Mira   climbs."):
        found = compared([(KEY, line)], [*shown(line), Said("user", again)])
        assert found is not None and found.matched == len(shown(line))


def test_a_window_that_slid_takes_the_fast_path(line: Chat) -> None:
    # The client dropped its oldest messages: the window begins at a reply or at a user
    # message (after an event), and goes on with a new line, a regenerate or a continue.
    lines, said = [(KEY, line)], shown(line)
    for begins in range(1, len(said)):
        reply = compared(lines, [*said[begins:], Said("user", "A new line.")])
        assert reply is not None and reply.at == reply.begins > 0
        assert reply.matched == len(said) - begins and reply.to_the_end
    regenerate = compared(lines, said[2:-1])
    continued = compared(lines, said[3:])
    assert regenerate is not None and regenerate.matched == len(said) - 3
    assert continued is not None and continued.to_the_end
    swiped = grown(line, ("regenerate", 2))
    back = [*shown(swiped)[2:-1], Said("assistant", "The rain falls. More."), Said("user", "On.")]
    found = compared([(KEY, swiped)], back)
    assert found is not None and found.replies[-1].swipe == 0


def test_the_last_messages_deleted_or_the_last_line_edited_take_the_fast_path(line: Chat) -> None:
    # The client deleted the last exchange, then wrote a new line or asked for more; or edited
    # its last line ("Run!") and asked for the reply again; from the start or in a window.
    lines, said = [(KEY, line)], shown(line)
    for window in (said[:-2], said[2:-2]):
        for sent in (window, [*window, Said("user", "New.")]):
            found = compared(lines, sent)
            assert found is not None and found.matched == len(window)
            assert not found.to_the_end and found.reached == len(line.messages) - 2
        edited = compared(lines, [*window, Said("user", "Run, now!")])
        assert edited is not None and edited.matched == len(window)
    # A line started later holds the line and another line of the player's after it: it wins.
    later = grown(line, ("user", 2))
    found = compared([(KEY, line), (f"{KEY}:2", later)], [*said, Said("user", "New.")])
    assert found is not None and found.line == f"{KEY}:2"


def test_a_last_reply_the_client_stopped_takes_the_fast_path(line: Chat) -> None:
    # The client kept "The r" of "The rain falls. More.": a new line after it, or a continue.
    said = [*shown(line)[:-1], Said("assistant", "The r")]
    for window in (said, said[2:]):
        for sent in (window, [*window, Said("user", "A new line.")]):
            found = compared([(KEY, line)], sent)
            assert found is not None and found.replies[-1].cut
    plan = plan_on(found, KEY, [(KEY, line)], sent, start())
    assert plan.action == "reply" and plan.base.messages[-2].swipe.narration == "The r"


# Six exchanges, each told apart.
TOLD_APART = tuple(
    step for turn in range(ALIKE, ALIKE + 6) for step in (("user", turn), ("reply", turn))
)


def exchanges_told_apart(regenerated: int, pick: int) -> Chat:
    """`TOLD_APART`, the reply before step `regenerated` regenerated (`pick`: a second swipe,
    chosen)."""
    return built((*TOLD_APART[:regenerated], ("regenerate", pick), *TOLD_APART[regenerated:]))


def shown_otherwise(message: Message, text: str) -> dict[str, str]:
    """A reply the client shows as `text` shown another way: cut short, as its first swipe, as
    its raw text (tags and all), or edited by the player."""
    return {
        "cut": text[:6],
        "swiped": message.swipes[0].narration,
        "raw": message.swipe.text,
        "edited": f"Quietly, {text}",
    }


def test_an_edit_or_a_deletion_further_back_takes_the_fast_path() -> None:
    # Six exchanges, each told apart. The player edited their line three exchanges back (the
    # replies after it stand: the line goes on), or the client deleted the exchange there, or
    # its reply (a new line starts before it); then a new line, or a continue; from the line's
    # start, or in a window that slid.
    apart = built(TOLD_APART)
    lines, said = [(KEY, apart)], shown(apart)
    edited = [*said[:-6], Said("user", "We go on, quietly."), *said[-5:]]
    for gone in (slice(-6, -4), slice(-5, -4)):
        kept = list(said)
        del kept[gone]
        for window in (edited, edited[3:], kept, kept[3:]):
            for sent in (window, [*window, Said("user", "A new line.")]):
                found = compared(lines, sent)
                assert found is not None
                if window[-6].text == "We go on, quietly.":
                    assert found.first == len(window) - 5 and found.to_the_end
                else:
                    assert found.first == 0 and found.end == len(said) + gone.start
    # Left to the full walk: an edit to a line said before (a walk may pass it there), or a
    # deletion of the player's line between two replies (two replies are not told).
    again = [*said[:-6], said[0], *said[-5:], Said("user", "A new line.")]
    assert compared(lines, again) is None
    assert compared(lines, [*said[:-6], *said[-5:], Said("user", "A new line.")]) is None


def test_a_reply_further_back_cut_swiped_or_edited_takes_the_fast_path() -> None:
    # Six exchanges, each told apart, the reply three exchanges back regenerated (two swipes,
    # the second chosen). The client shows that reply cut short, as its first swipe, as its raw
    # text (tags and all), or edited by the player; then a new line, a continue or a
    # regenerate; from the line's start, or in a window that slid.
    apart = exchanges_told_apart(8, ALIKE + 40)
    lines, said = [(KEY, apart)], shown(apart)
    shown_as = shown_otherwise(apart.messages[-5], said[-5].text)
    for how, text in shown_as.items():
        told = [*said[:-5], Said("assistant", text), *said[-4:]]
        for window in (told, told[3:]):
            for sent in (window, window[:-1], [*window, Said("user", "A new line.")]):
                found = compared(lines, sent)
                assert found is not None, (how, len(sent))
                assert found.first == 0 and found.edited == (how == "edited")
                departs = found.departs
                assert (departs is not None) == (how in ("cut", "swiped"))
                assert departs is None or departs.position == len(apart.messages) - 5
    # An edit the player made is told apart from the reply it keeps so little of only where
    # the line does not hold it, right after the player's line before it, as shown.
    again = built((("user", 0), ("reply", 0), ("user", 0), ("reply", 5), *TOLD_APART))
    said = shown(again)  # "We wait." "The rain falls." "We wait." "Rain falls." ...
    edited = [*said[:3], Said("assistant", "The rain falls."), *said[4:], Said("user", "New.")]
    assert compared([(KEY, again)], edited) is None


def test_the_reply_a_regenerated_line_answers_shown_otherwise_takes_the_fast_path() -> None:
    # Six exchanges, each told apart, the reply before the last exchange regenerated (two
    # swipes, the second chosen). The client shows that reply cut, as its first swipe or its
    # raw text, or edited, and asks for the last reply again (a regenerate of the player's last
    # line); from the line's start, or in a window that slid.
    apart = exchanges_told_apart(10, 1)
    lines, said = [(KEY, apart)], shown(apart)
    message = apart.messages[-3]
    shown_as = shown_otherwise(message, said[-3].text)
    shown_as["edited, most like the other swipe"] = f"{message.swipes[0].narration} Quietly."
    for how, text in shown_as.items():
        told = [*said[:-3], Said("assistant", text), said[-2]]
        for window in (told, told[3:]):
            found = compared(lines, window)
            assert found is not None, (how, len(window))
            assert found.edited == how.startswith("edited")
            plan = plan_on(found, KEY, lines, window, start())
            assert plan.action == "regenerate" and plan.new == (how not in ("raw", "edited"))


def test_replies_shown_otherwise_at_once_take_the_fast_path() -> None:
    # Six exchanges, each told apart, the reply three exchanges back regenerated. The client
    # shows two or three of the last replies otherwise at once (cut, as another swipe, raw,
    # edited; the last one edited), then a new line, a continue or a regenerate.
    apart = exchanges_told_apart(8, ALIKE + 40)
    lines, said = [(KEY, apart)], shown(apart)
    three_back = shown_otherwise(apart.messages[-5], said[-5].text)
    two_back = shown_otherwise(apart.messages[-3], said[-3].text)
    for first, then in (("cut", "edited"), ("edited", "edited"), ("swiped", "raw"), ("raw", "cut")):
        told = [*said[:-5], Said("assistant", three_back[first]), said[-4]]
        told += [Said("assistant", two_back[then]), *said[-2:]]
        last_edited = [*told[:-1], Said("assistant", f"Quietly, {said[-1].text}")]
        for sent in (told, told[:-1], [*told, Said("user", "A new line.")], last_edited):
            found = compared(lines, sent)
            assert found is not None, (first, then, len(sent))
            edits = [first, then].count("edited") + (sent is last_edited)
            assert found.first == 0 and found.edited == edits
            # The first reply shown cut or as another swipe departs: a new line starts there.
            departs = found.departs
            where = None if departs is None else departs.position - len(apart.messages)
            assert where == ({"cut": -5, "swiped": -5}.get(first) or {"cut": -3}.get(then))


def test_the_last_reply_edited_takes_the_fast_path() -> None:
    # Six exchanges, each told apart, the last reply regenerated (two swipes, the second
    # chosen). The player edits the GM's last message (its chosen swipe, or the one it swiped
    # back to: the edit is most like it), then writes a new line or asks for more; from the
    # line's start, or in a window that slid. The edit stands: the line goes on, the swipe it
    # is most like chosen.
    apart = exchanges_told_apart(12, 1)  # the last reply "The hour turns, 15.", "Bells ring. On."
    lines, said = [(KEY, apart)], shown(apart)
    last = apart.messages[-1]
    for swipe, text in ((1, said[-1].text), (0, last.swipes[0].narration)):
        half = len(text) // 2
        for edit in (f"{text} Quietly.", f"Quietly, {text}", f"{text[:half]} and the wind."):
            told = [*said[:-1], Said("assistant", edit)]
            for window in (told, told[3:]):
                for sent in (window, [*window, Said("user", "A new line.")]):
                    found = compared(lines, sent)
                    assert found is not None, (edit, len(sent))
                    assert found.edited == 1 and found.to_the_end and found.departs is None
                    assert found.replies[-1].swipe == swipe
                    plan = plan_on(found, KEY, lines, sent, start())
                    assert (
                        not plan.new
                        and plan.base.messages[len(apart.messages) - 1].selected == swipe
                    )
    # Left to the full walk: an edit of the last reply to a text the line shows right after
    # the same player's line ("The rain falls. Mo", cut), where a walk with no edit may match it.
    again = built((("user", 40), ("reply", 3), *TOLD_APART, ("user", 40), ("reply", 0)))
    said = shown(again)
    edited = [*said[:-1], Said("assistant", "The rain falls. Mo"), Said("user", "A new line.")]
    assert compared([(KEY, again)], edited) is None
    assert best_walk([(KEY, again)], edited, anchors([(KEY, again)], edited)) is not None


def test_a_line_that_holds_none_of_the_replies_does_not_take_the_new_line() -> None:
    # Another line holds the new line right after a reply the last one keeps most of, and none
    # of the transcript's replies: the request stays on the line it plays (no walk begins at
    # its last message on a line the store's index found none of its replies on).
    played = built((("user", 0), ("reply", 5)))  # "We wait." "Rain falls."
    other = built((("user", 1), ("reply", 0), ("user", 4)))  # ... "The rain falls." "Run!"
    found = compared([(KEY, played), (f"{KEY}:2", other)], [*shown(played), Said("user", "Run!")])
    assert found is not None and found.line == KEY and found.matched == 2


def test_the_last_reply_shown_as_another_swipe_takes_the_fast_path(line: Chat) -> None:
    swiped = grown(line, ("regenerate", 2))  # the last reply: "The rain falls. More." and another
    said = shown(swiped)
    said[-1] = Said("assistant", "The rain falls. More.")
    found = compared([(KEY, swiped)], [*said, Said("user", "A new line.")])
    assert found is not None and found.replies[-1].swipe == 0
    plan = plan_on(found, KEY, [(KEY, swiped)], [*said, Said("user", "A new line.")], start())
    assert plan.action == "reply" and plan.base.messages[-1].selected == 0


def test_what_the_fast_path_cannot_tell_is_left_to_the_walk(line: Chat) -> None:
    # The new line was said right after a reply that shows the last one (whole, or cut short
    # where the client cut it): a walk from that reply matches it too.
    again = grown(grown(line, ("user", 1)), ("reply", 0))  # ... "Mira climbs." "The rain falls."
    assert compared([(KEY, again)], [*shown(again), Said("user", "Mira climbs.")]) is None
    cut = grown(grown(line, ("user", 5)), ("reply", 0))  # "The rain falls. More." "We wait here."
    assert compared([(KEY, cut)], [*shown(cut), Said("user", "We wait here.")]) is None
    # A regenerate of a window that the line shows earlier too: the earliest place wins.
    twice = built((("user", 0), ("reply", 0), ("user", 0), ("reply", 0), ("user", 0), ("reply", 2)))
    assert compared([(KEY, twice)], shown(twice)[3:-1]) is None
    # An edit of the window's first reply (a walk may take the player's line before it as
    # edited). The reply before the last user message cut, and that message's reply asked for
    # again, is placed (it was left to the walk before issue #29's last edits).
    said = shown(line)
    edited = [said[0], Said("assistant", "Edited."), *said[2:], Said("user", "New.")]
    assert compared([(KEY, line)], edited) is None
    cut = [*said[:3], Said("assistant", said[3].text[:5]), *said[4:-1]]
    assert compared([(KEY, line)], cut) is not None


def test_a_line_read_from_the_store_is_indexed_without_reading_its_pages(tmp_path: Path) -> None:
    # A process that did not write the line (a restart, another worker) indexes it from one
    # read of what its messages show, and places the next request as on the line in memory.
    played = Chat(start())
    for turn in range(2 * PAGE):  # more than a page of messages before the last one
        played = played.user(f"Turn {turn}.").reply(f"Hour {turn} passes.", seed=turn)[0]
    store = SqliteStore(tmp_path / "chats.db")
    Chats(store).put(KEY, {"path": str(RULESET)}, played, replace=False)
    counting = Counting(store)
    opened = Chats(counting).open(KEY)
    index, in_memory = Indexes().of(KEY, opened), Indexes().of(KEY, played)
    assert counting.spans == []  # no page of the line's messages read
    assert (index.positions, index.roles, index.texts, index.users) == (
        in_memory.positions,
        in_memory.roles,
        in_memory.texts,
        in_memory.users,
    )
    said = [*shown(played), Said("user", "A new line.")]
    found = compared([(KEY, opened)], said)
    assert found is not None and fields(found) == fields(compared([(KEY, played)], said))
    store.close()
