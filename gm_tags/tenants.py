"""Whose a chat is. Every chat belongs to one tenant; a request sees only its tenant's chats.

A server without keys serves one tenant, `default`, and so do chats stored before tenants
existed. Chat ids are chosen by clients, so two tenants may each name a chat `table-1`: the store
keeps a chat of another tenant under `tenant/id` (a `/` never appears in a chat id a client can
name), and its `tenant` column says whose each row is, for listing. The default tenant's chats
keep their ids as they are, so a store from before tenants reads as it did.
"""

from __future__ import annotations

import re

DEFAULT_TENANT = "default"
SEPARATOR = "/"
TENANT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


def tenant_problem(name: str) -> str | None:
    """Why `name` cannot name a tenant, or None."""
    if TENANT_NAME.fullmatch(name) is None:
        return "a tenant is 1 to 40 ASCII letters, digits and - _ . (a letter or digit first)"
    return None


def stored_id(tenant: str, chat_id: str) -> str:
    """The id the store keeps a tenant's chat under."""
    return chat_id if tenant == DEFAULT_TENANT else f"{tenant}{SEPARATOR}{chat_id}"


def shown_id(tenant: str, stored: str) -> str:
    """The id a tenant knows its chat by (the inverse of `stored_id`)."""
    return stored if tenant == DEFAULT_TENANT else stored[len(tenant) + len(SEPARATOR) :]


def tenant_of(stored: str) -> str:
    """Whose the chat stored under `stored` is."""
    tenant, separator, _ = stored.partition(SEPARATOR)
    return tenant if separator else DEFAULT_TENANT


def chat_part(stored: str) -> str:
    """The part of a stored id its tenant chose."""
    return stored.rpartition(SEPARATOR)[2]
