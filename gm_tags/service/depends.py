"""What an operation reads from the app, as FastAPI dependencies: the chats a request may reach
(its tenant's `TenantChats`, the tenant set by the guard middleware, gm_tags.guard.http, from the
request's key) and the rulesets the service was started with."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..chats.tenancy import TenantChats
from ..ruleset import Ruleset


def tenant_chats(request: Request) -> TenantChats:
    return TenantChats(request.app.state.chats, request.state.tenant)


Tenant = Annotated[TenantChats, Depends(tenant_chats)]


# The rulesets `gm-tags serve --ruleset` installed, by id: where each came from and the ruleset.
InstalledRulesets = dict[str, tuple[str, Ruleset]]


def installed_rulesets(request: Request) -> InstalledRulesets:
    rulesets: InstalledRulesets = request.app.state.rulesets
    return rulesets


Installed = Annotated[InstalledRulesets, Depends(installed_rulesets)]
