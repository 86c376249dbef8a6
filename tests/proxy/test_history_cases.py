"""Histories the state machine of `test_history_model` found where the game the proxy kept was
not the one the visible chat implies, each replayed step by step as a plain test; and a reply
further back edited or cut, placed without the full walk. Each step checks, as the machine
does, that the reminder the upstream received shows the game the visible history implies."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

import gm_tags.proxy.chats
from tests.proxy.test_history_model import ProxyHistory, proxied


@pytest.fixture
def chat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ProxyHistory]:
    """A chat opened as SillyTavern opens one: a greeting, the player's message, a reply."""
    with proxied(tmp_path, monkeypatch):
        ProxyHistory.examples = 0  # the same words whichever tests ran before
        machine = ProxyHistory()
        machine.open_the_chat()
        yield machine


def test_a_stopped_reply_continued_after_its_user_message_was_edited_keeps_its_tick(
    chat: ProxyHistory,
) -> None:
    chat.delete_at(1)  # the player's first message
    chat.send([("A", -1)])
    chat.edit_at(2)  # the player's message the new reply answers
    chat.slide(2)
    chat.stop_at(15)  # the tick closed before what the client kept
    chat.continue_last([])


def test_an_older_swipe_chosen_and_edited_with_no_request_between_keeps_its_own_effect(
    chat: ProxyHistory,
) -> None:
    chat.regenerate([("A", -1)])
    chat.swipe_to(0)  # back to the first reply, with no tick: SillyTavern asks nothing
    chat.edit_at(2)  # the player edits it
    chat.continue_last([])


def test_a_reply_deleted_between_two_user_messages_after_one_was_edited_is_gone(
    chat: ProxyHistory,
) -> None:
    chat.continue_last([("A", -1)])
    chat.edit_at(1)  # the player's first message
    chat.send([])
    chat.slide(2)
    chat.delete_at(2)  # the continued reply, with its tick
    chat.continue_last([])


def test_the_exchange_after_the_greeting_deleted_in_a_long_chat_takes_its_tick_away(
    chat: ProxyHistory,
) -> None:
    chat.delete_at(1)
    chat.delete_at(1)  # only the greeting is left
    chat.send([("A", -1)])
    for _ in range(6):
        chat.send([])
    # The exchange with the tick, deleted: more replies follow than the six latest the proxy
    # looks up, and the greeting is what tells it that the line had an exchange after it.
    chat.delete_at(1)
    chat.delete_at(1)
    chat.send([])


def test_a_continued_swipe_chosen_again_and_edited_keeps_its_own_effect(
    chat: ProxyHistory,
) -> None:
    chat.delete_at(2)  # the first reply
    chat.send([])  # a reply to the player's message again
    chat.continue_last([])  # stored joined with no space: the words run together
    chat.regenerate([("A", -1)])
    chat.swipe_to(0)  # back to the continued reply, with no request
    chat.edit_at(2)
    chat.continue_last([])


def test_a_reply_cut_to_a_few_letters_is_not_taken_for_an_edit_of_another(
    chat: ProxyHistory,
) -> None:
    """A message that keeps nothing of the reply at its place (here the first three letters of
    a reply regenerated, after the exchange before it was deleted) is not that reply edited."""
    chat.send([("A", -1), ("D", 1), ("C", -1)])
    chat.delete_at(1)
    chat.delete_at(2)
    chat.slide(3)
    chat.send([("C", 1), ("C", -1), ("D", -1)])
    chat.send([("C", 1), ("D", -1), ("B", 1)])
    chat.send([("D", -1), ("D", 1), ("C", -1)])
    chat.slide(4)
    chat.stop_at(2)
    chat.delete_at(6)
    chat.regenerate([])
    chat.slide(4)
    chat.stop_at(3)
    chat.delete_at(6)
    chat.edit_at(1)
    chat.slide(2)
    chat.slide(0)
    chat.edit_at(4)
    chat.send([])


