"""A check as asked for, and the record of how it came out, in the Engine's receipt form."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from ..text import clean

Result = Literal["success", "failure", "critical_success", "critical_failure"]


@dataclass(frozen=True)
class CheckRequest:
    """What the Game Master asked for. Out-of-range numbers are clamped when the check is rolled,
    and names the sheet does not have are ignored: a check is never refused for them."""

    skill: str
    dc: int | None = None
    difficulty: str | None = None
    who: str | None = None
    with_: str | None = None
    mode: str | None = None
    threshold: int | None = None
    bonus: int | None = None
    explode: int | None = None
    double: int | None = None
    reroll: str | None = None
    spend: str | None = None
    # A catalog entry the character has, used on this check (`use="Steady Hand"`).
    use: str | None = None


@dataclass(frozen=True)
class CheckRecord:
    """How a check came out. `used` is the dice total kept on a sum (the higher or lower throw
    under advantage or disadvantage) and the net successes on a pool (bought ones included);
    `modifier` is what the sheet added on a sum and 0 on a pool; `total` is what was compared
    with `dc`. The extras say what each part of the sheet added."""

    skill: str
    dc: int
    rolls: tuple[int, ...]
    used: int
    modifier: int
    total: int
    result: Result
    mode: str
    resolution: Literal["sum", "successes"]
    dice: str
    threshold: int | None = None
    pool: int | None = None
    who: str | None = None
    with_: str | None = None
    bonus: int | None = None
    spend: str | None = None
    auto: int | None = None
    use: str | None = None
    rerolled: int | None = None
    penalty: int | None = None
    difficulty: str | None = None
    explode: int | None = None
    double: int | None = None
    adjust: int | None = None
    reroll: str | None = None
    # What the character's conditions, levels and items added, and which of them changed it
    # (a lean alone adds no number); `automatic` a save they failed without a roll.
    effects: int | None = None
    from_: tuple[str, ...] = ()
    automatic: bool = False
    # A `halfOrMore` botch beside a result that had successes: something went wrong on the side.
    complication: bool = False
    notes: tuple[str, ...] = field(default=())
    # "none" when `who=` named no character: the check rolled with nothing from any sheet.
    sheet: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.result in ("success", "critical_success")

    @property
    def tag(self) -> str:
        """The receipt, attributes in the Engine's order."""
        parts = [
            ("skill", self.skill),
            ("dc", str(self.dc)),
            ("rolls", "|".join(map(str, self.rolls))),
            ("used", str(self.used)),
            ("modifier", str(self.modifier)),
            ("total", str(self.total)),
            ("result", self.result),
            ("mode", self.mode),
            ("resolution", self.resolution),
            ("dice", self.dice),
        ]
        optional: list[tuple[str, object]] = [
            # The Engine's `pool=` is the dice slot a sighted roll spent, not the pool's size:
            # the size is in `dice=`, so it is not written under that name.
            ("threshold", self.threshold),
            ("who", self.who),
            ("with", self.with_),
            ("bonus", _signed(self.bonus)),
            ("spend", self.spend),
            ("auto", self.auto),
            ("use", self.use),
            ("rerolled", self.rerolled),
            ("penalty", self.penalty if self.penalty else None),
            # The step's name is not written: the record says the numbers it set (dc,
            # threshold), as the Engine's does.
            ("explode", self.explode),
            ("double", self.double),
            ("complication", "true" if self.complication else None),
            ("adjust", _signed(self.adjust) if self.adjust else None),
            ("reroll", self.reroll),
            ("sheet", self.sheet),
            ("effects", _signed(self.effects) if self.effects else None),
            ("from", "; ".join(map(_from_name, self.from_)) if self.from_ else None),
            ("automatic", "true" if self.automatic else None),
        ]
        parts += [(key, str(value)) for key, value in optional if value is not None]
        return "[skill_check: " + " ".join(f'{k}="{_attribute(v)}"' for k, v in parts) + "]"

    @property
    def summary(self) -> str:
        """The line the Game Master reads next turn: the Engine's line, word for word
        (`Sneak check (DC 8): [3, 5] +1 = 9. Success.`), then what gm-tags says beside it."""
        return self.engine_line + self.beside

    @property
    def engine_line(self) -> str:
        """The Engine's `formatSkillCheckResultSummary`: the dice added up only where they do add
        up to the total (not under advantage, not on a pool), the mode when not normal."""
        modifier = "" if self.modifier == 0 else f" {_signed(self.modifier)}"
        mode = f" ({self.mode})" if self.mode != "normal" else ""
        faces = "[" + ", ".join(map(str, self.rolls)) + "]"
        if self.resolution == "sum" and sum(self.rolls) + self.modifier == self.total:
            arithmetic = f"{faces}{modifier}{mode} = {self.total}"
        elif self.resolution == "sum":
            arithmetic = f"{faces}{modifier}{mode} → {self.total}"
        else:
            word = "success" if self.total == 1 else "successes"
            arithmetic = f"{faces}{mode} → {self.total} {word}"
        outcome = self.result.replace("_", " ").capitalize()
        side = " Something went wrong on the side." if self.complication else ""
        return f"{_plain(self.skill)} check (DC {self.dc}): {arithmetic}. {outcome}.{side}"

    @property
    def beside(self) -> str:
        """What gm-tags adds after the Engine's line: whose check, an automatic failure, the
        entry used, what changed it, a `who=` that named nobody."""
        said = f" Rolled for {_plain(self.who)}." if self.who and self.sheet != "none" else ""
        if self.automatic:
            said += " It failed without a roll."
        if self.use:
            said += f" {_plain(self.use)} was used on it."
        if self.from_:
            said += " Changed by " + ", ".join(_plain(name) for name in self.from_) + "."
        if self.sheet == "none":
            said += f" No character is named {_plain(self.who or '')}: no sheet was read."
        return said


