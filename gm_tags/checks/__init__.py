"""Checks: the Game Master names a skill, a save or an ability and a difficulty; the engine rolls
its own dice and does all the arithmetic from the sheet, under the ruleset's resolution kind."""
