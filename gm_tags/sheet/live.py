"""A character's live state: what changes in play, stored sparsely as the Engine stores it.

    {"pools": {"grit": {"value": 3, "temp": 2}}, "tracks": {"heat": 2},
     "wounds": {"harm": {"marks": ["tear", "knock"], "overflow": 0}},
     "text": {"load": "light"}, "conditions": ["shaken"], "states": {"stance": "reckless"}}

Only what differs from the start state is stored: a pool back at its default (full or empty as
its `start` says, no temporary points), a track at its default, a clear wound track, empty text and
a state at its default are all left out, so a full pool follows a raised maximum. Entries for
pools, tracks or states the sheet no longer has are kept, because they may come back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

EMPTY: Mapping[str, Any] = MappingProxyType({})

# The Engine's bounds on a game's stored live state: entries for at most this many characters, and
# at most this many bytes of JSON as it is stored. A write past either is refused, never stored.
MOST_LIVE_CHARACTERS = 64
MOST_LIVE_BYTES = 64 * 1024
# The party sheet's entry (ours, not the Engine's) is not a character's.
PARTY_ENTRY = "$party"


@dataclass(frozen=True, slots=True)
class PoolLive:
    value: int
    temp: int = 0


@dataclass(frozen=True, slots=True)
class Wounds:
    """Marks held most severe first (kind ids; "" for an empty box between marks on a track
    filled by box), and the overflow that could not land."""

    marks: tuple[str, ...] = ()
    overflow: int = 0

    @property
    def clear(self) -> bool:
        return not any(self.marks) and self.overflow == 0


def _frozen(entries: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(entries)


@dataclass(frozen=True)
class LiveState:
    pools: Mapping[str, PoolLive] = field(default_factory=lambda: EMPTY)
    tracks: Mapping[str, int] = field(default_factory=lambda: EMPTY)
    wounds: Mapping[str, Wounds] = field(default_factory=lambda: EMPTY)
    text: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    conditions: tuple[str, ...] = ()
    states: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    # Keys of a stored live state this build does not read, carried unchanged.
    carried: Mapping[str, Any] = field(default_factory=lambda: EMPTY)

    @property
    def empty(self) -> bool:
        return (
            not (
                self.pools
                or self.tracks
                or self.wounds
                or self.text
                or self.conditions
                or self.states
            )
            and not self.carried
        )

    # Each `with_*` returns a new state; an entry at its default is removed rather than stored.

    def with_pool(self, key: str, value: int, temp: int, default: int) -> LiveState:
        pools = dict(self.pools)
        if value == default and temp == 0:
            pools.pop(key, None)
        else:
            pools[key] = PoolLive(value, temp)
        return replace(self, pools=_frozen(pools))

    def with_track(self, key: str, value: int, default: int) -> LiveState:
        return replace(self, tracks=_frozen(_set(self.tracks, key, value, value == default)))

    def with_wounds(self, key: str, wounds: Wounds) -> LiveState:
        return replace(self, wounds=_frozen(_set(self.wounds, key, wounds, wounds.clear)))

    def with_text(self, key: str, value: str) -> LiveState:
        return replace(self, text=_frozen(_set(self.text, key, value, value == "")))

    def with_state(self, key: str, value: str, default: str) -> LiveState:
        return replace(self, states=_frozen(_set(self.states, key, value, value == default)))

    def with_condition(self, key: str, on: bool) -> LiveState:
        kept = tuple(condition for condition in self.conditions if condition != key)
        return replace(self, conditions=(*kept, key) if on else kept)

    def to_json(self) -> dict[str, Any]:
        stored: dict[str, Any] = {}
        if self.pools:
            stored["pools"] = {
                key: {"value": pool.value, **({"temp": pool.temp} if pool.temp else {})}
                for key, pool in self.pools.items()
            }
        if self.tracks:
            stored["tracks"] = dict(self.tracks)
        if self.wounds:
            stored["wounds"] = {
                key: {"marks": list(w.marks), **({"overflow": w.overflow} if w.overflow else {})}
                for key, w in self.wounds.items()
            }
        if self.text:
            stored["text"] = dict(self.text)
        if self.conditions:
            stored["conditions"] = list(self.conditions)
        if self.states:
            stored["states"] = dict(self.states)
        return {**stored, **self.carried}

    @classmethod
    def from_json(cls, stored: Mapping[str, Any]) -> LiveState:
        """A live state from its stored shape (checked beforehand by the game document reader)."""
        known = {"pools", "tracks", "wounds", "text", "conditions", "states"}
        return cls(
            pools=_frozen(
                {
                    key: PoolLive(entry["value"], entry.get("temp") or 0)
                    for key, entry in (stored.get("pools") or {}).items()
                }
            ),
            tracks=_frozen(dict(stored.get("tracks") or {})),
            wounds=_frozen(
                {
                    key: Wounds(tuple(entry.get("marks") or ()), entry.get("overflow") or 0)
                    for key, entry in (stored.get("wounds") or {}).items()
                }
            ),
            text=_frozen(dict(stored.get("text") or {})),
            conditions=tuple(dict.fromkeys(stored.get("conditions") or ())),
            states=_frozen(dict(stored.get("states") or {})),
            carried=_frozen({key: value for key, value in stored.items() if key not in known}),
        )


def _set(entries: Mapping[str, Any], key: str, value: Any, at_default: bool) -> dict[str, Any]:
    changed = dict(entries)
    if at_default:
        changed.pop(key, None)
    else:
        changed[key] = value
    return changed


def _stored_bytes(value: Any) -> int:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return len(text.encode("utf-8", "surrogatepass"))


def live_bytes(live: Mapping[str, LiveState]) -> int:
    """The bytes of a game's live state as it is stored (JSON, as the Engine measures it)."""
    return _stored_bytes({key: state.to_json() for key, state in live.items() if not state.empty})


