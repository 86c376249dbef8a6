"""`--show-outcomes`: a readable line of what the engine did, added to the narration the client
gets, never stored, and taken off again when the transcript comes back."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.proxy.inprocess import narration, proxy_app_for, streamed, summary

USER = {"role": "user", "content": "We climb the wall."}
REPLY = (
    'The bell rings. [clock: name="Alarm raised" tick="1"] Mira stumbles. '
    '[sheet: who="Mira" op="spend" pool="stress" amount="2"] [clock: name="Nope" tick="1"]'
)


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_the_outcomes_line_is_shown_and_taken_off_when_it_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stream: bool
) -> None:
    with proxy_app_for(tmp_path / "c.db", monkeypatch, show_outcomes=True) as (client, upstream):
        upstream.script({"reply": REPLY, "chunk": 6}, {"reply": "Quiet."})
        body = {"model": "m", "messages": [USER]}
        if stream:
            got = streamed(client, body)
            shown, said = narration(got), summary(got)
        else:
            answer = client.post("/v1/chat/completions", json=body).json()
            shown, said = answer["choices"][0]["message"]["content"], answer["gm_tags"]
        assert (
            shown
            == "The bell rings. Mira stumbles.\n\n\u2699 Alarm raised 3/6 \u00b7 Mira: Stress 7/9"
        )
        assert said["narration"] == "The bell rings. Mira stumbles."  # stored without it
        back = [USER, {"role": "assistant", "content": shown}, {"role": "user", "content": "On."}]
        again = client.post("/v1/chat/completions", json={"model": "m", "messages": back}).json()
        assert (again["gm_tags"]["action"], again["gm_tags"]["chat"]) == ("reply", said["chat"])
        assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 3/6")
        # The model reads its reply as it wrote it: the line was the player's only.
        replies = [m["content"] for m in upstream.seen[-1]["messages"] if m["role"] == "assistant"]
        assert replies == ["The bell rings. Mira stumbles."]


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
def test_a_continue_after_an_outcomes_line_starts_a_line_and_both_lines_come_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stream: bool
) -> None:
    more = 'Dogs bark. [clock: name="Alarm raised" tick="1"] They run.'
    with proxy_app_for(tmp_path / "c.db", monkeypatch, show_outcomes=True) as (client, upstream):
        upstream.script({"reply": REPLY, "chunk": 6}, {"reply": more, "chunk": 5})
        first = client.post("/v1/chat/completions", json={"model": "m", "messages": [USER]})
        shown = first.json()["choices"][0]["message"]["content"]
        nudge = {"role": "system", "content": "[Continue the following message.]"}
        body = {"model": "m", "messages": [USER, {"role": "assistant", "content": shown}, nudge]}
        if stream:
            added = narration(streamed(client, body))
        else:
            added = client.post("/v1/chat/completions", json=body).json()["choices"][0]
            added = added["message"]["content"]
        # SillyTavern joins the continuation with a space of its own (continue_postfix) and
        # takes the white space off the ends of lines.
        assert added == "\n\nDogs bark. They run.\n\n\u2699 Alarm raised 4/6"
        joined = "\n".join(line.rstrip() for line in f"{shown} {added}".split("\n"))
        assert "4/6\u00b7" not in joined and "Stress 7/9\n\nDogs bark." in joined
        # A window that slid past the player's first message: the chat is found by the
        # reply's text alone, as the client shows it.
        back = [{"role": "assistant", "content": joined}, {"role": "user", "content": "On."}]
        again = client.post("/v1/chat/completions", json={"model": "m", "messages": back}).json()
        assert again["gm_tags"]["chat"] == first.json()["gm_tags"]["chat"]
        assert upstream.clocks_seen().startswith("Clocks now: Alarm raised 4/6")
        told = [m["content"] for m in upstream.seen[-1]["messages"] if m["role"] == "assistant"]
        assert told == ["The bell rings. Mira stumbles.\n\nDogs bark. They run."]


def test_a_track_is_named_once_in_the_outcomes_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A track's `now` names the track itself (`Harm 1/3 Lesser`): the line does not say it
    twice (it read `Mira: Harm Harm 1/3 Lesser`)."""
    harm = '[sheet: who="Mira" op="damage" track="harm" kind="lesser" amount="1"] She bleeds.'
    with proxy_app_for(tmp_path / "c.db", monkeypatch, show_outcomes=True) as (client, upstream):
        upstream.script({"reply": harm})
        answer = client.post("/v1/chat/completions", json={"model": "m", "messages": [USER]})
    assert answer.json()["choices"][0]["message"]["content"] == (
        "She bleeds.\n\n\u2699 Mira: Harm 1/3 Lesser"
    )
