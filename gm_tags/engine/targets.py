"""Who a sheet command means.

No `who=` means the player's card. `who="party"` means every card, once each: a name two cards
share is skipped unless it is the player's. Any other name is matched by `gm_tags.names.named`
(the Engine's exact match, else a unique first name): none is `unknown-character`, two or more
are `ambiguous-character` unless the name is the player's, whose own card then wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import islice

from ..names import PARTY, normalize_name
from ..reasons import Reason
from ..sheet.character import Character
from ..state import StateReads, no_player
from .outcome import Outcome

# A refusal names at most this many cards: a list of every card would make each refused tag
# cost, and its receipt hold, the whole party (500 names in a party of 500).
NAMES_LISTED = 12


def targets(game: StateReads, who: str | None) -> tuple[list[Character], str] | Outcome:
    """The characters `who` names and the name a receipt writes back, or the refusal."""
    player = game.player_character
    if who is None:
        if player is None:
            return Outcome.refused(Reason.UNKNOWN_CHARACTER, no_player(game))
        return [player], player.name
    key = normalize_name(who)
    if key == PARTY:
        shared = Counter(character.key for character in game.characters)
        members = [
            character
            for character in game.characters
            if shared[character.key] == 1 or character is player
        ]
        if not members:
            return Outcome.refused(Reason.UNKNOWN_CHARACTER, "this game has no characters")
        return members, PARTY
    matches = game.named(who)
    if len(matches) == 1:
        return matches, matches[0].name
    if matches:
        return Outcome.refused(
            Reason.AMBIGUOUS_CHARACTER,
            f"{who!r} could be any of: {_listed(matches)}; name one exactly",
        )
    known = _listed(game.characters) or "none"
    return Outcome.refused(
        Reason.UNKNOWN_CHARACTER, f"no character is named {who!r}; the characters are: {known}"
    )


def _listed(characters: Sequence[Character]) -> str:
    """The cards' names, the first `NAMES_LISTED` of them, and how many more there are."""
    names = ", ".join(character.name for character in islice(characters, NAMES_LISTED))
    more = len(characters) - NAMES_LISTED
    return f"{names} and {more} more" if more > 0 else names
