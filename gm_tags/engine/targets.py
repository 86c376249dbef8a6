"""Who a sheet command means.

No `who=` means the player's card. `who="party"` means every card, once each: a name two cards
share is skipped unless it is the player's. Any other name is matched by `gm_tags.names.named`
(the Engine's exact match, else a unique first name): none is `unknown-character`, two or more
are `ambiguous-character` unless the name is the player's, whose own card then wins.
"""

from __future__ import annotations

from collections import Counter

from ..names import PARTY, normalize_name
from ..reasons import Reason
from ..sheet.character import Character
from ..state import StateReads, no_player
from .outcome import Outcome


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
        names = ", ".join(character.name for character in matches)
        return Outcome.refused(
            Reason.AMBIGUOUS_CHARACTER, f"{who!r} could be any of: {names}; name one exactly"
        )
    known = ", ".join(character.name for character in game.characters) or "none"
    return Outcome.refused(
        Reason.UNKNOWN_CHARACTER, f"no character is named {who!r}; the characters are: {known}"
    )
