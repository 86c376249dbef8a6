"""A stored reply read again keeps its dice (issue #29): each swipe keeps the faces its reply's
dice threw, and a reply read again (cut to what the client shows, written again after a race,
told again on a new line) throws them again, in the same order. What the client saw a check
come to is what the stored game says it came to (docs/proxy.md, "A reply read again").

The check below succeeds about as often as it fails on the game's unseeded dice: a reply read
again with other dice would contradict what the client saw in about half the runs, so each test
runs it a dozen times (all pass by chance once in 4,096).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gm_tags import Game, load_ruleset
from gm_tags.chats.served import ServedChats
from gm_tags.chats.transcript import Said
from gm_tags.history import Chat, Swipe
from gm_tags.proxy.chats import ProxyChats
from gm_tags.proxy.turns import PendingTurn
from gm_tags.store import open_store
from tests.proxy.conftest import GAME, RULESET
from tests.proxy.inprocess import proxy_app_for
from tests.proxy.test_proxy import starting_game
from tests.proxy.test_reconcile import assistant, planned, shown, user

RUNS = 12
CHECK = 'I try. [skill_check: skill="Prowl" dc="1"] [success: Open.] [failure: Jams.] Quietly. '
AFTER = "The hall is dark. The guard sleeps."
OUTCOMES = ("I try. Open.", "I try. Jams.")


def nows(receipts: Any) -> list[str | None]:
    """What each receipt (as stored, as a `Receipt`, or a turn's) came to, dice and all."""
    receipts = getattr(receipts, "receipts", receipts)
    return [(r if isinstance(r, dict) else r.to_dict())["now"] for r in receipts]


def ask(client: Any, chat: str, messages: list[dict[str, str]]) -> str:
    answer = client.post(
        "/v1/chat/completions",
        json={"model": "m", "messages": messages},
        headers={"X-GM-Chat": chat},
    )
    assert answer.status_code == 200, answer.text
    return str(answer.json()["choices"][0]["message"]["content"])


def test_a_reply_the_client_shows_cut_keeps_the_roll_it_showed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client keeps the reply up to the check's branch (it stopped reading there): the cut
    swipe stored is read again with the faces the whole reply threw."""
    with proxy_app_for(tmp_path / "c.db", monkeypatch) as (client, upstream):
        for run in range(RUNS):
            chat, said = f"cut {run}", {"role": "user", "content": "We try."}
            upstream.script({"reply": CHECK + AFTER}, {"reply": "Next."})
            whole = ask(client, chat, [said])
            kept = next(outcome for outcome in OUTCOMES if whole.startswith(outcome))
            shown_cut = {"role": "assistant", "content": kept}
            ask(client, chat, [said, shown_cut, {"role": "user", "content": "Run."}])
            store = open_store(str(tmp_path / "c.db"))
            try:
                reply = store.load(chat).messages[1]
            finally:
                store.close()
            stored, cut = reply.swipes
            assert (reply.selected, cut["narration"]) == (1, kept)
            assert nows(cut["receipts"]) == nows(stored["receipts"]), run


def test_a_reply_shown_cut_further_back_keeps_the_roll_it_showed_on_the_new_line() -> None:
    start = starting_game()
    for run in range(RUNS):
        chat, _ = Chat(start).user("We try.").reply(CHECK + AFTER)
        chat, _ = chat.user("Hide.").reply("We wait.")
        stored = chat.messages[1].swipe
        kept = next(outcome for outcome in OUTCOMES if stored.narration.startswith(outcome))
        said = shown(chat)
        said[1] = assistant(kept)
        plan = planned(chat, [*said, user("Then?")], start)
        assert plan.new, run  # a new line from the cut reply on
        cut = plan.base.messages[1].swipe
        assert (cut.narration, nows(cut.receipts)) == (kept, nows(stored.receipts)), run


def test_a_reply_told_again_on_a_changed_state_throws_the_same_faces() -> None:
    """The player deletes an earlier turn: the reply after it is applied again on the state
    without that turn, and throws the faces it threw (the check does not hang on the clock)."""
    start = starting_game()
    for run in range(RUNS):
        chat, _ = Chat(start).user("We wait.").reply('Bells. [clock: name="Alarm raised" tick="1"]')
        chat, _ = chat.user("We try.").reply(CHECK + AFTER)
        stored = chat.messages[3].swipe
        said = shown(chat)
        plan = planned(chat, [said[0], *said[2:], user("Then?")], start)
        told = plan.base.messages[2]  # after the player's two messages
        assert told.swipe.game is not stored.game, run  # applied again, on another state
        assert nows(told.swipe.receipts) == nows(stored.receipts), run


def test_a_continued_reply_read_again_whole_throws_the_replys_faces_then_the_continuations() -> (
    None
):
    start = starting_game()
    for run in range(RUNS):
        chat, _ = Chat(start).user("We wait.").reply('Bells. [clock: name="Alarm raised" tick="1"]')
        chat, first = chat.user("We try.").reply(CHECK)
        chat, more = chat.continue_reply(CHECK.replace("I try.", "Again."))
        joined = chat.messages[3].swipe
        # The continuation's tags where they are in the whole reply.
        offset = len(CHECK)
        assert joined.thrown == (
            *first.thrown,
            *(t._replace(at=t.at + offset) for t in more.thrown),
        )
        said = shown(chat)
        plan = planned(chat, [said[0], *said[2:], user("Then?")], start)  # the bells deleted
        told = plan.base.messages[2].swipe
        assert told.game is not joined.game, run  # applied again, whole, on another state
        assert nows(told.receipts) == nows(joined.receipts), run


def test_a_continuation_that_completes_a_tag_keeps_its_checks_faces_read_again_whole() -> None:
    """The reply stopped inside a tag's name (`[clo`: no tag, no receipt) and the continuation
    completes it: read again whole, that tag applies before the continuation's check, and the
    check still throws its own faces. A roll is known by where its tag begins in the text, not by
    how many tags came before it (the continuation's check was the reply's second tag, and is
    its third read whole)."""
    start = starting_game()
    for run in range(RUNS):
        chat, _ = Chat(start).user("We wait.").reply('Bells. [clock: name="Alarm raised" tick="1"]')
        chat, first = chat.user("We try.").reply(CHECK + "[clo")
        more_text = 'ck: name="Alarm raised" tick="1"] ' + CHECK.replace("I try.", "Again.")
        chat, more = chat.continue_reply(more_text)
        said = shown(chat)
        plan = planned(chat, [said[0], *said[2:], user("Then?")], start)  # the bells deleted
        told = nows(plan.base.messages[2].swipe.receipts)
        assert (len(first.receipts), len(told)) == (1, 3), run
        assert [told[0], told[2]] == nows(first) + nows(more), run


def test_a_reply_whose_faces_are_not_known_continued_keeps_them_not_known() -> None:
    """A reply stored before its faces were kept (None), continued: the joined reply's faces
    are not known either (the continuation's alone would go to the first part's check when it
    is read again whole): read again, it throws the game's dice (issue #29)."""
    start = starting_game()
    chat, _ = Chat(start).user("We try.").reply(CHECK)
    old = chat.messages[1]
    chat = Chat(
        chat.start, (chat.messages[0], replace(old, swipes=(replace(old.swipe, thrown=None),)))
    )
    chat, more = chat.continue_reply(CHECK.replace("I try.", "Again."))
    assert more.thrown and chat.messages[1].swipe.thrown is None


def test_a_reply_the_client_shows_as_two_messages_keeps_the_rolls_of_both() -> None:
    """SillyTavern's send with an empty box: the stored reply (joined) shown as two messages,
    the first its part cut where the second begins. The second throws the faces after those
    the first threw."""
    start = starting_game()
    for run in range(RUNS):
        chat, first = Chat(start).user("We try.").reply(CHECK)
        chat, more = chat.continue_reply(CHECK.replace("I try.", "Again."))
        said = [user("We try."), assistant(first.narration), assistant(more.narration)]
        plan = planned(chat, [*said, user("Then?")], start)
        cut, rest = plan.base.messages[1].swipe, plan.base.messages[2].swipe
        assert (cut.narration.split(), rest.narration.split()) == (
            first.narration.split(),
            more.narration.split(),
        ), run
        assert (nows(cut.receipts), nows(rest.receipts)) == (nows(first), nows(more)), run


def test_a_stopped_reply_written_after_a_race_is_stored_as_the_client_got_it(
    tmp_path: Path,
) -> None:
    """Another request on the chat landed after this one was planned: the stopped reply is
    planned again (a new swipe beside the other's) and read again as it was given out, with
    its dice."""
    served = ServedChats(lambda: open_store(tmp_path / "c.db"))
    served.open()
    chats = ProxyChats(served, {"path": str(RULESET)}, starting_game())
    said = [Said("user", "We try.")]
    try:
        for run in range(RUNS):
            named = f"race {run}"
            stopped = PendingTurn(chats, named, said, chats.plan(named, said))
            other = PendingTurn(chats, named, said, chats.plan(named, said))
            got = stopped.streams[0].feed(CHECK + 'Then [clock: name="Alarm raised" tick="1')
            stopped.given_out()
            other.streams[0].feed("Quiet.")
            other.land(stopped=False)
            landed = stopped.land(stopped=True)
            assert landed is not None and landed.plan.action == "regenerate", run
            swipe = landed.chat.messages[-1].swipe
            client = stopped.streams[0].stop()  # what the client was given, dice and all
            assert got.startswith(OUTCOMES) and client.narration == got
            assert (swipe.narration, nows(swipe.receipts)) == (got, nows(client.receipts)), run
    finally:
        served.close()


# Paying stress buys the check a die: with Mira's stress spent first, the check throws 3 dice,
# without, 4. A second check follows, with dice of its own.
SPENT = '[sheet: who="Mira" op="spend" pool="stress" amount="8"] She is worn.'
TWO_CHECKS = (
    'I try. [skill_check: skill="Prowl" dc="1" spend="stress:2"] [success: Open.] '
    '[failure: Jams.] Then. [skill_check: who="Mira" skill="Prowl" dc="1"] [success: In.] '
    "[failure: Out.]"
)


def _told_with_a_grown_pool(start: Game, *, swiped_back: bool) -> tuple[Swipe, Swipe]:
    """The stored reply with two checks, its first pool 3 dice (stress spent the turn before),
    and that reply told again with the turn before deleted, or (`swiped_back`) shown as its
    other swipe, which spent none (the reply keeps its place): its first pool then 4 dice."""
    chat, _ = Chat(start).user("We rest.").reply("She is rested.")
    chat, _ = chat.regenerate(SPENT)
    chat, _ = chat.user("We try.").reply(TWO_CHECKS)
    said = shown(chat)
    if swiped_back:
        said[1] = assistant("She is rested.")
    else:
        said = [said[0], *said[2:]]
    plan = planned(chat, [*said, user("Then?")], start)
    told = plan.base.messages[-2]  # before the player's new message
    assert told.swipe.text == TWO_CHECKS
    return chat.messages[3].swipe, told.swipe


def test_a_check_after_one_whose_pool_grew_keeps_the_roll_it_showed() -> None:
    """The player deletes the turn that spent Mira's stress: the reply after it is told again,
    and its first check now pays for a die more. Each roll throws the faces its own roll threw
    (then new ones): the second check still comes to what the client saw. Before, the faces were
    one run, and the second check got the first one's leftover (issue #29)."""
    for run in range(RUNS):
        stored, told = _told_with_a_grown_pool(starting_game(), swiped_back=False)
        assert nows(told.receipts)[1] == nows(stored.receipts)[1], run
        first_stored, first_told = stored.thrown[0], told.thrown[0]  # type: ignore[index]
        assert (len(first_stored.faces), len(first_told.faces)) == (3, 4), run
        assert first_told.faces[:3] == first_stored.faces, run


def kept_dice_game(seed: int) -> Game:
    """The proxy tests' game under the `keep` dice policy: each reply's dice seeded by `seed`
    and the reply's place."""
    document = json.loads(GAME.read_text("utf-8"))
    document["gameDice"] = {"policy": "keep", "seed": seed}
    return Game.from_document(load_ruleset(RULESET), document)


def test_under_keep_a_pool_grown_on_a_reply_read_again_throws_no_face_again() -> None:
    """Under `keep` the reply's dice are seeded by its place, and an earlier reply swiped back
    to keeps that place: a die past the faces kept must not come from the seed the reply first threw
    with, or it throws the reply's first face again (every time, whatever the seed). Read again
    twice, it throws the same (issue #29)."""
    repeats = []
    for seed in range(RUNS):
        stored, told = _told_with_a_grown_pool(kept_dice_game(seed), swiped_back=True)
        assert told.game.turn == stored.game.turn, seed  # the same place: the same seed
        _, again = _told_with_a_grown_pool(kept_dice_game(seed), swiped_back=True)
        assert again.thrown == told.thrown, seed
        assert nows(told.receipts)[1] == nows(stored.receipts)[1], seed
        first = told.thrown[0].faces  # type: ignore[index]
        repeats.append(first[3] == first[0])
    assert repeats.count(True) < RUNS // 2, repeats  # a fair die: about one run in six