def test_after_a_fork_the_newest_line_decides_over_an_older_one_matched_to_its_end(
    chat: ProxyHistory,
) -> None:
    """The window shows a reply both lines hold; the older line ends there and still holds
    a continued reply the player deleted, which the newer line left out."""
    chat.edit_at(2)
    chat.continue_last([("A", -1), ("B", 1), ("C", -1)])
    chat.slide(4)
    chat.delete_at(1)
    chat.slide(3)
    chat.send([("C", 1), ("D", -1)])
    chat.regenerate([("B", 1), ("B", 1)])
    chat.edit_at(3)
    chat.regenerate([("D", -1), ("C", -1), ("C", -1)])
    chat.regenerate([("D", -1)])
    chat.continue_last([])
    chat.delete_at(1)  # the continued reply with its three ticks
    chat.send([])
    chat.delete_at(3)
    chat.send([("B", 1)])


def test_a_swipe_edited_before_an_earlier_reply_was_deleted_can_be_chosen_again(
    chat: ProxyHistory,
) -> None:
    """The client keeps every swipe of a reply when the player deletes a message before it; the
    new line keeps them too (applied again without the deleted reply's tick), so an edited
    swipe chosen again is still the stored reply."""
    chat.send([("A", 1)])
    chat.send([])
    chat.regenerate([("B", 1)])
    chat.edit_at(6)  # the swipe with the tick
    chat.regenerate([])
    chat.delete_at(4)  # the reply with the tick on A
    chat.continue_last([])  # a new line without it
    chat.swipe_to(1)  # the edited swipe, with its tick
    chat.continue_last([])


def test_a_reply_asked_for_again_after_its_user_message_was_edited_keeps_its_swipes(
    chat: ProxyHistory,
) -> None:
    """A regenerate after an edited user message is a new swipe of the reply that answered it,
    which keeps the swipes the client can swipe back to."""
    chat.regenerate([("B", 1)])
    chat.edit_at(2)  # the swipe with the tick
    chat.edit_at(1)  # the player's message
    chat.regenerate([])  # a new line, and a new swipe of the reply
    chat.swipe_to(1)  # the edited swipe, with its tick
    chat.continue_last([])


def test_a_window_that_begins_with_an_edited_message_keeps_the_game_before_it(
    chat: ProxyHistory,
) -> None:
    """The window's first message is a user message the player edited, and the reply after it
    was deleted: the story before the window stands, the deleted reply's ticks are gone."""
    chat.send([("C", 1), ("A", 1)])
    chat.send([("B", -1), ("A", -1), ("C", 1)])
    chat.delete_at(4)
    chat.slide(3)
    chat.send([("D", 1), ("D", 1), ("D", 1)])
    chat.send([("B", 1), ("D", 1)])
    chat.edit_at(6)  # the first message the next window shows
    chat.delete_at(7)  # the reply to it, with three ticks
    chat.send([("C", -1), ("A", 1), ("A", -1)])


def test_a_window_that_begins_with_an_edit_of_one_of_many_alike_messages_lands_where_it_was(
    chat: ProxyHistory,
) -> None:
    """The player's messages are alike (`We act, 1.4.`): the one the window's edited first
    message stands for is the one it keeps most of, before where the window's reply is held."""
    chat.send([])
    chat.send([])
    chat.delete_at(4)
    chat.delete_at(3)
    chat.send([("D", -1), ("D", -1)])
    chat.delete_at(2)
    chat.delete_at(1)
    chat.edit_at(1)
    chat.slide(2)
    chat.send([("D", -1)])
    chat.edit_at(5)  # the first message of the next window
    chat.continue_last([])


def test_a_reply_the_gm_spoke_again_counts_its_tags_as_a_message_of_its_own(
    chat: ProxyHistory,
) -> None:
    """SillyTavern's send with an empty box is stored as a continue of the last reply; the
    client shows the two as two messages, which together are the stored reply."""
    chat.send([("B", 1)])
    chat.speak_again([("A", 1), ("C", -1)])  # stored joined onto the reply with the tick on B
    chat.send([])
    chat.speak_again([("D", 1)])
    chat.continue_last([])  # the second message continued


def test_a_window_that_begins_with_an_edited_reply_loses_a_reply_deleted_after_it(
    chat: ProxyHistory,
) -> None:
    """The window's first message is a reply the player edited; the reply after it was deleted
    (two replies stood together, the user message between them deleted before): the edited reply
    is found where it stood, so the deletion after it is seen."""
    chat.delete_at(1)
    chat.send([("A", 1), ("A", -1), ("D", -1)])
    chat.delete_at(2)
    chat.slide(2)
    chat.send([("C", 1), ("C", 1), ("B", 1)])
    chat.delete_at(2)  # the reply with the tick on D
    chat.edit_at(1)  # the first message the next window shows
    chat.send([])


