"""The plan's live values: a pool's and a track's maximum, what is left of a pool, where a track
or a wound track stands (value, filled, remaining, penalty), and the value a state holds.
"""

from __future__ import annotations

import math
from typing import Any

from ..ruleset.sheet import Track
from .arithmetic import Number
from .build import hidden
from .live import LiveState
from .plan_slots import Context, SlotTable, Step, ref_key
from .wounds import MAX_BOXES, filled, penalty, rungs


class LiveSlots(SlotTable):
    def _define_poolMax(self, pool_id: str) -> tuple[Step, bool]:
        pool = self.index.pools[pool_id]
        (read,), reads_live = self._reads(ref_key(pool.max))
        return (lambda v, c: math.floor(v[read])), reads_live

    def _define_trackMax(self, track_id: str) -> tuple[Step, bool]:
        track = self.index.tracks[track_id]
        if isinstance(track.max, int):
            fixed = track.max
            return (lambda v, c: fixed), False
        (read,), reads_live = self._reads(ref_key(track.max))
        return (lambda v, c: math.floor(v[read])), reads_live

    def _define_livePool(self, pool_id: str) -> tuple[Step, bool]:
        pool = self.index.pools.get(pool_id)
        if pool is None:
            return (lambda v, c: 0), True
        (maximum,), _ = self._reads(("poolMax", pool_id))
        fields, start_full = self.index.fields, pool.start == "full"

        def left(v: list[Number], c: Context) -> Number:
            if hidden(pool.hide_when, fields, c.build):
                return 0
            most = max(0, v[maximum])
            stored = c.live.pools.get(pool_id)
            value = stored.value if stored is not None else (most if start_full else 0)
            return min(max(value, 0), most)

        return left, True

    def _define_liveTrack(self, track_id: str, read: str) -> tuple[Step, bool]:
        track = self.index.tracks.get(track_id)
        if track is None:
            return (lambda v, c: 0), True
        if track.is_wound:
            return self._wound_read(track, read)
        (maximum,), _ = self._reads(("trackMax", track_id))
        fields = self.index.fields
        low = track.min

        def where(v: list[Number], c: Context) -> Number:
            if hidden(track.hide_when, fields, c.build):
                return 0
            high = max(low, v[maximum])
            value = track_value(track, c.live, high)
            if read == "filled":
                return value - low
            if read == "remaining":
                return high - value
            return 0 if read == "penalty" else value

        return where, True

    def _wound_read(self, track: Track, read: str) -> tuple[Step, bool]:
        length_slot = self.slot(("trackMax", track.id)) if track.boxes is not None else None
        lists, fields = self.index.lists, self.index.fields

        def where(v: list[Number], c: Context) -> Number:
            levels = rungs(track, lists, fields, c.build) if track.levels else []
            length = len(levels) if length_slot is None else min(MAX_BOXES, max(0, v[length_slot]))
            wounds = c.live.wounds.get(track.id)
            marked = min(filled(wounds), length)
            if read == "penalty":
                return penalty(track, int(length), levels, wounds)
            return length - marked if read == "remaining" else marked

        return where, True


def track_value(track: Track, live: LiveState, high: Number) -> Number:
    default = track.default if track.default is not None else track.min
    stored = live.tracks.get(track.id)
    value = stored if stored is not None else default
    return min(max(value, track.min), high)


def state_value(state: Any, live: LiveState) -> str:
    """The value a state holds: the stored one while the state still offers it, else its
    default."""
    stored = live.states.get(state.id)
    return stored if stored is not None and stored in state.values else str(state.start)
