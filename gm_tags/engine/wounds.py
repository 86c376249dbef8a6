"""Marking and healing wound tracks, exactly as the page says.

Levels and sequential boxes: marks are held most severe first; a new mark goes in severity order
(after marks as severe as it), pushing lighter marks down; `amount` marks land one at a time; a
full track upgrades its lowest-severity mark one step up the ladder of kinds (whatever kind the new
mark was), and one that cannot go higher is kept and counted as overflow. With `"onFull":
"refuse"` a command whose marks do not all fit is refused whole (`no-box`).

Indexed boxes: each mark goes on the box `box=` names (the first when none is named) or the next
free box above it; every mark is placed before any lands, none moves once down, and a command
whose marks do not all find a box is refused whole.

Healing (a negative amount) clears overflow first, then marks: only of the kind it names when the
track has that kind, else the lightest first; on indexed boxes, the highest of the lightest.

Marks beyond what a track can hold now (a row of its `extra` list deleted) are kept as overflow:
harm is not undone by editing the sheet.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..commands.sheet import WoundCommand
from ..reasons import Reason
from ..ruleset.loader import Ruleset
from ..ruleset.sheet import Track
from ..sheet.character import Character
from ..sheet.live import LiveState, Wounds
from ..sheet.plan import plan_for
from ..sheet.wounds import MAX_BOXES, OVERFLOW_LIMIT, Rung, filled, penalty, rungs
from .naming import by_name
from .outcome import Outcome


@dataclass(frozen=True)
class WoundTrack:
    """A wound track as it stands for one character: its rungs (none on boxes) and capacity."""

    track: Track
    levels: list[Rung]
    capacity: int

    @property
    def indexed(self) -> bool:
        return self.track.fill == "indexed"

    @property
    def refuses(self) -> bool:
        return self.indexed or self.track.on_full == "refuse"

    def severity(self, kind: str) -> int:
        found = next((k.severity for k in self.track.kinds or () if k.id == kind), None)
        return (
            found
            if found is not None
            else min((k.severity for k in self.track.kinds or ()), default=0)
        )

    def up_one(self, kind: str) -> str | None:
        """The next kind up the ladder of severities, or None at the top."""
        ladder = sorted(self.track.kinds or (), key=lambda k: k.severity)
        here = self.severity(kind)
        return next((k.id for k in ladder if k.severity > here), None)

    def settled(self, wounds: Wounds) -> Wounds:
        """`wounds` with marks that no longer fit moved to overflow."""
        if self.indexed:
            kept = wounds.marks[: self.capacity]
            lost = sum(1 for mark in wounds.marks[self.capacity :] if mark)
            return Wounds(_trimmed(kept), min(OVERFLOW_LIMIT, wounds.overflow + lost))
        marks = wounds.marks
        if len(marks) <= self.capacity:
            return wounds
        overflow = wounds.overflow + len(marks) - self.capacity
        return Wounds(marks[: self.capacity], min(OVERFLOW_LIMIT, overflow))

    def now(self, wounds: Wounds) -> str:
        """`Harm 3/4 Bleeding +1 over`."""
        marked = filled(wounds)
        text = f"{self.track.label} {marked}/{self.capacity}"
        if marked and self.levels:
            text += f" {self.levels[min(marked, len(self.levels)) - 1].label}"
        return text + (f" +{wounds.overflow} over" if wounds.overflow else "")

    def penalty(self, wounds: Wounds) -> int:
        return penalty(self.track, self.capacity, self.levels, wounds)


def wound_track(ruleset: Ruleset, character: Character, track: Track) -> WoundTrack:
    index = ruleset.index
    if track.boxes is not None:
        plan = plan_for(ruleset)
        most = character.permanent_values(plan)[plan.slot(("trackMax", track.id))]
        return WoundTrack(track, [], int(min(MAX_BOXES, max(0, most))))
    levels = rungs(track, index.lists, index.fields, character.build)
    return WoundTrack(track, levels, len(levels))


def run_wound(
    command: WoundCommand, ruleset: Ruleset, character: Character, live: LiveState
) -> tuple[LiveState, str] | Outcome:
    tracks = ruleset.definition.sheet.live.tracks
    track = by_name(tracks, command.track)
    if track is None:
        offered = ", ".join(t.label for t in tracks if t.is_wound) or "none"
        return Outcome.refused(
            Reason.UNKNOWN_TRACK, f"no track is named {command.track!r}; wound tracks: {offered}"
        )
    if not track.is_wound:
        return Outcome.refused(
            Reason.WRONG_TRACK, f"{track.label} is a plain track: move it with op=track by= or to="
        )
    shape = wound_track(ruleset, character, track)
    kinds = {kind.id: kind for kind in track.kinds or ()}
    kind = _kind_named(track, command.kind)
    wounds = shape.settled(live.wounds.get(track.id) or Wounds())
    if command.amount < 0:
        changed: Wounds | Outcome = heal(shape, wounds, kind, -command.amount)
    elif kind is None:
        offered = ", ".join(f"{k.id} ({k.label})" for k in kinds.values())
        return Outcome.refused(
            Reason.UNKNOWN_KIND, f"{track.label} takes no kind {command.kind!r}; kinds: {offered}"
        )
    else:
        changed = mark(shape, wounds, kind, command.amount, command.box)
    if isinstance(changed, Outcome):
        return changed
    return live.with_wounds(track.id, changed), shape.now(changed)


def _kind_named(track: Track, name: str | None) -> str | None:
    if name is None:
        return None
    folded = name.strip().casefold()
    return next(
        (k.id for k in track.kinds or () if folded in (k.id.casefold(), k.label.casefold())), None
    )


def mark(
    shape: WoundTrack, wounds: Wounds, kind: str, amount: int, box: int | None
) -> Wounds | Outcome:
    if shape.indexed:
        return _mark_boxes(shape, wounds, kind, amount, box or 1)
    free = shape.capacity - len(wounds.marks)
    if shape.refuses and amount > free:
        return Outcome.refused(
            Reason.NO_BOX,
            f"{shape.track.label} has {max(free, 0)} free, too few for {amount} marks",
        )
    marks, overflow = list(wounds.marks), wounds.overflow
    remaining = amount
    # Each mark fills a box or moves a mark up the ladder, so after at most capacity x kinds
    # marks the track is full of top-kind marks and every mark left is overflow: the work is
    # bounded by the track, never by the amount.
    while remaining and not _saturated(shape, marks):
        remaining -= 1
        if len(marks) < shape.capacity:
            _insert(shape, marks, kind)
        else:
            lightest = marks.pop()
            upgraded = shape.up_one(lightest)
            assert upgraded is not None  # a saturated track stopped the loop
            _insert(shape, marks, upgraded)
    return Wounds(tuple(marks), min(OVERFLOW_LIMIT, overflow + remaining))


def _saturated(shape: WoundTrack, marks: list[str]) -> bool:
    """Full, with its lightest mark already at the top of the ladder (or no box at all)."""
    return len(marks) >= shape.capacity and (not marks or shape.up_one(marks[-1]) is None)


def _insert(shape: WoundTrack, marks: list[str], kind: str) -> None:
    severity = shape.severity(kind)
    at = next((i for i, mark in enumerate(marks) if shape.severity(mark) < severity), len(marks))
    marks.insert(at, kind)


def _mark_boxes(
    shape: WoundTrack, wounds: Wounds, kind: str, amount: int, box: int
) -> Wounds | Outcome:
    boxes = list(wounds.marks) + [""] * max(0, shape.capacity - len(wounds.marks))
    planned: list[int] = []
    at = box - 1
    for _ in range(amount):
        while at < shape.capacity and (boxes[at] or at in planned):
            at += 1
        if at >= shape.capacity:
            return Outcome.refused(
                Reason.NO_BOX,
                f"{shape.track.label} has no free box from box {box} up for {amount} marks",
            )
        planned.append(at)
    for at in planned:
        boxes[at] = kind
    return Wounds(_trimmed(tuple(boxes)), wounds.overflow)


def heal(shape: WoundTrack, wounds: Wounds, kind: str | None, amount: int) -> Wounds:
    from_overflow = min(wounds.overflow, amount)
    marks = list(wounds.marks)
    for _ in range(min(amount - from_overflow, len(marks))):
        at = _lightest(shape, marks, kind)
        if at is None:
            break
        if shape.indexed:
            marks[at] = ""
        else:
            del marks[at]
    healed = _trimmed(tuple(marks)) if shape.indexed else tuple(marks)
    return Wounds(healed, wounds.overflow - from_overflow)


def _lightest(shape: WoundTrack, marks: list[str], kind: str | None) -> int | None:
    """The mark a heal clears: of `kind` when given, the lightest, and the highest box among
    equally light ones."""
    candidates = [i for i, mark in enumerate(marks) if mark and (kind is None or mark == kind)]
    if not candidates:
        return None
    lightest = min(shape.severity(marks[i]) for i in candidates)
    return max(i for i in candidates if shape.severity(marks[i]) == lightest)


def _trimmed(boxes: tuple[str, ...]) -> tuple[str, ...]:
    end = len(boxes)
    while end and not boxes[end - 1]:
        end -= 1
    return boxes[:end]


def set_box(
    ruleset: Ruleset,
    character: Character,
    live: LiveState,
    track_name: str,
    box: int,
    kind: str | None,
) -> tuple[LiveState, str] | Outcome:
    """A box marked or cleared by hand on the sheet screen, under the command's rules: on an
    indexed track any clear box can be marked (a marked one is `no-box`) and any box cleared; on
    other tracks a mark goes where the severity order puts it, and clearing box N clears the Nth
    mark."""
    tracks = ruleset.definition.sheet.live.tracks
    track = by_name(tracks, track_name)
    if track is None:
        return Outcome.refused(Reason.UNKNOWN_TRACK, f"no track is named {track_name!r}")
    if not track.is_wound:
        return Outcome.refused(Reason.WRONG_TRACK, f"{track.label} is a plain track")
    shape = wound_track(ruleset, character, track)
    if not 1 <= box <= shape.capacity:
        return Outcome.refused(Reason.NO_BOX, f"{track.label} has boxes 1 to {shape.capacity}")
    wounds = shape.settled(live.wounds.get(track.id) or Wounds())
    marks = list(wounds.marks) + [""] * (shape.capacity - len(wounds.marks))
    if kind is None:
        if shape.indexed:
            marks[box - 1] = ""
            changed = Wounds(_trimmed(tuple(marks)), wounds.overflow)
        else:
            kept = [mark for at, mark in enumerate(wounds.marks) if at != box - 1]
            changed = Wounds(tuple(kept), wounds.overflow)
        return live.with_wounds(track.id, changed), shape.now(changed)
    named = _kind_named(track, kind)
    if named is None:
        return Outcome.refused(Reason.UNKNOWN_KIND, f"{track.label} takes no kind {kind!r}")
    if shape.indexed:
        if marks[box - 1]:
            return Outcome.refused(Reason.NO_BOX, f"box {box} of {track.label} is marked already")
        marks[box - 1] = named
        changed = Wounds(_trimmed(tuple(marks)), wounds.overflow)
    else:
        placed = mark(shape, wounds, named, 1, None)
        if isinstance(placed, Outcome):
            return placed
        changed = placed
    return live.with_wounds(track.id, changed), shape.now(changed)
