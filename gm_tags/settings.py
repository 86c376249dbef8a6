"""Defaults the command line shows in its help and the library uses, kept where reading them costs
nothing (no engine, no pydantic)."""

from __future__ import annotations

# The chat store `replay`, `play` and `serve` use unless told otherwise: in the working folder.
DEFAULT_DB = "gm-tags.sqlite"
# The environment variable `serve` and `proxy` read their API keys from when given no --keys.
KEYS_ENVIRONMENT = "GM_TAGS_KEYS"
# The largest request body a server reads (the service and the proxy alike); a larger one is
# refused before it is read whole (docs/service.md).
MAX_BODY_BYTES = 2 * 1024 * 1024
