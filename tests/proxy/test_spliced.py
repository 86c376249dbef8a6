"""A request body is read as `json.loads` reads it, and the upstream's body written as the
client's own text with a few messages changed (`gm_tags.proxy.spliced`) reads as the value the
proxy meant, whatever the client's JSON looks like: its spacing, escapes, key order, encoding,
and text that looks like JSON inside its strings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm_tags.proxy.spliced import NEAR, NotJSON, read
from tests.proxy.inprocess import proxy_app_for

JSON = {"content-type": "application/json"}
TICK = 'The bell rings. [clock: name="Alarm raised" tick="1"] Footsteps.'

# Text that could fool a reader that looks for messages in the text: braces, quotes, escapes,
# a message written out inside a string, the outcomes mark, letters outside the BMP.
TRICKY = (
    "plain",
    "{",
    "}",
    '{"role": "user", "content": "x"}',
    '", {"role": "assistant", "content": "',
    "\\",
    '\\"}',
    "\u2699 Alarm 1/8",
    "caf\u00e9 \U0001f600 \u2028",
    "",
)
texts = st.one_of(st.sampled_from(TRICKY), st.text(max_size=12))
contents = st.one_of(
    texts,
    st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": texts}), max_size=2),
)
messages = st.lists(
    st.fixed_dictionaries(
        {"role": st.sampled_from(("system", "user", "assistant")), "content": contents},
        optional={"name": texts, "n": st.integers()},
    ),
    min_size=1,
    max_size=2 * NEAR + 4,
)
# How a client may write JSON: json.dumps's spacing, compact, indented, escaped or not.
WRITINGS = (
    {},
    {"ensure_ascii": False, "separators": (",", ":")},
    {"indent": 2},
    {"indent": "\t", "ensure_ascii": False, "sort_keys": True},
)


def written(value: Any, how: dict[str, Any], encoding: str = "utf-8") -> bytes:
    return json.dumps(value, **how).encode(encoding)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    listed=messages,
    how=st.sampled_from(WRITINGS),
    encoding=st.sampled_from(("utf-8", "utf-16", "utf-8-sig")),
    edits=st.data(),
)
def test_a_spliced_body_reads_as_the_value_with_its_messages_changed(
    listed: list[dict[str, Any]], how: dict[str, Any], encoding: str, edits: st.DataObject
) -> None:
    body = {"model": "m", "messages": listed, "temperature": 0.5}
    raw = written(body, how, encoding)
    got = read(raw)
    assert got.value == json.loads(raw)
    # The places the proxy changes: the latest messages (the reminder), the first ones (the
    # system section), and anywhere (an outcomes line taken off).
    near = [*range(min(NEAR, len(listed))), *range(max(0, len(listed) - NEAR), len(listed))]
    places = st.sampled_from(sorted(set(near)))
    replaced = {
        at: {"role": "user", "content": f"new {at} \u2699 {{"}
        for at in edits.draw(st.sets(places, max_size=3))
    }
    inserted_at = edits.draw(st.sampled_from((*near, len(listed))))
    inserted = {inserted_at: {"role": "system", "content": 'The rules. "{"'}}
    # A field given another value, or a new one (Anthropic's `system`).
    fields = edits.draw(st.sampled_from(({}, {"temperature": 0.9}, {"system": [{"text": "{"}]})))
    spliced = got.spliced(replaced, inserted, fields)
    assert spliced is not None
    expected = [replaced.get(at, message) for at, message in enumerate(listed)]
    expected.insert(inserted_at, inserted[inserted_at])
    assert json.loads(spliced) == {**body, **fields, "messages": expected}


def test_the_client_s_own_text_is_kept_where_nothing_changes() -> None:
    """Its escapes, spacing, key order and numbers as written: only the messages changed are
    written again."""
    raw = (
        b'{ "messages" : [ {"content": "caf\\u00e9", "role": "system"},\n'
        b'  {"content":"Go \xe2\x9a\x94", "role":"user"} ], "temperature": 1.0e0, "seed": 7 }'
    )
    got = read(raw)
    spliced = got.spliced(
        {1: {"role": "user", "content": "Go \u2694 now"}},
        {1: {"role": "system", "content": "Rules"}},
    )
    assert spliced == (
        b'{ "messages" : [ {"content": "caf\\u00e9", "role": "system"},\n'
        b'  {"role":"system","content":"Rules"},{"role":"user","content":"Go \xe2\x9a\x94 now"} ],'
        b' "temperature": 1.0e0, "seed": 7 }'
    )


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"{",
        b'{"messages": [1,]}',
        b'{"messages": [1] "n": 1}',
        b'{"a": 1}{"b": 2}',
        b'{"a": NaN}',
        b'{"a": -Infinity}',
        b"[" * 100_000,
        b'{"a": "\\x"}',
        b"\xff\xfe\x00",
    ],
    ids=[
        "empty",
        "open",
        "trailing-comma",
        "no-comma",
        "two-values",
        "nan",
        "infinity",
        "too-deep",
        "bad-escape",
        "not-text",
    ],
)
def test_what_is_not_json_is_refused(raw: bytes) -> None:
    with pytest.raises(NotJSON):
        read(raw)


def test_a_key_given_twice_is_read_as_json_loads_reads_it_but_not_spliced() -> None:
    """An upstream that keeps the first `messages` would read the client's, not the proxy's."""
    raw = b'{"messages": [{"role": "user", "content": "a"}], "messages": [{"role": "user"}]}'
    got = read(raw)
    assert got.value == json.loads(raw)
    assert got.spliced({0: {"role": "user", "content": "c"}}, {}) is None


def test_a_message_far_from_either_end_is_not_spliced() -> None:
    listed = [{"role": "user", "content": str(at)} for at in range(3 * NEAR)]
    got = read(written({"messages": listed}, {}))
    assert got.spliced({NEAR + 2: {"role": "user", "content": "x"}}, {}) is None
    assert (
        got.spliced(
            {3 * NEAR - 1: {"role": "user", "content": "x"}},
            {0: {"role": "system", "content": "s"}},
        )
        is not None
    )


def test_the_upstream_gets_the_client_s_own_text_with_the_game_s_prompt_put_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the proxy, with --show-outcomes: the first request's text is the client's but for
    the system section and the reminder; the next one's reply is sent without the outcomes line
    the client was shown, and its other messages as the client wrote them."""
    with proxy_app_for(tmp_path / "chats.db", monkeypatch, show_outcomes=True) as (
        client,
        upstream,
    ):
        upstream.script({"reply": TICK}, {"reply": "Quiet."})
        opening = (
            '{\n  "content": "Caf\u00e9 \\u00e9 {\\"role\\": \\"user\\"}",\n  "role": "user"\n}'
        )
        raw = f'{{"messages": [{opening}], "model": "m", "temperature": 1.0e0}}'.encode()
        first = client.post("/v1/chat/completions", content=raw, headers=JSON)
        assert first.status_code == 200, first.text
        sent = upstream.sent[-1]
        assert opening.encode() not in sent  # the latest user message holds the reminder
        assert b'"temperature": 1.0e0}' in sent
        seen = upstream.seen[-1]["messages"]
        assert [m["role"] for m in seen] == ["system", "user"]
        assert seen[1]["content"].startswith('Caf\u00e9 \u00e9 {"role": "user"}\n\n')
        shown = first.json()["choices"][0]["message"]["content"]
        assert "\u2699" in shown
        then = [
            json.loads(opening),
            {"role": "assistant", "content": shown},
            {"role": "user", "content": "On."},
        ]
        listed = ",\n ".join([opening, *(json.dumps(m) for m in then[1:])])
        raw = f'{{"messages": [{listed}], "model": "m", "temperature": 1.0e0}}'.encode()
        after = client.post("/v1/chat/completions", content=raw, headers=JSON)
        assert after.json()["gm_tags"]["action"] == "reply"
        assert opening.encode() in upstream.sent[-1]  # as the client wrote it
        seen = upstream.seen[-1]["messages"]
        assert [m["role"] for m in seen] == ["system", "user", "assistant", "user"]
        assert seen[2]["content"] == shown.split("\n\n\u2699")[0]


