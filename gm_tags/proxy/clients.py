"""How the proxy asks its upstream, whichever HTTP library does it: a request sent (`send`)
gives an `Answer` (its status, its headers, its body as raw bytes as each network read completes,
or whole), and a failure to reach the upstream or to read it is an `UpstreamError`
(`UpstreamTimeout` when it did not answer in time), which `gm_tags.proxy.failures` turns into
the client's answer.

A network upstream is asked through aiohttp (`AiohttpClient`): relaying a reply costs it a third
of the CPU httpx2 spends, and a bare hop on it adds ~0.1 ms to the first token where one on httpx2
adds ~5 ms (docs/proxy.md, "Measured"); the first token's goal, 2 ms after the upstream's, is out
of reach on httpx2 alone. httpx2 stays where a transport object answers in-process
(`HttpxClient`): the `replay:` upstream and the tests' scripted upstreams.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Protocol

import aiohttp
import httpx2


class UpstreamError(Exception):
    """The upstream could not be reached, or its answer could not be read to its end. `name`
    says how, in the words a stream's error event gives it (`ReadTimeout`, `ConnectError`,
    `RemoteProtocolError`, ...)."""

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


class UpstreamTimeout(UpstreamError):
    """The upstream did not answer, or send the next piece of its answer, in time."""


@dataclass(frozen=True)
class Outgoing:
    """A request to the upstream: `path` is under its base URL; `stream` leaves the answer's body
    to read as it comes."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: bytes | None = None
    stream: bool = False


class Answer(Protocol):
    """The upstream's answer to one request, its body read as the caller asks."""

    @property
    def status(self) -> int: ...

    @property
    def reason(self) -> str: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    def chunks(self) -> AsyncIterator[bytes]:
        """The body's bytes as each network read completes (an `UpstreamError` when it breaks)."""
        ...

    async def read(self) -> bytes:
        """The whole body (read at once when the request was not streamed)."""
        ...

    async def close(self) -> None:
        """The answer let go: its connection back in the pool, or closed when not read to its end
        (the upstream stops writing a reply no one reads)."""
        ...


class UpstreamClient(Protocol):
    """One upstream's connections: requests sent on them, closed with the app."""

    async def send(self, request: Outgoing) -> Answer:
        """The answer to `request`; when it streams, its body is still to read."""
        ...

    async def close(self) -> None: ...


class HttpxClient:
    """An `UpstreamClient` over an `httpx2.AsyncClient` (the replay's transport, the tests')."""

    def __init__(self, client: httpx2.AsyncClient) -> None:
        self._client = client

    async def send(self, request: Outgoing) -> Answer:
        method, path, headers, body = request.method, request.path, request.headers, request.body
        outgoing = self._client.build_request(method, path, content=body, headers=headers)
        try:
            return _HttpxAnswer(await self._client.send(outgoing, stream=request.stream))
        except httpx2.HTTPError as failure:
            raise _httpx_failure(failure) from failure

    async def close(self) -> None:
        await self._client.aclose()


class _HttpxAnswer:
    def __init__(self, answer: httpx2.Response) -> None:
        self._answer = answer
        self.status, self.reason = answer.status_code, answer.reason_phrase
        self.headers: Mapping[str, str] = answer.headers

    async def chunks(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._answer.aiter_bytes():
                yield chunk
        except httpx2.HTTPError as failure:
            raise _httpx_failure(failure) from failure

    async def read(self) -> bytes:
        try:
            return await self._answer.aread()
        except httpx2.HTTPError as failure:
            raise _httpx_failure(failure) from failure

    async def close(self) -> None:
        await self._answer.aclose()


def _httpx_failure(failure: httpx2.HTTPError) -> UpstreamError:
    kind = UpstreamTimeout if isinstance(failure, httpx2.TimeoutException) else UpstreamError
    return kind(str(failure), type(failure).__name__)


class AiohttpClient:
    """An `UpstreamClient` over one `aiohttp.ClientSession` (one pool of connections), opened on
    the first request (in the event loop that serves: a session belongs to its loop). The
    timeouts are httpx2's as the proxy had them: `connect` to set a connection up, `read` for each
    read of the answer, none on the whole (a stream may run as long as it keeps coming)."""

    def __init__(self, base_url: str, *, connect: float, read: float) -> None:
        self._base = base_url.rstrip("/") + "/"
        self._timeout = aiohttp.ClientTimeout(
            total=None, connect=read, sock_connect=connect, sock_read=read
        )
        self._session: aiohttp.ClientSession | None = None

    async def send(self, request: Outgoing) -> Answer:
        if self._session is None:
            # trust_env: the proxy settings in the environment hold, as they did with httpx2.
            self._session = aiohttp.ClientSession(timeout=self._timeout, trust_env=True)
        url = self._base + request.path.lstrip("/")
        try:
            answer = await self._session.request(
                request.method, url, headers=request.headers, data=request.body
            )
        except (TimeoutError, aiohttp.ClientError) as failure:
            raise _aiohttp_failure(failure, "ConnectError") from failure
        kept = _AiohttpAnswer(answer)
        if not request.stream:
            try:
                await kept.read()
            finally:
                await kept.close()
        return kept

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()


class _AiohttpAnswer:
    def __init__(self, answer: aiohttp.ClientResponse) -> None:
        self._answer = answer
        self.status, self.reason = answer.status, answer.reason or ""
        self.headers: Mapping[str, str] = answer.headers
        self._body: bytes | None = None

    async def chunks(self) -> AsyncIterator[bytes]:
        if self._body is not None:
            yield self._body
            return
        try:
            async for chunk in self._answer.content.iter_any():
                yield chunk
        except (TimeoutError, aiohttp.ClientError) as failure:
            raise _aiohttp_failure(failure, "ReadError") from failure

    async def read(self) -> bytes:
        if self._body is None:
            try:
                self._body = await self._answer.read()
            except (TimeoutError, aiohttp.ClientError) as failure:
                raise _aiohttp_failure(failure, "ReadError") from failure
        return self._body

    async def close(self) -> None:
        if self._answer.content.is_eof():
            self._answer.release()
        else:
            self._answer.close()  # not read to its end: the upstream stops writing


def _aiohttp_failure(failure: Exception, stage: str) -> UpstreamError:
    """aiohttp's failure named as httpx2 names it (what a stream's error event has said)."""
    if isinstance(failure, TimeoutError):
        name = "ConnectTimeout" if stage == "ConnectError" else "ReadTimeout"
        return UpstreamTimeout(str(failure) or name, name)
    if isinstance(failure, aiohttp.ClientConnectorError):
        return UpstreamError(str(failure), "ConnectError")
    if isinstance(failure, aiohttp.ServerDisconnectedError | aiohttp.ClientPayloadError):
        return UpstreamError(str(failure), "RemoteProtocolError")
    return UpstreamError(str(failure), stage)