# The most bytes one character of a key or text can take as JSON (an escape, `\uXXXX`), and the
# most a stored number can.
_CHAR = 6
_NUMBER = 24


def entry_bytes_bound(key: str, state: LiveState) -> int:
    """An upper bound of the bytes `"key":{...}` takes in the stored live state, cheap enough to
    take after every command (the exact figure is measured only when bounds come near the
    limit)."""
    size = _CHAR * len(key) + 80
    size += sum(_CHAR * len(name) + 20 + 2 * _NUMBER for name in state.pools)
    size += sum(_CHAR * len(name) + 4 + _NUMBER for name in state.tracks)
    for name, wounds in state.wounds.items():
        size += _CHAR * len(name) + 30 + _NUMBER
        size += sum(_CHAR * len(mark) + 3 for mark in wounds.marks)
    size += sum(_CHAR * (len(name) + len(value)) + 6 for name, value in state.text.items())
    size += sum(_CHAR * len(name) + 3 for name in state.conditions)
    size += sum(_CHAR * (len(name) + len(value)) + 6 for name, value in state.states.items())
    if state.carried:
        size += _stored_bytes(dict(state.carried))
    return size


def over_bounds(live: Mapping[str, LiveState], added: bool = True) -> str | None:
    """Why this live state cannot be stored (the Engine's bounds), or None when it can. The
    number of characters is counted only when `added` says an entry may have been added."""
    if added:
        characters = sum(1 for k, s in live.items() if k != PARTY_ENTRY and not s.empty)
        if characters > MOST_LIVE_CHARACTERS:
            return (
                f"the live state would hold entries for {characters} characters; it holds at "
                f"most {MOST_LIVE_CHARACTERS}"
            )
    size = live_bytes(live)
    if size > MOST_LIVE_BYTES:
        return (
            f"the live state would be {size} bytes, over the {MOST_LIVE_BYTES}-byte limit: "
            "clear notes or conditions first"
        )
    return None
