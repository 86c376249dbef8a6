"""The closed set of reasons a command is refused, as kebab-case codes.

The codes the Engine publishes are used where they exist, so a pipeline that reads its receipts
reads ours. Each code is documented, with when it happens, in `docs/commands.md`; a test keeps that
page and this enum in step.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    # Any tag family.
    MALFORMED = "malformed"
    TOO_MANY = "too-many"
    ENGINE_ERROR = "engine-error"
    NOT_APPLIED = "not-applied"
    # Sheet commands: who they name.
    UNKNOWN_CHARACTER = "unknown-character"
    AMBIGUOUS_CHARACTER = "ambiguous-character"
    NO_SHEET = "no-sheet"
    # Sheet commands: what they name, and whether it can be done.
    UNKNOWN_POOL = "unknown-pool"
    AMBIGUOUS_POOL = "ambiguous-pool"
    INSUFFICIENT = "insufficient"
    NO_TEMP = "no-temp"
    UNKNOWN_TRACK = "unknown-track"
    WRONG_TRACK = "wrong-track"
    UNKNOWN_KIND = "unknown-kind"
    NO_BOX = "no-box"
    UNKNOWN_CONDITION = "unknown-condition"
    UNKNOWN_STATE = "unknown-state"
    UNKNOWN_VALUE = "unknown-value"
    UNKNOWN_FIELD = "unknown-field"
    UNKNOWN_REST = "unknown-rest"
    UNSUPPORTED = "unsupported"
    # Using what a character has (`use`, `cast`).
    UNKNOWN_ENTRY = "unknown-entry"
    AMBIGUOUS_ENTRY = "ambiguous-entry"
    BAD_POOL = "bad-pool"
    # The stored live state would pass the Engine's bounds (64 characters, 64 KB).
    LIVE_STATE_FULL = "live-state-full"
    # The party sheet.
    UNKNOWN_SHEET = "unknown-sheet"
    WRONG_SHEET = "wrong-sheet"
    NO_ADVANCEMENT = "no-advancement"
    BAD_VALUE = "bad-value"
    # Checks.
    UNTRAINED = "untrained"
    UNKNOWN_DIFFICULTY = "unknown-difficulty"
    UNKNOWN_SKILL = "unknown-skill"
    # Progress clocks.
    NO_CLOCKS = "no-clocks"
    BAD_NAME = "bad-name"
    BAD_SIZE = "bad-size"
    BAD_AMOUNT = "bad-amount"
    UNKNOWN_CLOCK = "unknown-clock"
    CLOCK_EXISTS = "clock-exists"
    CLOCKS_FULL = "clocks-full"
    # Fights (`docs/fights.md`).
    NO_COMBAT = "no-combat"
    NO_FIGHT = "no-fight"
    FIGHT_RUNNING = "fight-running"
    FIGHT_OVER = "fight-over"
    UNKNOWN_OPPONENT = "unknown-opponent"
    NOT_YOUR_TURN = "not-your-turn"
    NO_BUDGET = "no-budget"
    UNKNOWN_OPTION = "unknown-option"
    NO_SUCH_TARGET = "no-such-target"
    TARGET_DOWN = "target-down"
    # Items, inventory and money (docs/inventory.md): the Engine's codes where it has them
    # (none-held, no-recipient), ours for what it has no tag for.
    NO_ITEMS = "no-items"
    NONE_HELD = "none-held"
    NO_RECIPIENT = "no-recipient"
    UNKNOWN_ITEM = "unknown-item"
    OVER_CAP = "over-cap"
    OVER_LIMIT = "over-limit"
    NOT_WEARABLE = "not-wearable"
    SLOT_FULL = "slot-full"
    NOT_BINDABLE = "not-bindable"
    BINDING_FULL = "binding-full"
    CURSED = "cursed"
    NOT_USABLE = "not-usable"
    NO_CHARGES = "no-charges"
    UNKNOWN_UNIT = "unknown-unit"
    WRONG_CURRENCY = "wrong-currency"
    UNKNOWN_TABLE = "unknown-table"
