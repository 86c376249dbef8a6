"""The largest ruleset the format allows, built from the storyteller fixture."""

from __future__ import annotations

import copy
import json
from typing import Any

from tests.ruleset.corpus import RULESETS


def largest_ruleset() -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(
        json.loads((RULESETS / "storyteller.json").read_text(encoding="utf-8"))
    )
    sheet = data["sheet"]
    sheet["lists"] += [
        {
            "id": f"table_{n}",
            "label": f"Table {n}",
            "columns": [{"id": "name", "label": "Name", "type": "text", "required": True}]
            + [
                {"id": f"c{i}", "label": f"Column {i}", "type": "number", "min": 0, "max": 9}
                for i in range(23)
            ],
        }
        for n in range(19)
    ]
    sheet["live"]["states"] = [
        {
            "id": f"state_{n}",
            "label": f"State {n}",
            "values": [f"v{i}" for i in range(40)],
            "valueLabels": {f"v{i}": f"Value {i}" for i in range(40)},
        }
        for n in range(12)
    ]
    derived = sheet["derived"]
    while len(derived) < 800:
        n = len(derived)
        if n % 4 == 0:
            derived.append(
                {
                    "id": f"d{n}",
                    "label": f"D{n}",
                    "op": "enumTable",
                    "from": {"liveState": f"state_{n % 12}"},
                    "table": {f"v{i}": i for i in range(40)},
                }
            )
        elif n % 4 == 1:
            derived.append(
                {
                    "id": f"d{n}",
                    "label": f"D{n}",
                    "op": "sum",
                    "of": [
                        {"derived": derived[-1]["id"]},
                        {"abilityMod": "wits"},
                        {"listSum": {"list": f"table_{n % 19}", "column": "c3"}},
                    ],
                }
            )
        elif n % 4 == 2:
            derived.append(
                {
                    "id": f"d{n}",
                    "label": f"D{n}",
                    "op": "stepTable",
                    "from": {"derived": derived[-1]["id"]},
                    "table": [[i * 2, i] for i in range(20)],
                }
            )
        else:
            derived.append(
                {
                    "id": f"d{n}",
                    "label": f"D{n}",
                    "op": "max",
                    "of": [
                        {"derived": derived[-1]["id"]},
                        {"field": "willpower_rating"},
                        {"liveTrack": "health", "read": "penalty"},
                    ],
                }
            )
    return data
