"""The transcript is the truth (`gm_tags.chats.plan`), in process: a window that slid past the
opening lands on the same line, a reply the client shows shorter is cut to it, white space at
joins is the client's, and forks keep what the replies did."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.chats.aligned import aligned_walk
from gm_tags.chats.plan import Plan, plan_on, plan_step
from gm_tags.chats.shown import Indexes
from gm_tags.chats.transcript import Said
from gm_tags.history import Chat
from tests.proxy.conftest import RULESET

KEY = "chat-x"


@pytest.fixture(scope="module")
def start() -> Game:
    game = Game.new(load_ruleset(RULESET))
    clocks = " ".join(f'[clock: name="T{n}" size="8"]' for n in (1, 2, 4, 8, 16, 32))
    return game.apply_reply(clocks).game


def plan_filled(game: Game) -> int:
    """The sum of the ticks applied: a tick of n fills clock Tn by one."""
    return sum(int(c.name[1:]) * c.filled for c in game.clocks if c.name.startswith("T"))


def tick(amount: int, prose: str = "Bells") -> str:
    return f'{prose}, {amount}. [clock: name="T{amount}" tick="1"] On.'


def user(text: str) -> Said:
    return Said("user", text)


def assistant(text: str) -> Said:
    return Said("assistant", text)


def shown(chat: Chat) -> list[Said]:
    """The conversation a client shows for a stored line."""
    return [
        user(m.swipe.text) if m.role == "user" else assistant(m.swipe.narration)
        for m in chat.messages
        if m.role != "event"
    ]


def anchored(line: str, chat: Chat, said: Sequence[Said]) -> list[tuple[str, int, int]]:
    """The anchors the store's index would find: every assistant message shown whole."""
    found = []
    for index, one in enumerate(said):
        for position, message in enumerate(chat.messages):
            if message.role == "reply" and "".join(message.swipe.narration.split()) == "".join(
                one.text.split()
            ):
                found.append((line, index, position))
    return found


def planned(chat: Chat, said: Sequence[Said], start: Game, line: str = KEY) -> Plan:
    return plan_step(KEY, [(line, chat)], said, start, anchored(line, chat, said))


def played(start: Game, *amounts: int) -> Chat:
    chat = Chat(start)
    chat, _ = chat.reply("Rain on the skylight. What do you do?")
    for number, amount in enumerate(amounts):
        chat = chat.user(f"We act, {number}.")
        chat, _ = chat.reply(tick(amount, f"Turn {number}"))
    return chat


def test_a_window_that_slid_past_the_greeting_lands_on_the_same_line(start: Game) -> None:
    chat = played(start, 1, 2, 4, 8, 16)
    window = [*shown(chat)[5:], user("And now?")]
    plan = planned(chat, window, start)
    assert (plan.line, plan.new, plan.action) == (KEY, False, "reply")
    assert plan_filled(plan.game) == 31


def test_a_window_whose_old_turns_a_summary_replaced_lands_on_the_same_line(start: Game) -> None:
    chat = played(start, 1, 2, 4, 8)
    window = [user("Summary: they got in."), *shown(chat)[-3:], user("Next.")]
    plan = planned(chat, window, start)
    assert (plan.line, plan.new, plan.action) == (KEY, False, "reply")
    assert plan_filled(plan.game) == 15


def test_a_regenerate_and_a_continue_in_a_slid_window_act_on_the_line(start: Game) -> None:
    chat = played(start, 1, 2, 4)
    regenerate = planned(chat, shown(chat)[3:-1], start)
    assert (regenerate.new, regenerate.action, plan_filled(regenerate.game)) == (
        False,
        "regenerate",
        3,
    )
    more = planned(chat, shown(chat)[3:], start)
    assert (more.new, more.action, plan_filled(more.game)) == (False, "continue", 7)


def test_a_stopped_reply_the_client_kept_less_of_is_cut_to_what_it_shows(start: Game) -> None:
    chat = played(start, 1)
    chat = chat.user("Go.")
    chat, _ = chat.reply(
        'A door. [clock: name="T2" tick="1"] A bell. [clock: name="T4" tick="1"] Dogs.'
    )
    kept = "A door. A bell"  # the client stopped before the second tag closed
    plan = planned(chat, [*shown(chat)[:-1], assistant(kept), user("Run.")], start)
    assert (plan.line, plan.new, plan.action) == (KEY, False, "reply")
    assert plan_filled(plan.game) == 3
    cut = plan.base.messages[-2]  # then the user message the reply answers
    assert (len(cut.swipes), cut.selected, cut.swipe.narration) == (2, 1, kept)


def test_a_cut_reply_further_back_starts_a_line_that_keeps_the_rest(start: Game) -> None:
    chat = played(start, 1)
    chat = chat.user("Go.")
    chat, _ = chat.reply(
        'A door. [clock: name="T2" tick="1"] A bell. [clock: name="T4" tick="1"] Dogs.'
    )
    chat = chat.user("Hide.")
    chat, _ = chat.reply(tick(8))
    said = shown(chat)
    said[4] = assistant("A door.")  # the first tag closes after what the client kept
    plan = planned(chat, [*said, user("Then?")], start)
    assert (plan.line, plan.new) == ("chat-x:2", True)
    assert plan_filled(plan.game) == 1 + 8


