"""Tools for people who pin what their ruleset does with the replies their model writes: a turn
rendered as a readable text (`render`), a syrupy extension that snapshots turns in that form
(`gm_tags.testing.snapshots`), a pytest plugin with a game fixture (`gm_tags.testing.plugin`), and
the folder runner behind `gm-tags test` (`gm_tags.testing.cases`). docs/testing.md shows them."""

from __future__ import annotations

from .render import PlayedTurn, TestGame, render

__all__ = ["PlayedTurn", "TestGame", "render"]