def test_an_edited_reply_is_not_taken_for_another_that_shares_a_few_letters_with_it(
    chat: ProxyHistory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every reply's words begin alike (`Wdead...`), as unrelated replies share runs of four
    characters by chance: an edited reply (it keeps all of its own) is not taken for an edit
    of the one that stood at its place on another line, which it keeps a few runs of."""

    def alike(machine: ProxyHistory, at: int) -> str:
        said = f"{machine.example}/{machine.words}/{at}".encode()
        return "Wdead" + hashlib.sha256(said).hexdigest()[:12]

    monkeypatch.setattr(ProxyHistory, "word", alike)
    chat.regenerate([("B", 1), ("B", 1), ("D", 1)])
    chat.delete_at(1)
    chat.send([])
    chat.delete_at(1)
    chat.delete_at(1)
    chat.send([("B", -1), ("A", 1)])
    chat.slide(2)
    chat.edit_at(3)
    chat.continue_last([("B", 1)])
    chat.send([("D", -1), ("B", 1), ("C", 1)])
    chat.delete_at(1)
    chat.edit_at(1)
    chat.delete_at(1)
    chat.edit_at(1)  # the reply at the place the first one stood at on another line
    chat.send([("D", 1)])


def test_an_older_swipe_edited_after_deletions_before_its_message_keeps_its_own_effect(
    chat: ProxyHistory,
) -> None:
    chat.send([("C", 1)])
    chat.regenerate([])
    chat.delete_at(3)  # the player's message the reply answered
    chat.delete_at(2)  # the reply before it: the request asks for a reply to the first message
    chat.regenerate([])  # the client's; the proxy cannot tell it from a new reply there
    chat.swipe_to(0)  # back to the reply with the tick, with no request
    chat.edit_at(2)  # the player edits it: the edit keeps all of it, stored on the older line
    chat.send([])


def test_an_older_swipe_edited_after_the_message_before_it_was_deleted_keeps_its_effect(
    chat: ProxyHistory,
) -> None:
    chat.send([("C", 1)])
    chat.regenerate([])
    chat.delete_at(2)  # the first reply: the line is greeting, message, message, reply
    chat.regenerate([])
    chat.delete_at(2)  # the player's second message: the reply follows the first one
    chat.edit_at(1)
    chat.regenerate([])
    chat.swipe_to(0)
    chat.edit_at(2)
    chat.send([])


def test_a_slid_window_is_not_placed_on_another_chat_that_holds_a_message_like_its_first(
    chat: ProxyHistory,
) -> None:
    """Another chat holds a message alike to the window's edited first one (`Edited 2: We act,
    2.1.` for `... 1.1.`) and the one-letter reply after it, while the window's own line needs
    a new line (a reply in the window deleted): the window's later reply, held on its own chat
    alone, says whose it is."""
    other = ProxyHistory()  # the next example: its messages differ by their number alone
    other.open_the_chat()
    other.regenerate([("D", 1)])  # a tick the window's own chat never had
    other.send([("B", 1)])
    other.edit_at(3)
    other.stop_at(1)  # the reply cut to `W`, as the window's own
    other.send([("C", 1)])
    chat.send([])
    chat.edit_at(3)
    chat.stop_at(1)
    chat.send([("A", 1)])  # held on this chat alone
    chat.delete_at(2)  # the first reply
    chat.slide(6)  # the window begins with the player's first message
    chat.send([])


def test_a_window_whose_edited_reply_another_chat_holds_as_text_stays_on_its_own_chat(
    chat: ProxyHistory,
) -> None:
    """Two chats played alike: the other one stores the player's edit of a reply cut to `W`
    (`Edited 6: Edited 5: W`, kept as the text it is), and this window shows the same edit. Its
    greeting, which only its own chat holds, is not taken for an edit of the other's."""

    def played(machine: ProxyHistory, ticks: list[tuple[str, int]]) -> None:
        machine.delete_at(2)
        machine.slide(2)
        machine.send(ticks)
        machine.slide(3)
        machine.edit_at(2)
        machine.edit_at(1)
        machine.send([])
        machine.stop_at(1)
        machine.edit_at(4)
        machine.edit_at(4)
        machine.delete_at(1)  # the player's edited first message
        machine.send([])

    other = ProxyHistory()
    other.open_the_chat()
    played(other, [("C", 1)])
    played(chat, [("D", -1)])


def test_a_reply_found_by_its_text_after_deletions_is_not_carried_again_for_the_next_message(
    chat: ProxyHistory,
) -> None:
    """The player deletes the messages before a regenerated reply and sends a new message
    (`We act, 1.3.`, alike to the deleted `We act, 1.1.` the reply answered): the reply is found
    by its text further on in the old line, whose place moves on with it, so it is not taken
    again as the reply the new message asks for another swipe of (its ticks counted twice)."""
    chat.send([])
    chat.delete_at(1)
    chat.regenerate([("C", -1), ("C", 1), ("B", 1)])
    chat.delete_at(2)
    chat.delete_at(1)  # the greeting and the regenerated reply are left
    chat.slide(2)
    chat.send([("D", 1)])
    chat.delete_at(2)
    chat.send([("C", 1)])


def the_full_walk_refused(*_: object) -> None:
    raise AssertionError("placed by the full walk")


@pytest.mark.parametrize("how", ["edited", "cut"])
def test_a_reply_three_exchanges_back_edited_or_cut_is_placed_without_the_full_walk(
    chat: ProxyHistory, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """The player edits the GM's reply three exchanges back (what it did stands), or the client
    shows it cut before its second tick (that tick and the one after are gone: a new line
    starts there, the two exchanges after it told again), then sends a message: through the
    proxy and its store, on the fast path (`chats/replies_back.py`)."""
    for _ in range(4):
        chat.send([("A", 1), ("B", -1)])
    monkeypatch.setattr(gm_tags.proxy.chats, "best_walk", the_full_walk_refused)
    at = len(chat.visible) - 5
    if how == "edited":
        chat.edit_at(at)
    else:
        reply = chat.visible[at]
        words = reply.text.split()
        cut = f"{words[0]} {words[1][:4]}"
        chat.visible[at] = reply.showing(cut, (reply.swipes[reply.chosen][0].kept(cut),))
    chat.send([("C", 1)])
    chat.send([])  # the next request shows the same: on the line (or the new line) it went on


@pytest.mark.parametrize("then", ["send", "continue"])
def test_the_last_reply_edited_is_placed_without_the_full_walk(
    chat: ProxyHistory, monkeypatch: pytest.MonkeyPatch, then: str
) -> None:
    """The player edits the GM's last message (what it did stands), then sends a message or
    asks for more: through the proxy and its store, on the fast path
    (`chats/replies_back.py`), the reply going on the line."""
    for _ in range(3):
        chat.send([("A", 1), ("B", -1)])
    monkeypatch.setattr(gm_tags.proxy.chats, "best_walk", the_full_walk_refused)
    chat.edit_at(len(chat.visible) - 1)
    if then == "send":
        chat.send([("C", 1)])
    else:
        chat.continue_last([("C", 1)])
    chat.send([])  # the next request shows the same: on the line it went on


def test_the_reply_a_regenerated_line_answers_edited_is_placed_without_the_full_walk(
    chat: ProxyHistory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player edits the GM's reply before the last exchange (what it did stands) and asks
    for the last reply again: through the proxy and its store, on the fast path
    (`chats/replies_back.py`), the new reply another swipe of the last one."""
    for _ in range(3):
        chat.send([("A", 1), ("B", -1)])
    monkeypatch.setattr(gm_tags.proxy.chats, "best_walk", the_full_walk_refused)
    chat.edit_at(len(chat.visible) - 3)
    chat.regenerate([("C", 1)])
    chat.send([])


def test_replies_edited_at_once_are_placed_without_the_full_walk(
    chat: ProxyHistory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player edits the GM's last reply and the one before it (what they did stands), then
    sends a message: through the proxy and its store, on the fast path
    (`chats/replies_back.py`)."""
    for _ in range(3):
        chat.send([("A", 1), ("B", -1)])
    monkeypatch.setattr(gm_tags.proxy.chats, "best_walk", the_full_walk_refused)
    chat.edit_at(len(chat.visible) - 1)
    chat.edit_at(len(chat.visible) - 3)
    chat.send([("C", 1)])
    chat.send([])
