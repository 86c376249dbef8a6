"""Binding a parsed tag to a typed command: where a malformed request becomes a refusal."""

from .common import OUTCOME_KEYS, Refused, Request

__all__ = ["OUTCOME_KEYS", "Refused", "Request"]
