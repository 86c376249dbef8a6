"""What changes or reads a sheet outside a reply: a rest, a save of the shared party sheet, and
a skill check rolled as the Engine's endpoint rolls it."""

from __future__ import annotations

import dataclasses

from fastapi import APIRouter

from .depends import Tenant
from .errors import ERRORS, Refused
from .models import EditOut, PartyOut, PartySaveIn, RestIn, SkillCheckIn, SkillCheckOut

router = APIRouter(responses=ERRORS)


@router.post("/games/{chat_id}/rest")
def rest(chat_id: str, body: RestIn, chats: Tenant) -> EditOut:
    """Take a rest outside a reply (`who="party"` for everyone); a refused rest changes
    nothing and is answered 200 with its reason, as its receipt would say."""
    chat, edit = chats.step(chat_id, lambda chat: chat.rest(body.rest, body.who))
    return EditOut.of(chat, edit)


@router.post("/games/{chat_id}/party-sheet")
def save_party_sheet(chat_id: str, body: PartySaveIn, chats: Tenant) -> PartyOut:
    """Save a draft of the shared sheet opened at `revision`. A stale save is answered 409
    with the newer sheet and the draft kept."""
    chat, saved = chats.step(chat_id, lambda chat: chat.save_party_sheet(body.draft, body.revision))
    answer = PartyOut(
        saved=saved.saved,
        sheet=saved.sheet,
        revision=chat.game.party_revision,
        draft=saved.draft,
    )
    if saved.problems:
        raise Refused(422, "party_sheet_invalid", "the draft does not fit", problems=saved.problems)
    if not saved.saved:
        raise Refused(
            409, "party_sheet_stale", "opened at an older revision", more=answer.model_dump()
        )
    return answer


@router.post("/game/skill-check")
def skill_check(body: SkillCheckIn, chats: Tenant) -> SkillCheckOut:
    """Roll a check for a character of a chat as the sheet stands now, as the Engine's
    endpoint does. The game is not changed."""
    if body.pre_rolled_d20 is not None:
        raise Refused(400, "refused", "gm-tags rolls its own dice; send no preRolledD20")
    # Both together cancel into a normal roll, as neither does.
    mode = None
    if body.advantage != body.disadvantage:
        mode = "advantage" if body.advantage else "disadvantage"
    game = chats.read(body.chat_id).game
    record = game.check(
        body.who, body.skill, dc=body.dc, difficulty=body.difficulty, mode=mode, seed=body.seed
    )
    # The record's fields under the names its tag uses, the unset ones left out.
    fields = dataclasses.asdict(record)
    fields["with"] = fields.pop("with_")
    result = {key: value for key, value in fields.items() if value is not None}
    result.update(tag=record.tag, summary=record.summary)
    return SkillCheckOut(result=result)
