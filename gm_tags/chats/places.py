"""Where the full walk (`best.best_walk`) begins its walks on a line, and which of them it passes
over, told from the line's index (`shown.Shown`) instead of its messages: what the fast path
(`aligned`) needs to show that an edit or a deletion further back than the last exchange leaves
the full walk's choice where it says. Each function names the part of `best_walk` it stands for;
where that part would read the line's messages (an edited message looked for), it answers None
and the request is left to the full walk.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Mapping, Sequence

from .best import starts
from .shown import Shown
from .transcript import Said, bare


def first_found(here: Collection[tuple[int, int]], held: Collection[int], sent: int) -> int:
    """The conversation index before which `best_walk` looks for the window's first messages on
    a line (`best._users_found`): the first reply the store's index found on it (`here`), or,
    on a line it found none on, the first it found on any (`held`; `sent` with none)."""
    return min((index for index, _ in here), default=min(held, default=sent))


def known_places(
    shown: Shown, said: Sequence[Said], here: Collection[tuple[int, int]], held: Collection[int]
) -> dict[int, set[int]] | None:
    """Where the line holds the window's messages as `best_walk` knows them (its `known`): the
    replies the store's index found (`here`), and the user messages before the first of them,
    by their text (`best._users_found`). None when one of those is a user message the line does
    not hold, or a reply the store does not hold: `_users_found` would look for it as an edited
    message, through the line's messages."""
    known: dict[int, set[int]] = {}
    for index in range(min(first_found(here, held, len(said)), len(said))):
        one = said[index]
        if one.role != "user" and index in held:
            continue  # a reply held on another line: never looked for as an edited one
        found = shown.users.get(bare(one.text)) if one.role == "user" else None
        if not found:
            return None
        known[index] = {shown.positions[at] for at in found}
    for index, position in here:
        known.setdefault(index, set()).add(position)
    return known


def skipped(
    shown: Shown, first: int, at: int, known: Mapping[int, set[int]], held: Collection[int]
) -> bool:
    """`best._skips` (whether `best_walk` passes over the walk from conversation index `first`
    and line position `at`), looking only at the messages before `first` the line or the store
    holds (`known`, `held`): `_skips` passes the others by. The messages between two places are
    counted in the line's index."""
    index, place = first, at
    for older in sorted({*known, *held}, reverse=True):
        if older >= first:
            continue
        places = [found for found in known.get(older, ()) if found < place]
        if not places:
            if older in held:
                return True
            continue
        latest = max(places)
        between = bisect_left(shown.positions, place) - bisect_right(shown.positions, latest)
        if between != index - older - 1:
            return True
        index, place = older, latest
    return False


def starts_from(
    shown: Shown, said: Sequence[Said], here: Collection[tuple[int, int]], first: int
) -> set[tuple[int, int]]:
    """The places `best_walk` begins a walk at on the line at conversation index `first` or
    later, counted back from the replies the store's index found there (`here`; `best.starts`
    of the window from `first` on), and the line's start from `first` (looked at too: a walk
    from it is one more to tell, never one left out)."""
    later = [(index - first, position) for index, position in here if index >= first]
    if not later:
        return set()
    places = starts(shown.chat, said[first:], later)
    return {(index + first, position) for index, position in places}
