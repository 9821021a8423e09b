"""`oracle:via=anthropic|openai|gemini`: the oracle answering through a real provider client over HTTP.

The oracle (which needs the task's page) runs in this process; a loopback API serves it on
a free port in the same event loop — the Messages API (`webfovea_proving_ground/providers/anthropic_api.py`) or Chat
Completions (`webfovea_proving_ground/providers/openai_api.py`) or the Gemini API
(`webfovea_proving_ground/providers/gemini_api.py`) — and the model the harness talks to is the real
`AnthropicModel`, `OpenAIModel` or `GeminiModel` pointed at that port. So the whole path of a provider —
request building (tools, transcript, breakpoints; or the one-message text grammar), HTTP,
response and usage parsing — runs on the built-in suite without a provider, and the tokens
are billed by the provider's published rules. The numbers are oracle numbers.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from typing import Any

import uvicorn

from webfovea.models.anthropic_client import AnthropicModel
from webfovea.models.base import Model, ModelInput, ModelReply, verify_refusal
from webfovea.models.conventions import ModelConventions, conventions_for
from webfovea.models.gemini_client import GeminiModel
from webfovea.models.http_model import HttpModel
from webfovea.models.openai_client import OpenAIModel
from webfovea_proving_ground.providers import anthropic_api, gemini_api, openai_api
from webfovea_proving_ground.providers.openai_api import AutoCache
from webfovea_proving_ground.providers.tokens import PromptCache

VIA_KEY = "oracle"  # the API key the client sends the loopback server
DEFAULT_VIA_MODEL = {"anthropic": "claude-sonnet-4-6", "openai": "gpt-4o", "gemini": "gemini-2.5-flash"}
VIAS = tuple(DEFAULT_VIA_MODEL)
# Per provider: the real client, and the path its base URL ends with.
_SERVED: dict[str, tuple[type[HttpModel], str]] = {
    "anthropic": (AnthropicModel, ""),
    "openai": (OpenAIModel, "/v1"),
    "gemini": (GeminiModel, ""),
}


# One loopback server per task, one cache per API key and model in the process: as on the real
# APIs, a run's next task finds what an earlier one wrote (the tools and the system prompt).
# A run's worker processes have one each: each writes the shared prefix once.
_CACHES: dict[tuple[str, str], PromptCache | AutoCache] = {}
_CACHES_LOCK = threading.Lock()


def cache_of_key(via: str, model: str, row: ModelConventions) -> PromptCache | AutoCache:
    """The provider-side cache of VIA_KEY and `model` in this process."""
    with _CACHES_LOCK:
        if (via, model) not in _CACHES:
            _CACHES[(via, model)] = PromptCache(row) if via == "anthropic" else AutoCache()
        return _CACHES[(via, model)]


def forget_caches() -> None:
    """Empty the provider-side caches (a test that needs a cold cache's first request)."""
    with _CACHES_LOCK:
        _CACHES.clear()


class OracleVia:
    """A Model: the real client in front, the oracle behind a loopback server."""

    def __init__(
        self, oracle: Model, via: str, model: str | None = None, shape: str = "thought", **client: Any
    ) -> None:
        if via not in VIAS:
            raise ValueError(f"via={via!r} is not served; use one of: {', '.join(VIAS)}")
        self.oracle = oracle
        self.model_name = model or DEFAULT_VIA_MODEL[via]
        self.row = conventions_for(self.model_name)
        self._client_class, self._base_path = _SERVED[via]
        if via == "openai" and client:
            raise ValueError(
                f"{', '.join(sorted(client))} go with via=anthropic; via=openai serves the text "
                "grammar over Chat Completions"
            )
        if via == "openai" and shape != "thought":
            raise ValueError(
                "via_shape goes with via=anthropic or via=gemini (webfovea_proving_ground/providers/shapes.py, "
                "gemini_api.py)"
            )
        if via == "gemini" and set(client) - {"interface"}:
            raise ValueError(f"{', '.join(sorted(set(client) - {'interface'}))} go with via=anthropic")
        cache = cache_of_key(via, self.model_name, self.row)
        if isinstance(cache, PromptCache):
            self.app = anthropic_api.make_app(oracle, self.row, shape, cache)
        elif via == "gemini":
            self.app = gemini_api.make_app(oracle, self.row, shape, cache)
        else:
            self.app = openai_api.make_app(oracle, self.row, cache)
        self._client_options = client
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self.client: HttpModel | None = None

    async def _start(self) -> HttpModel:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off", access_log=False)
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]))
        while not self._server.started:
            if self._task.done():
                self._task.result()  # raises why it could not start
            await asyncio.sleep(0.01)
        self.client = self._client_class(
            self.model_name,
            base_url=f"http://127.0.0.1:{port}{self._base_path}",
            api_key=VIA_KEY,
            **self._client_options,
        )
        return self.client

    @property
    def can_verify(self) -> bool:
        """What is behind the server decides: the oracle checks answers, a script cannot."""
        return verify_refusal(self.oracle) is None

    @property
    def replays(self) -> str | None:
        return getattr(self.oracle, "replays", None)

    @property
    def quirk_log(self) -> list[dict[str, Any]]:
        """The oracle's own quirk log (result.json model_quirks)."""
        return list(getattr(self.oracle, "quirk_log", []) or [])

    def quirks(self) -> list[dict[str, Any]]:
        """The Model protocol's record of the oracle's quirks (result.json model_quirks)."""
        return self.quirk_log

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        if inp.purpose in ("locate", "look"):
            # A one-off question about one screenshot: the loopback API rebuilds step inputs
            # only (it would read it as a step), so the oracle answers it directly (tokens estimated).
            return await self.oracle.next_reply(inp)
        client = self.client or await self._start()
        return await client.next_reply(inp)

    async def aclose(self) -> None:
        if self.client is not None:
            await self.client.aclose()
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 5)
        await self.oracle.aclose()
