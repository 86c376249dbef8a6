"""Keys of the file's top level, resolution, the sheet, rests, the GM block, clocks and the party,
by the object they sit in (the model's name in the schema's `$defs`)."""

SHEET_OBJECTS: dict[str, dict[str, str]] = {
    "RulesetFile": {
        "schemaVersion": "The version of this file format: always 1.",
        "id": "The ruleset's id: lowercase words joined by single hyphens, at most 64; "
        "`engine-legacy` and `traditional` are reserved.",
        "version": "The ruleset's own version, a whole number from 1; raise it when you change "
        "the file.",
        "name": "The ruleset's name: prompt-safe, 1 to 80 characters.",
        "edition": "The edition of the game this ruleset follows.",
        "license": "The license the ruleset is published under (`spdx`, `attribution`).",
        "coverage": "Which parts of play the ruleset covers, and a one-paragraph summary.",
        "resolution": "How a check is resolved: `dice-sum` (dice plus a number against a "
        "difficulty) or `dice-pool` (count the dice at or above a target).",
        "sheet": "The character sheet: abilities, skills, saves, fields, derived values, lists "
        "and live state (pools, tracks, conditions, states).",
        "rests": "The rests (at most 12) and what each restores and clears.",
        "gm": "What the Game Master is told: check guidance, sheet and world guidance, who plays "
        "the opposition, the sheet summary.",
        "gmReference": "The rules reference the Game Master reads: prompt-safe, at most 16,000 "
        "characters.",
        "clocks": "Progress clocks: the sizes allowed, how many run at once, a line of guidance.",
        "party": "The party sheet: fields, pools and lists the whole group shares.",
        "catalogs": "Catalogs of entries (spells, gear, creatures) sheet lists pick rows from; "
        "an entry may carry `mechanics`, a `creature` or an `item`.",
        "items": "The item vocabulary (categories, rarities, stats, slots, currencies) and loot "
        "tables and a market.",
        "battle": "The Engine's battle block: carried as data.",
        "combat": "How a fight is resolved: health, defense, initiative, the attack roll, "
        "budgets, conditions and levels that change rolls, and the threat scale.",
        "layers": "Optional rule layers a game can switch on: each may change guidance, fields, "
        "the difficulty ladder and which catalog entries show.",
    },
    "License": {
        "spdx": "The SPDX license identifier, such as `CC-BY-4.0`.",
        "attribution": "The attribution text the license asks for.",
    },
    "Coverage": {
        "saves": "Whether the ruleset covers saves.",
        "sheet": "Whether the ruleset describes a character sheet.",
        "resources": "Whether the ruleset tracks resources (pools, money, supplies).",
        "rests": "Whether the ruleset describes rests.",
        "combat": "Whether the ruleset resolves fights.",
        "summary": "What the ruleset covers, in a prompt-safe line of at most 400 characters.",
    },
    "DiceSum": {
        "kind": "`dice-sum`: dice plus a number against a difficulty's `dc`.",
        "dice": "The dice a check throws (default 1d20).",
        "advantage": "Whether the ruleset has advantage and disadvantage (two dice, keep one).",
        "naturals": "Which natural faces make a check or save a critical success or failure.",
        "spend": "Not part of a sum ruleset: refused (a spend buys dice or successes on a pool).",
        "difficultyLadder": "The named difficulties (1 to 12), each with the `dc` a check must "
        "reach.",
    },
    "DicePool": {
        "kind": "`dice-pool`: throw a pool of dice and count the faces at or above the target.",
        "die": "The die the pool throws (default a d10).",
        "pool": "How big a pool may be (`min`, `max`), and whether it is ability plus ability.",
        "target": "The face a die must reach to count: its `default`, and how far it may move.",
        "double": "Faces that count as two successes (`from`, `min`).",
        "explode": "Faces that throw another die (`from`, `min`).",
        "cancel": "Faces that take away a success (`upTo`).",
        "botch": "When a check is a botch: faces up to `upTo` and the `rule`.",
        "exceptional": "The successes that make a success exceptional.",
        "situationalDice": "How many dice a check's `bonus=` may add or take away.",
        "reroll": "Named re-throws (at most 6) a check's `reroll=` may ask for.",
        "spend": "What a pool may buy on a check (at most 4, one per pool): successes, dice or a "
        "re-throw.",
        "difficultyLadder": "The named difficulties (1 to 12), each with the successes a check "
        "needs and an optional target face.",
    },
    "IdentityModifier": {"op": "`identity`: the ability's score is its modifier."},
    "HalfMinusTenModifier": {
        "op": "`floorHalfMinusTen`: the modifier is (score - 10) / 2, rounded down."
    },
    "StepTableModifier": {
        "op": "`stepTable`: the modifier is looked up in `table`.",
        "table": "Ascending `[score, modifier]` pairs: a score takes the last pair at or below it.",
    },
    "Proficiency": {
        "bonus": "The proficiency bonus a tier's `multiplier` multiplies (a value reference)."
    },
    "ProficiencyTier": {
        "multiplier": "How many times the proficiency bonus this tier adds (0 for untrained).",
        "flat": "A fixed amount this tier adds, beside or instead of the multiplier.",
    },
    "Adjust": {
        "value": "The number added to checks (a value reference).",
        "abilities": "Only checks on these abilities (ids of `sheet.abilities`); all when left "
        "out.",
    },
    "Dice": {"count": "How many dice (1 to 10).", "sides": "How many sides each die has."},
    "gm_tags__ruleset__resolution__Naturals": {
        "check": "Which natural faces decide a check: `none`, `both`, `max-only`, `min-only`.",
        "save": "Which natural faces decide a save: `none`, `both`, `max-only`, `min-only`.",
    },
    "SumStep": {
        "label": "The difficulty's name, as a check's `difficulty=` gives it.",
        "dc": "The number a check of this difficulty must reach.",
    },
    "PoolStep": {
        "label": "The difficulty's name, as a check's `difficulty=` gives it.",
        "successes": "The successes a check of this difficulty needs.",
        "target": "The target face at this difficulty, when it moves from the default.",
    },
    "Die": {"sides": "How many sides the pool's die has."},
    "PoolSize": {
        "min": "The fewest dice a pool throws.",
        "max": "The most dice a pool throws.",
        "abilityPlusAbility": "Whether a pool is two abilities added together.",
    },
    "Target": {
        "default": "The target face when nothing moves it.",
        "min": "The lowest the target may move to.",
        "max": "The highest the target may move to.",
    },
    "FaceRule": {
        "from": "The lowest face the rule applies to.",
        "min": "The lowest the `from` face may move to.",
    },
    "UpTo": {"upTo": "Faces up to and including this number cancel a success."},
    "Botch": {
        "upTo": "Faces up to and including this number are botch faces.",
        "rule": "When a check botches: `noSuccesses` (a botch face and no success) or "
        "`halfOrMore` (half the dice or more botch faces).",
    },
    "Exceptional": {"successes": "The successes that make a success exceptional."},
    "SituationalDice": {
        "min": "The most dice a check's `bonus=` may take away (0 or below).",
        "max": "The most dice a check's `bonus=` may add.",
    },
    "Reroll": {"upTo": "Dice showing up to this face are thrown again."},
    "NamedReroll": {
        "id": "The name a check's `reroll=` uses.",
        "upTo": "Dice showing up to this face are thrown again.",
    },
    "Spend": {
        "pool": "The pool spent (a live pool that starts full).",
        "amount": "How much of the pool one purchase costs.",
        "successes": "Successes one purchase adds.",
        "dice": "Dice one purchase adds to the pool.",
        "reroll": "A re-throw one purchase buys.",
        "perCheck": "The most purchases on one check: a number, `pool` (the check's own dice) or "
        "a value reference.",
    },
    "Sheet": {
        "version": "The sheet's own version: raise it when stored sheets need converting.",
        "sections": "The sheet's sections (at most 20): headings fields and skills sit under.",
        "abilities": "The abilities (at most 20), each with a score range and a default.",
        "skills": "The skills (at most 120), each on an ability.",
        "saves": "The saves (at most 40), each on an ability.",
        "skillTiers": "The proficiency tier ids a skill may have (ids of "
        "`resolution.proficiencyTiers`).",
        "saveTiers": "The proficiency tier ids a save may have.",
        "bonusRange": "The range a skill or save bonus may take.",
        "fields": "Fields the player fills in (at most 160): number, text, longtext, boolean, "
        "enum or dice.",
        "derived": "Values worked out from others (at most 800), top to bottom: each reads only "
        "what is declared above it.",
        "lists": "Lists of rows (at most 20), such as gear, spells or contacts.",
        "live": "What changes in play: pools, tracks, text, conditions and states.",
    },
    "Section": {"untrained": "How a skill in this section rolls untrained: `{by: n}` adds n."},
    "UntrainedBy": {"by": "What an untrained roll adds (a negative number takes away)."},
    "Ability": {
        "short": "The ability's short name (`NRV`), for the sheet and for check tags.",
        "min": "The lowest score.",
        "max": "The highest score.",
        "default": "The score a new character starts with.",
    },
    "Skill": {
        "ability": "The ability the roll adds (`sheet.abilities[]`).",
        "cap": "The most the rating may be (a value reference).",
        "untrained": "How the roll goes untrained: `{by: n}` adds n.",
    },
    "BonusRange": {"min": "The lowest bonus.", "max": "The highest bonus."},
    "HideWhen": {
        "field": "The field whose value decides.",
        "equals": "Hide while the field equals this.",
        "notEquals": "Hide while the field is anything but this.",
        "in": "Hide while the field holds one of these.",
    },
    "NumberColumn": {"roll": "Dice the row throws for this number (`count`, `sides`)."},
    "ColumnRoll": {
        "count": "How many dice.",
        "sides": "Sides per die: a number, `{column}` naming a number or dice-like enum column, "
        "or a value reference.",
    },
    "SidesFromColumn": {
        "column": "The column holding the sides (a number, or an enum whose "
        "values read as dice like `d8`)."
    },
    "SheetList": {
        "maxItems": "The most rows the list holds (at most 500).",
        "columns": "The list's columns (1 to 24).",
        "pools": "Rows that are pools of their own: the name, maximum and recharge columns.",
    },
    "RowPools": {
        "nameColumn": "The column naming the pool (text or enum).",
        "maxColumn": "The number column holding the pool's maximum.",
        "rechargeColumn": "The column naming when the pool comes back (a rest's id).",
    },
    "SumDerived": {"op": "`sum`: adds the values in `of`.", "of": "1 to 12 value references."},
    "MinDerived": {"op": "`min`: the smallest of `of`.", "of": "2 to 12 value references."},
    "MaxDerived": {"op": "`max`: the largest of `of`.", "of": "2 to 12 value references."},
    "MultiplyDerived": {"op": "`multiply`: the product of `of`.", "of": "2 to 6 value references."},
    "ScaleDerived": {
        "op": "`scale`: `of` times `multiplier`, rounded by `round`.",
        "of": "The value scaled (a value reference).",
    },
    "StepTableDerived": {
        "op": "`stepTable`: looks `from` up in `table`.",
        "from": "The value looked up (a value reference).",
        "table": "Ascending `[threshold, value]` pairs: a value takes the last pair at or "
        "below it.",
    },
    "EnumTableDerived": {
        "op": "`enumTable`: the number `table` gives the value `from` holds.",
        "from": "The enum field or live state read.",
        "table": "Value -> number (1 to 40 rows, each a value the source holds).",
        "default": "The number when the source holds a value the table leaves out.",
    },
    "EnumTableFrom": {
        "field": "An enum field (`sheet.fields[]`).",
        "liveState": "A live state (`sheet.live.states[]`).",
    },
    "Live": {
        "pools": "Pools (at most 60): numbers that go down and come back.",
        "tracks": "Tracks (at most 30): harm, stress and wound tracks.",
        "text": "Short texts that change in play (at most 12), such as a current goal.",
        "conditions": "Conditions (at most 80) a character can have on or off.",
        "states": "States (at most 12): one value of a few, such as a stance.",
    },
    "Pool": {
        "max": "The pool's maximum (a value reference).",
        "allowTemp": "Whether the pool may hold temporary points above its maximum.",
        "group": "A group id several pools share, so a rest can restore them together.",
        "start": "Whether a new character's pool starts `full` (default) or `empty`.",
    },
    "Track": {
        "min": "The track's lowest value.",
        "max": "The track's highest value (a number or a value reference).",
        "default": "The value a new character starts at.",
        "levels": "Named levels (1 to 16), each with the penalty it puts on rolls.",
        "kinds": "Kinds of marks a wound track takes (1 to 6), each with a severity.",
        "boxes": "A box track's penalty table.",
        "fill": "How a wound track fills: `sequential` or `indexed` (the amount names the box).",
        "onFull": "What a mark on a full track does: `upgrade` a lesser mark, or `refuse`.",
        "extra": "A list whose rows add levels to the track.",
        "alwaysShow": "Show the track in the sheet block even when it is empty.",
    },
    "Level": {
        "label": "The level's name.",
        "penalty": "What the level takes off rolls (0 or below).",
    },
    "Kind": {
        "label": "The kind's name.",
        "severity": "How bad this kind of mark is: a worse mark can upgrade a lesser one.",
    },
    "Boxes": {"penalty": "The penalty the filled or remaining boxes put on rolls."},
    "BoxPenalty": {
        "by": "Whether the table reads the `filled` or the `remaining` boxes.",
        "table": "Ascending `[boxes, penalty]` pairs.",
    },
    "Extra": {
        "list": "The list whose rows add levels.",
        "countColumn": "The column with how many levels a row adds.",
        "penaltyColumn": "The column with the penalty of the levels a row adds.",
    },
    "LiveText": {"maxLength": "The most characters the text may hold (at most 500)."},
    "State": {
        "values": "The values the state may hold (2 to 40, unique, no double quote).",
        "default": "The value a new character starts with.",
    },
    "Condition": {},
    "ValueRef": {
        "const": "A fixed number.",
        "field": "A number or boolean field's value.",
        "derived": "A derived value.",
        "abilityScore": "An ability's score.",
        "abilityMod": "An ability's modifier.",
        "abilityModFromField": "The modifier of the ability an enum field names.",
        "skillMod": "A skill's bonus.",
        "saveMod": "A save's bonus.",
        "listSum": "The sum of a number column of a list.",
        "livePool": "A live pool's current value.",
        "liveTrack": "A live track, read as `read` says.",
        "read": "How a track is read: `value`, `filled`, `remaining`, or `penalty` (wound tracks "
        "only).",
        "itemStat": "A stat of the items a character wears or carries (needs an `items` block).",
    },
    "ListSumRef": {"column": "The number column summed."},
    "ItemStatRef": {
        "stat": "The item stat read (`items.stats[]`); left out with `pick: count`.",
        "from": "Which items: `worn`, `carried` or `all`.",
        "pick": "How the items' stats combine: `sum`, `max`, `min` or `count`.",
        "slot": "Only items worn in this slot.",
        "category": "Only items of this category.",
        "tag": "Only items carrying this tag.",
        "default": "The value when no item counts.",
    },
    "Rest": {
        "restore": "The restore steps, in order.",
        "clear": "What the rest clears: conditions and texts.",
    },
    "RestoreStep": {
        "pool": "Restore this pool.",
        "poolGroup": "Restore every pool of this group.",
        "listPools": "Restore the row pools of this list.",
        "track": "Restore this track.",
        "state": "Set this live state.",
        "recharge": "Only row pools whose recharge column holds one of these.",
        "kind": "On a wound track, only marks of this kind.",
        "shared": "On a pool group, the fraction is of the group's total, shared out.",
        "to": "Set the target to this: `max`, `min`, a number, or a state's value.",
        "by": "Change the target by this: `{const}` or `{fractionOfMax, round, min}`.",
    },
    "ConstStep": {"const": "The amount restored (negative takes away)."},
    "FractionStep": {
        "fractionOfMax": "Restore this fraction of the maximum (`0.5`).",
        "min": "At least this much.",
    },
    "Clear": {
        "text": "Live texts emptied.",
        "conditions": "Conditions cleared: `all` or a list of ids.",
    },
    "Gm": {
        "checkGuidance": "When and how the Game Master calls for checks.",
        "sheetGuidance": "How the Game Master reads and changes sheets.",
        "worldGuidance": "The world's tone and facts the Game Master keeps.",
        "opposition": "Who plays the other side of a fight: `game-master` or `engine`.",
        "sheetSummary": "What each character's sheet block shows the Game Master.",
    },
    "SheetSummary": {
        "fields": "Field ids shown (at most 24).",
        "derived": "Derived value ids shown (at most 24).",
        "lists": "Lists shown, each by its name column (at most 8).",
    },
    "SummaryList": {
        "nameColumn": "The column that names each row.",
        "columns": "Up to 3 more columns shown beside the name.",
        "groupBy": "A column rows are grouped by.",
    },
    "Clocks": {
        "sizes": "The segment counts a clock may have.",
        "max": "The most clocks running at once (at most 12, default 8).",
        "text": "A line of guidance on clocks for the Game Master.",
    },
    "Party": {
        "label": "What the party is called (`Crew`).",
        "fields": "Party fields (at most 160), in the sheet's field shapes.",
        "pools": "Party pools (at most 60).",
        "lists": "Party lists (at most 12).",
        "advancement": "The fields that track the party's advancement.",
        "summary": "What the party block shows the Game Master.",
        "builder": "The Engine's party builder: checked against the party's lists and fields, "
        "carried as data.",
        "fromMembers": "Party fields worked out from the members: a `count` of them or a `sum` "
        "of a character field.",
    },
    "Advancement": {"fields": "The party fields that track advancement (1 to 40)."},
    "FromMembers": {
        "field": "The party number field written.",
        "count": "`true`: the field counts the members.",
        "sum": "A character number field summed over the members.",
    },
}
