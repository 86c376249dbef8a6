"""Fights by the ruleset's own `combat` block (`docs/fights.md`): the encounter as plain state
(`encounter`), who is in it (`roster`), their health read and written through the sheet's own
operations (`health`), the options of whoever acts and a blow's arithmetic (`options`, `blows`),
and the `[fight:]` commands run against a game (`run`)."""