@pytest.mark.parametrize(
    "number",
    [b"1" * 5000, b"1e400", b"-1.5E+999"],
    ids=["int-over-python-s-digit-limit", "float-over-double", "negative-float-over-double"],
)
def test_a_number_the_proxy_cannot_read_or_write_again_is_refused_with_a_400(
    number: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """json.loads raises a bare ValueError for an integer of over 4,300 digits, and reads 1e400
    as infinity, which no JSON writer writes again (the body is written again whole when it
    cannot be spliced): either was a 500. A 400, and nothing sent upstream."""
    with pytest.raises(NotJSON):
        read(b'{"seed": ' + number + b', "messages": []}')
    with proxy_app_for(tmp_path / "chats.db", monkeypatch) as (client, upstream):
        for body in (
            b'{"model": "m", "seed": '
            + number
            + b', "messages": [{"role": "user", "content": "Hi"}]}',
            # a key given twice: not spliced, the value written again whole
            b'{"model": "m", "model": "m", "messages": [{"role": "user", "content": "'
            + number
            + b'", "n": '
            + number
            + b"}]}",
        ):
            answer = client.post("/v1/chat/completions", content=body, headers=JSON)
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"]["message"].startswith("the request body holds ")
        assert upstream.sent == []


# JSON's own white space, as a client may put it between any two tokens.
spaces = st.text(alphabet=" \t\n\r", max_size=3)


def _odd_key(key: str, escaped: bool) -> str:
    # A key written with each letter as a \\u escape: "\\u006dessages" is "messages".
    return '"' + "".join(f"\\u{ord(c):04x}" for c in key) + '"' if escaped else json.dumps(key)


def written_oddly(value: Any, draw: st.DrawFn) -> str:
    """`value` as JSON with white space drawn between its tokens and some keys escaped."""
    if isinstance(value, dict):
        members = [
            f"{draw(spaces)}{_odd_key(k, draw(st.booleans()))}{draw(spaces)}:{draw(spaces)}"
            f"{written_oddly(v, draw)}{draw(spaces)}"
            for k, v in value.items()
        ]
        return "{" + ",".join(members) + draw(spaces) + "}"
    if isinstance(value, list):
        items = [f"{draw(spaces)}{written_oddly(v, draw)}{draw(spaces)}" for v in value]
        return "[" + ",".join(items) + draw(spaces) + "]"
    return json.dumps(value, ensure_ascii=draw(st.booleans()))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    listed=messages,
    extra=st.dictionaries(st.sampled_from(("model", "n", "stop")), texts),
    data=st.data(),
)
def test_a_body_written_with_odd_spacing_and_escaped_keys_reads_as_the_value_meant(
    listed: list[dict[str, Any]], extra: dict[str, Any], data: st.DataObject
) -> None:
    body = {**extra, "messages": listed}
    raw = (data.draw(spaces) + written_oddly(body, data.draw) + data.draw(spaces)).encode()
    got = read(raw)
    assert got.value == json.loads(raw) == body
    last = len(listed) - 1
    replaced = {last: {"role": "user", "content": "} new {"}}
    inserted = {0: {"role": "system", "content": '"rules"'}, len(listed): {"role": "user"}}
    spliced = got.spliced(replaced, inserted, {"temperature": 1})
    assert spliced is not None
    expected = [*listed[:last], replaced[last], {"role": "user"}]
    assert json.loads(spliced) == {
        "temperature": 1,
        **body,
        "messages": [inserted[0], *expected],
    }


