"""Schemathesis drives every operation of the service's OpenAPI document with generated requests:
no request, however odd, gets a server error. Paths and bodies naming a chat are pointed at a
real one half the time, so generated replies, swipes and saves reach the engine."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from gm_tags.chats.served import ServedChats
from gm_tags.game import Game
from gm_tags.ruleset import load_ruleset
from gm_tags.service import create_app
from gm_tags.store import ChatExistsError
from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow  # a schema-driven run of every operation, about a minute

CREW = str(FIXTURES / "rulesets" / "crew-of-shadows.json")
HEIST = json.loads((FIXTURES / "games" / "crew-mid-heist.json").read_text("utf-8"))
START = Game.from_document(load_ruleset(CREW), HEIST)
CHAT = "heist"

# Starlette's test client (which schemathesis drives) names the host `testserver`.
app = create_app(
    Path(tempfile.mkdtemp()) / "schemathesis.sqlite", [CREW], allowed_hosts=["testserver"]
)
served: ServedChats = app.state.chats
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.hook
def map_case(context: Any, case: Any) -> Any:
    if case.path_parameters and "chat_id" in case.path_parameters:
        case.path_parameters["chat_id"] = CHAT
    if case.path == "/game/skill-check" and isinstance(case.body, dict) and "chatId" in case.body:
        case.body["chatId"] = CHAT
    return case


def there_is_a_heist() -> None:
    with contextlib.suppress(ChatExistsError):
        served.create(CHAT, {"path": CREW}, START)


@schema.parametrize()
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_no_request_gets_a_server_error(case: Any) -> None:
    there_is_a_heist()
    case.call_and_validate(checks=[not_a_server_error])
