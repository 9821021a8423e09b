"""The official SDKs as the model clients' transport: `openai.AsyncOpenAI`, `anthropic.AsyncAnthropic`.

The SDK carries what it knows better than we do: the base URL and the authentication a
user configured (their own client object: Azure, Bedrock, Vertex, a proxy, extra headers),
its user agent, and the API's request shapes. What stays ours: the retry policy (the SDK's
own retries are off, `max_retries=0`; `models/retry.py` retries within its budget and
honours a sane `Retry-After`), the size cap of an answer, and reading the reply (the body
is taken raw, `cast_to=httpx2.Response`, and read by the client as before, so a
server that answers outside the SDK's response type, as OpenAI-compatible servers do, still
works).

Both SDKs speak `httpx2`; an answer is handed to the retry loop as an `httpx.Response`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import httpx2

from webfovea.models.outbound import outbound
from webfovea.models.retry import MAX_RESPONSE_BYTES, ConnectionFailed, ResponseTooLarge, too_large


@dataclass(frozen=True)
class SdkErrors:
    """The SDK's exception classes for a status, a timeout and a connection failure."""

    status: type[Exception]
    timeout: type[Exception]
    connection: type[Exception]


class _CappedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream) -> None:
        self.inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        read = 0
        async for chunk in self.inner:
            read += len(chunk)
            if read > MAX_RESPONSE_BYTES:
                raise ResponseTooLarge(too_large("sent more"))
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()


class CappedTransport(httpx2.AsyncBaseTransport):
    """A transport whose answers stop at MAX_RESPONSE_BYTES (declared or streamed). Our own
    SDK clients use it; a client object the user passes keeps its own transport."""

    def __init__(self, inner: httpx2.AsyncBaseTransport | None = None) -> None:
        self.inner = inner or httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        resp = await self.inner.handle_async_request(request)
        declared = resp.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_RESPONSE_BYTES:
            await resp.aclose()
            raise ResponseTooLarge(too_large(f"declares {int(declared):,} bytes"))
        stream = resp.stream
        if not isinstance(stream, httpx2.AsyncByteStream):
            return resp
        return httpx2.Response(
            resp.status_code, headers=resp.headers, stream=_CappedStream(stream), extensions=resp.extensions
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


def http_client(timeout_s: float) -> httpx2.AsyncClient:
    """The HTTP client our own SDK clients get: capped answers, no compression (the cap counts
    the bytes on the wire, so a compressed answer could still decode to far more)."""
    return httpx2.AsyncClient(
        transport=CappedTransport(), timeout=timeout_s, headers={"Accept-Encoding": "identity"}
    )


async def sdk_post(  # noqa: PLR0913 -- one call's parts, passed through from the model client
    client: Any,
    path: str,
    body: dict[str, Any],
    headers: dict[str, Any],
    timeout_s: float,
    errors: SdkErrors,
) -> httpx.Response:
    """One POST through the SDK client, its answer whatever the status (the retry loop decides)."""
    options = {"headers": headers, "timeout": timeout_s}
    try:  # every model client's call: the known secrets are scrubbed from it here
        raw = await client.post(path, cast_to=httpx2.Response, body=outbound(body), options=options)
    except errors.status as exc:
        raw = exc.response  # type: ignore[attr-defined]  # APIStatusError.response
    except errors.timeout:
        raise TimeoutError(f"no answer within {timeout_s:.1f} s") from None
    except errors.connection as exc:
        cause = exc.__cause__
        if isinstance(cause, ResponseTooLarge):
            raise cause from None
        raise ConnectionFailed(f"{type(cause).__name__}: {cause}" if cause else str(exc)) from None
    return as_httpx(raw)


def as_httpx(raw: httpx2.Response) -> httpx.Response:
    """The SDK's answer (read in full) as the httpx response the clients read."""
    kept = [
        (k, v)
        for k, v in raw.headers.multi_items()
        if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")
    ]
    phrase = raw.reason_phrase.encode() if raw.reason_phrase else b""
    return httpx.Response(
        raw.status_code,
        headers=kept,
        content=raw.content,
        request=httpx.Request(raw.request.method, str(raw.request.url)),
        extensions={"reason_phrase": phrase},
    )
