"""The character sheet in play: a character's permanent build, its live state, and every value
worked out from them, as pure functions of (ruleset, build, live state)."""
