"""The typed commands tags bind to, one module per family (the binders are the families':
`gm_tags.families.<name>.bind`), and what every binder shares (`common`): the request a receipt
writes back, the refusal a binder returns, dropping the attributes the engine owns."""

from .common import OUTCOME_KEYS, Refused, Request

__all__ = ["OUTCOME_KEYS", "Refused", "Request"]
