"""The reminder of the games the proxy plays from, written before the request that needs it.

Writing a game's reminder takes about a millisecond (a sheet block per character, the commands,
the clocks), and a request waits for it before the upstream is called: it is on the way to the
first token. A turn's game is the one the chat's next request plays from, so once an answer has
gone out whole, the reminder of each game it landed is written in a worker thread, off the
request's way, and the next request finds it (`reminder_of`). A game is a snapshot that never
changes, so its reminder is kept by the game itself (the very object), along with the families
registered when it was written, and the reminder as the JSON text a user message ends with (a
blank line, then the reminder): writing a reminder of a few thousand characters as JSON again
for each request cost it tens of microseconds more.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..families.family import Family
from ..families.registry import FAMILIES
from ..game import Game
from .spliced import encoded

# The games whose reminders are kept, the latest used: a few per chat played at once.
KEPT = 256


class Reminder(NamedTuple):
    """A game's reminder, and what a message's text gets with it (`AFTER`, then the reminder)
    written as a JSON string's inside (no quotes)."""

    text: str
    after_text: str


# What comes between a message's own text and the reminder.
AFTER = "\n\n"

_kept: OrderedDict[int, tuple[Game, tuple[Family[Any], ...], Reminder]] = OrderedDict()
_lock = threading.Lock()


def reminder_of(game: Game) -> str:
    """`game.reminder()`, written once for the game."""
    return kept_reminder(game).text


def kept_reminder(game: Game) -> Reminder:
    """`game.reminder()` and its JSON (`Reminder`), written once for the game."""
    # The families themselves, not their names: one may be registered again under its name.
    families = tuple(FAMILIES.values())
    with _lock:
        kept = _kept.get(id(game))
        # The entry holds its game, so no other game has that id while it is kept.
        if kept is not None and kept[1] == families:
            _kept.move_to_end(id(game))
            return kept[2]
    text = game.reminder()
    reminder = Reminder(text, encoded(AFTER + text)[1:-1])
    with _lock:
        _kept[id(game)] = (game, families, reminder)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return reminder


def written_ahead(games: Iterable[Game]) -> None:
    """The reminders of `games`, written now for the requests that will play from them."""
    for game in games:
        kept_reminder(game)