def test_white_space_at_a_continue_join_is_the_clients(start: Game) -> None:
    chat = played(start, 1)
    chat, _ = chat.continue_reply('Then the lamp. [clock: name="T2" tick="1"]')
    joined = shown(chat)[-1].text
    assert "On.Then the lamp" in joined
    client = joined.replace("On.Then", "On. Then")
    plan = planned(chat, [*shown(chat)[:-1], assistant(client), user("Next.")], start)
    assert (plan.line, plan.new, plan.action) == (KEY, False, "reply")
    assert plan_filled(plan.game) == 3


def test_a_reply_the_client_shows_respaced_is_stored_as_it_shows_it(start: Game) -> None:
    chat = played(start, 1)
    chat, _ = chat.continue_reply('Then the lamp. [clock: name="T2" tick="1"]')
    at = len(chat.messages) - 1
    stored = chat.messages[at]
    client = stored.swipe.narration.replace("On.Then", "On. Then")
    said = [*shown(chat)[:-1], assistant(client), user("Next.")]
    for plan in (planned(chat, said, start), on_the_fast_path(chat, said, start)):
        assert (plan.line, plan.new, plan.action) == (KEY, False, "reply")
        respaced = plan.base.messages[at]  # then the player's new message
        assert respaced.swipe.narration == client  # the play page's story shows the client's
        # The same reply otherwise: no new swipe or snapshot, the same tags and receipts.
        assert (len(respaced.swipes), respaced.selected) == (len(stored.swipes), stored.selected)
        assert respaced.swipe.game is stored.swipe.game
        assert (respaced.swipe.text, respaced.swipe.reply) == (
            stored.swipe.text,
            stored.swipe.reply,
        )
        assert respaced.swipe.receipts == stored.swipe.receipts
        assert plan.base.messages[:at] == chat.messages[:at]
    # A text the client shows as the raw reply (tags and all) is not a narration to store.
    raw = [*shown(chat)[:-1], assistant(stored.swipe.text), user("Next.")]
    assert planned(chat, raw, start).base.messages[at] is stored


def on_the_fast_path(chat: Chat, said: Sequence[Said], start: Game) -> Plan:
    shown_line = Indexes().of(KEY, chat)
    last_reply = (KEY, len(said) - 2, len(chat.messages) - 1)  # what the store's index finds
    walk = aligned_walk([(KEY, shown_line)], said, [last_reply])
    assert walk is not None
    return plan_on(walk, KEY, [(KEY, chat)], said, start)


def test_editing_the_first_user_message_keeps_what_continued_stopped_and_edited_replies_did(
    start: Game,
) -> None:
    chat = played(start, 1)
    chat, _ = chat.continue_reply(' More. [clock: name="T2" tick="1"]')
    chat = chat.user("Go.")
    chat, _ = chat.reply(
        'A door. [clock: name="T4" tick="1"] A bell. [clock: name="T8" tick="1"] Dogs.'
    )
    chat = chat.user("Hide.")
    chat, _ = chat.reply(tick(16))
    said = shown(chat)
    said[1] = user("We act, but differently.")
    said[2] = assistant(said[2].text.replace("On. More.", "On.  More."))
    said[4] = assistant("A door. A bell")  # kept short: only the first tag closed inside
    said[6] = assistant("Sixteen bells, edited by the player.")
    plan = planned(chat, [*said, user("Then?")], start)
    assert plan.new
    assert plan_filled(plan.game) == 1 + 2 + 4 + 16


@pytest.mark.parametrize("first", [1, 3], ids=["first-exchange", "middle-exchange"])
def test_deleting_an_exchange_takes_away_what_its_reply_did_only(start: Game, first: int) -> None:
    chat = played(start, 1, 2, 4)
    said = shown(chat)
    del said[first : first + 2]
    plan = planned(chat, [*said, user("Then?")], start)
    assert plan.new
    assert plan_filled(plan.game) == 7 - (1 if first == 1 else 2)


@pytest.mark.parametrize(
    ("deleted", "edited", "filled"),
    [((3, 4), 2, 1 + 4), ((2, 3), 4, 2 + 4)],
    ids=["the-exchange-after-it", "the-exchange-before-it"],
)
def test_an_older_reply_edited_beside_a_deletion_keeps_what_it_did(
    start: Game, deleted: tuple[int, int], edited: int, filled: int
) -> None:
    chat = played(start, 1, 2, 4)
    said = shown(chat)
    said[edited] = assistant(said[edited].text.replace(", ", ", the player wrote, "))
    del said[deleted[0] : deleted[1] + 1]
    plan = planned(chat, [*said, user("Then?")], start)
    assert plan.new
    assert plan_filled(plan.game) == filled
