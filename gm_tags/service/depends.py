"""The chats a request may reach, as a FastAPI dependency: its tenant's (`TenantChats`), the
tenant set by the guard middleware (gm_tags.guard.http) from the request's key."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..chats.tenancy import TenantChats


def tenant_chats(request: Request) -> TenantChats:
    return TenantChats(request.app.state.chats, request.state.tenant)


Tenant = Annotated[TenantChats, Depends(tenant_chats)]
