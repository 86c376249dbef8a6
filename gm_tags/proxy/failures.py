"""What goes wrong on the hop, said once for every protocol: a request the proxy does not take,
an upstream that cannot be reached or does not answer in time. Each protocol writes a
`ProxyError` in its own error shape (`gm_tags.proxy.protocols`); the app's exception handlers
pick the shape by the path the request came in on."""

from __future__ import annotations

from .clients import UpstreamError, UpstreamTimeout

# The neutral kinds of failure, named as OpenAI names them; a protocol maps them to its own.
INVALID = "invalid_request_error"
UNAUTHORIZED = "authentication_error"
UPSTREAM = "upstream_error"
TIMEOUT = "timeout"


class ProxyError(Exception):
    """An answer the client gets instead of the model's: the status, the message, the kind of
    failure (one of the kinds above), the request's parameter at fault and a code, if any."""

    def __init__(
        self,
        status: int,
        message: str,
        kind: str = INVALID,
        param: str | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.message, self.kind = status, message, kind
        self.param, self.code = param, code


def upstream_failure(failure: UpstreamError) -> ProxyError:
    """The upstream could not be asked: 504 when it did not answer in time, else 502."""
    if isinstance(failure, UpstreamTimeout):
        return ProxyError(
            504, "the upstream did not answer in time", TIMEOUT, code="upstream_timeout"
        )
    return ProxyError(502, f"the upstream cannot be reached: {failure}", UPSTREAM)