ODD_BODIES = {
    # `messages` nested elsewhere too, and a string that holds a whole body
    "nested": b'{"metadata": {"messages": [{"role": "user", "content": "not me"}]}, "model": "m",'
    b' "stop": ["\\"messages\\": [{"], "messages": [{"role": "user", "content": "Go."}]}',
    # two equal messages, the second the latest user message
    "equal": b'{"model":"m","messages":[{"role":"user","content":"Go."},{"role":"assistant",'
    b'"content":"Ok."},{"role":"user","content":"Go."}]}',
    "escaped-key": b'{"model":"m","\\u006dessages":[{"role":"user","content":"Go."}]}',
    "bom": b'\xef\xbb\xbf {"model":"m","messages":[{"role":"user","content":"Go."}]}',
    "utf-32": '{"model":"m","messages":[{"role":"user","content":"Go \U0001f600"}]}'.encode(
        "utf-32"
    ),
    "big-numbers": b'{"model":"m","seed":123456789012345678901234567890,"top_p":1e-320,'
    b'"messages":[{"role":"user","content":"Go."}]}',
    "odd-space": b'\r\n\t{ "model" :"m" ,\r"messages"\t:\n[ {"role":"user" ,'
    b' "content":"Go."}\n]\t}\n',
}


@pytest.mark.parametrize("name", ODD_BODIES)
def test_the_upstream_reads_an_odd_body_as_the_client_s_with_the_game_s_prompt_put_in(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = ODD_BODIES[name]
    body = json.loads(raw)
    with proxy_app_for(tmp_path / "chats.db", monkeypatch) as (client, upstream):
        answer = client.post("/v1/chat/completions", content=raw, headers=JSON)
        assert answer.status_code == 200, answer.text
        sent = json.loads(upstream.sent[-1])
    system, *messages = sent.pop("messages")
    client_s = body.pop("messages")
    assert sent == body  # every other field as the client sent it
    assert system["role"] == "system" and "Crew of Shadows" in system["content"]
    assert messages[:-1] == client_s[:-1]
    assert messages[-1]["content"].startswith(client_s[-1]["content"] + "\n\n")
    assert "Clocks now:" in messages[-1]["content"]  # the reminder, in the latest user message
