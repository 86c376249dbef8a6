"""How the proxy asks its upstream, whichever HTTP library does it: a request sent (`send`)
gives an `Answer` (its status, its headers, its body as raw bytes as each network read completes,
or whole), and a failure to reach the upstream or to read it is an `UpstreamError`
(`UpstreamTimeout` when it did not answer in time), which `gm_tags.proxy.failures` turns into
the client's answer.

A network upstream is asked through aiohttp (`AiohttpClient`): relaying a reply costs it a third
of the CPU httpx2 spends, and a bare hop on it adds 1 to 3 ms to the first token where one on
httpx2 adds 5 to 9 ms (docs/proxy.md, "Measured"); the first token's goal, 2 ms after the
upstream's, is out of reach on httpx2 alone. httpx2 stays where a transport object answers
in-process (`HttpxClient`): the `replay:` upstream and the tests' scripted upstreams.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import ssl
import urllib.request
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import unquote, urlsplit, urlunsplit

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
        self._base, self._login = _without_login(base_url.rstrip("/") + "/")
        self._proxy = _environment_proxy(self._base)
        self._timeout = aiohttp.ClientTimeout(
            total=None, connect=read, sock_connect=connect, sock_read=read
        )
        self._tls = _tls_context()  # as the app is built, not on its first request
        self._session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _session_here(self) -> aiohttp.ClientSession:
        """The session of the running loop: one made in a loop since closed (an app served again,
        or run in a loop per request) cannot be used, so another is made."""
        loop = asyncio.get_running_loop()
        if self._session is None or self._loop is not loop or self._session.closed:
            if self._session is not None:
                self._session.detach()  # its loop is gone: nothing there can be awaited
            # What httpx2 did, kept: its trust store (the system's, through truststore), headers
            # as long as h11 read them, the environment's proxy settings read above (not
            # trust_env, which also adds ~/.netrc logins beside the client's own key), and no
            # redirect followed.
            self._session = aiohttp.ClientSession(
                timeout=self._timeout,
                connector=aiohttp.TCPConnector(ssl=self._tls),
                max_line_size=_LONGEST_HEAD,
                max_field_size=_LONGEST_HEAD,
            )
            self._loop = loop
        return self._session

    async def send(self, request: Outgoing) -> Answer:
        session = self._session_here()
        url = self._base + request.path.lstrip("/")
        headers = dict(request.headers)
        if self._login is not None:
            # A login in the base URL is sent as httpx2 sent it: in place of the client's.
            headers = {k: v for k, v in headers.items() if k.lower() != "authorization"}
            headers["Authorization"] = self._login
        try:
            answer = await session.request(
                request.method,
                url,
                headers=headers,
                data=request.body,
                proxy=self._proxy,
                allow_redirects=False,
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


# The longest status line or header an upstream may send (aiohttp's own limit is 8,190 bytes).
_LONGEST_HEAD = 1 << 20


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """httpx2's TLS context, made once a process: loading the system's trust store took the
    first request after a start 0.1 to 0.6 s (docs/proxy.md, "Measured")."""
    return httpx2.create_ssl_context()


def _without_login(url: str) -> tuple[str, str | None]:
    """`url` without the `user:password@` it may hold, and that login as a Basic header."""
    parts = urlsplit(url)
    if parts.username is None:
        return url, None
    login = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
    host = parts.netloc.rpartition("@")[2]
    bare = urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))
    return bare, "Basic " + base64.b64encode(login).decode("ascii")


def _environment_proxy(url: str) -> str | None:
    """The proxy the environment names for `url` (`HTTP_PROXY`, `HTTPS_PROXY`, `ALL_PROXY`, each
    in either case, and `NO_PROXY`), as httpx2 read them."""
    parts = urlsplit(url)
    if parts.hostname is None or urllib.request.proxy_bypass(parts.netloc):
        return None
    proxies = urllib.request.getproxies()
    return proxies.get(parts.scheme) or proxies.get("all")


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
