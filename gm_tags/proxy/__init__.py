"""The OpenAI-compatible proxy (`gm-tags proxy`); needs the `proxy` extra."""

from __future__ import annotations

from .app import create_proxy_app

__all__ = ["create_proxy_app"]
