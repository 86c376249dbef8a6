"""Chats as every front door serves them (the REST service, the proxy, and any other):

- `served`: `ServedChats`, the chats one process serves, each step written to the store before
  it is answered, steps on one chat one at a time, a chat another worker changed read again;
- `tenancy`: `TenantChats`, one tenant's view of them, the only way a request reaches a chat;
- `transcript`: what a conversation says whatever protocol carried it (`Said`), and the chat key
  and lines it belongs to;
- `walk`, `retell`, `plan`: which stored line and snapshot a conversation lands on, the
  transcript being the truth (`plan.plan_step`; docs/proxy.md says it with examples).
"""

from __future__ import annotations

from .served import RETRIES, ServedChats
from .tenancy import TenantChats
from .transcript import Said, chat_key

__all__ = ["RETRIES", "Said", "ServedChats", "TenantChats", "chat_key"]