def read_record(attributes: Mapping[str, str]) -> CheckRecord | None:
    """A receipt read back (from a saved reply, after a reload) as the record it says: None when
    it is not a rolled check's receipt. Nothing here is trusted to roll a check again; it is what
    the record said, for history and the next turn's lines."""
    try:
        dc, used = int(attributes["dc"]), int(attributes["used"])
        modifier, total = int(attributes["modifier"]), int(attributes["total"])
        result, resolution = attributes["result"], attributes["resolution"]
        rolls = tuple(int(face) for face in attributes.get("rolls", "").split("|") if face)
    except (KeyError, ValueError):
        return None
    if result not in _RESULTS or resolution not in ("sum", "successes"):
        return None

    def number(key: str) -> int | None:
        value = attributes.get(key)
        return int(value) if value is not None and _INTEGER.fullmatch(value) else None

    return CheckRecord(
        skill=attributes.get("skill", ""),
        dc=dc,
        rolls=rolls,
        used=used,
        modifier=modifier,
        total=total,
        result=result,  # type: ignore[arg-type]
        mode=attributes.get("mode", "normal"),
        resolution=resolution,  # type: ignore[arg-type]
        dice=attributes.get("dice", ""),
        threshold=number("threshold"),
        who=attributes.get("who"),
        with_=attributes.get("with"),
        bonus=number("bonus"),
        spend=attributes.get("spend"),
        auto=number("auto"),
        rerolled=number("rerolled"),
        penalty=number("penalty"),
        difficulty=attributes.get("difficulty"),
        explode=number("explode"),
        double=number("double"),
        adjust=number("adjust"),
        reroll=attributes.get("reroll"),
        effects=number("effects"),
        # "; " parts the names, as the Engine writes them ("|" in records written before).
        from_=tuple(n.strip() for n in re.split(r"[;|]", attributes.get("from", "")) if n.strip()),
        automatic=attributes.get("automatic") == "true",
        complication=attributes.get("complication") == "true",
        use=attributes.get("use"),
        sheet=attributes.get("sheet"),
    )


_RESULTS = ("success", "failure", "critical_success", "critical_failure")
_INTEGER = re.compile(r"[+-]?\d{1,9}")


def _plain(name: str) -> str:
    """A name as a summary line may hold it: cleaned, and without braces or brackets."""
    return " ".join(
        clean(name, 80)
        .replace("{", " ")
        .replace("}", " ")
        .replace("<", " ")
        .replace(">", " ")
        .split()
    )


def _attribute(value: str) -> str:
    """A value as the Engine's `serializeSkillCheckAttribute` writes it (a double quote and a line
    break become `'`: `who="Mira 'the Fox'"`), then made safe as every receipt value is (no
    bracket that would end the tag, one bounded line)."""
    return clean(value.replace('"', "'").replace("\r", "'").replace("\n", "'"))


def _from_name(name: str) -> str:
    """A name in `from=`, as the Engine writes it: no brackets, which would end the tag, and no
    semicolons, which part the names."""
    return " ".join(re.sub(r"[\[\];]", " ", name).split())


def _signed(value: int | None) -> str | None:
    return None if value is None else f"{'+' if value >= 0 else ''}{value}"
