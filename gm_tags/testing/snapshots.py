"""A syrupy extension that snapshots turns as readable text, one `.txt` file per snapshot:

    def test_the_alarm(snapshot, gm_game):
        game = gm_game("rulesets/heist.json", "games/start.json")
        assert game.play(REPLY) == snapshot(extension_class=TurnSnapshotExtension)

The pytest plugin's `turn_snapshot` fixture is `snapshot` with this extension on.
"""

from __future__ import annotations

from typing import Any

from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from .render import PlayedTurn, render


class TurnSnapshotExtension(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "turn.txt"

    @classmethod
    def get_snapshot_name(cls, *, test_location: Any, index: Any = 0) -> str:
        """A file name even when a test's parameters hold a path (`en/alarm.txt`)."""
        name = super().get_snapshot_name(test_location=test_location, index=index)
        return name.replace("/", "-").replace("\\", "-")

    def serialize(self, data: Any, **kwargs: Any) -> Any:
        if isinstance(data, PlayedTurn):
            return render(data)
        return super().serialize(data, **kwargs)
