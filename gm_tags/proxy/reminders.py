"""The reminder of the games the proxy plays from, written before the request that needs it.

Writing a game's reminder takes about a millisecond (a sheet block per character, the commands,
the clocks), and a request waits for it before the upstream is called: it is on the way to the
first token. A turn's game is the one the chat's next request plays from, so once an answer has
gone out whole, the reminder of each game it landed is written in a worker thread, off the
request's way, and the next request finds it (`reminder_of`). A game is a snapshot that never
changes, so its reminder is kept by the game itself (the very object), along with the families
registered when it was written.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from ..families.family import Family
from ..families.registry import FAMILIES
from ..game import Game

# The games whose reminders are kept, the latest used: a few per chat played at once.
KEPT = 256

_kept: OrderedDict[int, tuple[Game, tuple[Family[Any], ...], str]] = OrderedDict()
_lock = threading.Lock()


def reminder_of(game: Game) -> str:
    """`game.reminder()`, written once for the game."""
    # The families themselves, not their names: one may be registered again under its name.
    families = tuple(FAMILIES.values())
    with _lock:
        kept = _kept.get(id(game))
        # The entry holds its game, so no other game has that id while it is kept.
        if kept is not None and kept[1] == families:
            _kept.move_to_end(id(game))
            return kept[2]
    reminder = game.reminder()
    with _lock:
        _kept[id(game)] = (game, families, reminder)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return reminder


def written_ahead(games: Iterable[Game]) -> None:
    """The reminders of `games`, written now for the requests that will play from them."""
    for game in games:
        reminder_of(game)
