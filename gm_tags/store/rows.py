"""A chat as rows and rows as a chat: what both SQL back-ends write into their tables and make of
what they read back. The rows are made lazily, one swipe at a time, as the statement takes them."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..dice import Throw, Thrown, faces_of, is_one_run, one_run
from ..tenants import tenant_of
from .interface import StoredChat, StoredMessage
from .schema import shown_digest


def to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def chat_row(chat_id: str, chat: StoredChat, revision: int) -> tuple[str, str, str, int, str, str]:
    """A chat's own row: id, ruleset, start document, revision, tenant and title."""
    return (
        chat_id,
        to_json(chat.ruleset),
        to_json(chat.start),
        revision,
        tenant_of(chat_id),
        chat.title,
    )


def swipe_rows(
    chat_id: str, position: int, message: StoredMessage, first: int, written: int
) -> Iterator[tuple[str, int, int, str, str, str, str, str, str, str, str, int]]:
    """The `swipes` rows of a message's swipes from `first` on, written at revision `written`."""
    for number, swipe in enumerate(message.swipes[first:], start=first):
        thrown = thrown_read(swipe.get("thrown", ()))
        yield (
            chat_id,
            position,
            number,
            swipe["text"],
            swipe["reply"],
            swipe["narration"],
            to_json(swipe["receipts"]) if swipe["receipts"] else "[]",  # most have none
            thrown_text(thrown),
            rolls_text(thrown),
            joins_text(swipe.get("joins")),
            game_text(swipe["game"]),
            written,
        )


# What `thrown_text` stores for a reply that threw none (and `joins_text` for one never
# continued): "" is a row stored before they were kept (the column added with "" in every
# row), not known.
NONE_THROWN = "-"


def _numbers_text(numbers: Iterable[int] | None) -> str:
    """`numbers` joined by commas, `NONE_THROWN` for none, "" when not known (None)."""
    if numbers is None:
        return ""
    return ",".join(map(str, numbers)) or NONE_THROWN


def _numbers_read(text: str) -> tuple[int, ...] | None:
    """The numbers `_numbers_text` stored: None when not known ("")."""
    if not text:
        return None
    return () if text == NONE_THROWN else tuple(int(number) for number in text.split(","))


def thrown_text(thrown: Thrown | None) -> str:
    """The faces a reply's dice threw as one run, as schema 8 stores them (and a worker still
    on it reads them): digits joined by commas, `NONE_THROWN` for none, "" when they are not
    known (None)."""
    return _numbers_text(None if thrown is None else faces_of(thrown))


def rolls_text(thrown: Thrown | None) -> str:
    """Each roll of `thrown` as `AT:dSIDES:faces` (where its tag begins in the reply's text, the
    faces joined by commas, none for a roll of no dice), the rolls joined by ';':
    `7:d20:14;52:d6:3,5`. "" for no roll, for faces not known and for faces kept as one run: the
    `thrown` column says which."""
    if not thrown or is_one_run(thrown):
        return ""
    return ";".join(f"{at}:d{sides}:{','.join(map(str, faces))}" for at, sides, faces in thrown)


def thrown_faces(thrown: str, rolls: str = "") -> Thrown | None:
    """What a swipe row's dice threw: its `rolls` (`rolls_text`), or for a row with none (no
    roll, or written on schema 8, or by a worker still on it) its `thrown` column: None when
    not known (""), else the faces as one run."""
    if rolls:
        return tuple(_throw(roll) for roll in rolls.split(";"))
    faces = _numbers_read(thrown)
    return None if faces is None else one_run(faces)


def _throw(text: str) -> Throw:
    at, sides, faces = text.split(":")
    thrown = tuple(int(face) for face in faces.split(",")) if faces else ()
    return Throw(int(at), int(sides.removeprefix("d")), thrown)


def thrown_read(value: Sequence[Any] | None) -> Thrown | None:
    """A swipe's faces as a chat document gives them: None (not known), a list of numbers (one
    run, as schema 8 kept them), or each roll as `[at, sides, faces]` (a `Throw`, or the list
    JSON reads back)."""
    if value is None:
        return None
    if not value:
        return ()
    if isinstance(value[0], Throw):
        return tuple(value)
    if isinstance(value[0], int):
        return one_run(value)
    return tuple(Throw(int(at), int(sides), tuple(map(int, faces))) for at, sides, faces in value)


def joins_text(joins: Iterable[int] | None) -> str:
    """Where a reply's continuations were joined on, as stored: offsets joined by commas,
    `NONE_THROWN` for none (a reply never continued), "" when not known (None)."""
    return _numbers_text(joins)


def joins_read(text: str) -> tuple[int, ...] | None:
    """The offsets `joins_text` stored: None when not known ("", stored before they were
    kept)."""
    return _numbers_read(text)


def message_shown_rows(
    chat_id: str, position: int, message: StoredMessage, first: int
) -> list[tuple[str, str, int, int]]:
    """The `shown` rows of a message's swipes from `first` on: none unless it is a reply."""
    if message.role != "reply":
        return []
    swipes = message.swipes[first:]
    return shown_rows((chat_id, position, first + n, s["narration"]) for n, s in enumerate(swipes))


def shown_rows(
    rows: Iterable[tuple[str, int, int, str]],
) -> list[tuple[str, str, int, int]]:
    """`shown` rows for stored replies given as (chat, position, swipe, narration)."""
    return [
        (shown_digest(narration), chat_id, position, swipe)
        for chat_id, position, swipe, narration in rows
    ]


def game_text(game: str | dict[str, Any]) -> str:
    """A swipe's game as stored: JSON text (a chat as read keeps it so)."""
    return game if isinstance(game, str) else to_json(game)


def stored_chat(
    chat: Sequence[Any], messages: Iterable[Sequence[Any]], swipes: Iterable[Sequence[Any]]
) -> StoredChat:
    """A chat as read whole: its row (ruleset, start, revision, title), its messages (position,
    role, selected) and its swipes (position, text, reply, narration, receipts, thrown, rolls,
    joins, game) in order.
    Each swipe's game stays the JSON text it was stored as (a store copy writes it as it is)."""
    return StoredChat(
        json.loads(chat[0]),
        json.loads(chat[1]),
        stored_messages(messages, swipes),
        int(chat[2]),
        str(chat[3]),
    )


def stored_messages(
    messages: Iterable[Sequence[Any]], swipes: Iterable[Sequence[Any]]
) -> tuple[StoredMessage, ...]:
    """Messages as read: (position, role, selected, ...) rows and their swipes' (position, text,
    reply, narration, receipts, thrown, rolls, joins[, game]) rows in order. A swipe read
    without its game has none: `Chats` reads it when it is asked for."""
    by_position: dict[int, list[dict[str, Any]]] = {}
    for position, text, reply, narration, receipts, thrown, rolls, joins, *game in swipes:
        swipe = {"text": text, "reply": reply, "narration": narration}
        swipe["receipts"] = json.loads(receipts)
        swipe["thrown"] = thrown_faces(thrown, rolls)
        swipe["joins"] = joins_read(joins)
        if game:
            swipe["game"] = game[0]
        by_position.setdefault(position, []).append(swipe)
    return tuple(
        StoredMessage(role, selected, tuple(by_position.get(position, [])))
        for position, role, selected, *_ in messages
    )
