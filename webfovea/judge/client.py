"""Talking to a judge model through the existing model clients (same specs, retries, endpoints).

`openai:MODEL` and `anthropic:MODEL` are built by the model factory, so base URLs, keys,
retries (403/429/5xx/timeouts, Retry-After) and response parsing are the agent's own; only the
message body differs (a judge gets a system prompt, the evidence text and the screenshot, not
an agent step). `replay:PATH` answers from the raw replies recorded in an earlier judge folder
(`RUN/judge` or its run folder), in order per task: a replayed judge reproduces a recorded
agreement exactly, offline.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.models.base import ModelError, ModelReply
from webfovea.models.factory import make_model
from webfovea.models.http_model import HttpModel
from webfovea.models.retry import post_with_retry

Part = tuple[str, Any]  # ("text", str) | ("image", PNG bytes)


class JudgeModelError(ModelError):
    """The judge endpoint failed after retries, or a replay has no reply left."""


def _openai_content(parts: list[Part]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind, value in parts:
        if kind == "text":
            out.append({"type": "text", "text": value})
        else:
            url = "data:image/png;base64," + base64.b64encode(value).decode()
            out.append({"type": "image_url", "image_url": {"url": url}})
    return out


def _anthropic_content(parts: list[Part]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind, value in parts:
        if kind == "text":
            out.append({"type": "text", "text": value})
        else:
            out.append(
                {
                    "type": "image",
                    "source": {
                        "type": "base64",
                        "media_type": "image/png",
                        "data": base64.b64encode(value).decode(),
                    },
                }
            )
    return out


class HttpJudge:
    """A judge behind an OpenAI-compatible or Anthropic endpoint."""

    def __init__(
        self, spec: str, *, base_url: str | None = None, options: dict[str, Any] | None = None
    ) -> None:
        self.spec = spec
        # The factory validates the spec and resolves URL, key and retry policy the agent's way
        # (options: the clients' own, e.g. max_tokens, timeout_s, max_attempts, base_delay_s).
        model = make_model(spec, base_url=base_url, options={"max_tokens": 4096, **(options or {})})
        # Only the HTTP clients (provider openai or anthropic) describe their call for plain httpx.
        if not isinstance(model, HttpModel) or model.provider not in ("openai", "anthropic"):
            raise ValueError(f"{spec!r} cannot judge: use openai:MODEL, anthropic:MODEL or replay:PATH")
        self.model: HttpModel = model
        self.provider = model.provider
        self._client: Any = None

    def _body(self, system: str, parts: list[Part]) -> dict[str, Any]:
        m = self.model
        if self.provider == "anthropic":
            return {
                "model": m.model,
                "max_tokens": m.max_tokens,
                "system": system,  # the Messages API version we speak has no sampling parameters
                "messages": [{"role": "user", "content": _anthropic_content(parts)}],
                **m.extra_body,
            }
        body: dict[str, Any] = {
            "model": m.model,
            m.conventions.max_tokens_field: m.max_tokens,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": _openai_content(parts)},
            ],
        }
        if m.conventions.send_temperature:
            body["temperature"] = m.temperature
        body.update(m.extra_body)
        return body

    async def ask(self, task_id: str, system: str, parts: list[Part]) -> ModelReply:
        import httpx

        from webfovea.tls import tls_context

        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.model.timeout_s, verify=tls_context())
        m = self.model
        resp = await post_with_retry(
            self._client,
            m.endpoint,
            json_body=self._body(system, parts),
            headers=m.headers(),
            policy=m.retry,
            timeout_s=m.timeout_s,
            label=m.label,
        )
        return m.parse_response(resp)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


@dataclass
class _Queue:
    replies: list[ModelReply]


class ReplayJudge:
    """Answers with the raw replies an earlier judge run recorded, per task, in order."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        path = Path(spec.partition(":")[2].strip())
        if not path.is_dir():
            raise ValueError(f"replay judge: {path} is not a folder (give RUN_DIR or RUN_DIR/judge)")
        folder = path / "judge" if (path / "judge").is_dir() else path
        self._queues: dict[str, _Queue] = {}
        for f in sorted(folder.glob("*.json")):
            if f.name in ("summary.json", "agreement.json"):
                continue
            try:
                rec = json.loads(f.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            calls = rec.get("calls") if isinstance(rec, dict) else None
            if isinstance(calls, list):
                self._queues[str(rec.get("task_id") or f.stem)] = _Queue(
                    [ModelReply(str(c.get("raw_reply") or "")) for c in calls if isinstance(c, dict)]
                )
        if not self._queues:
            raise ValueError(f"replay judge: no judge records with recorded calls in {folder}")

    async def ask(self, task_id: str, system: str, parts: list[Part]) -> ModelReply:
        q = self._queues.get(task_id)
        if q is None or not q.replies:
            raise JudgeModelError(f"replay judge: no recorded reply left for task {task_id!r}")
        return q.replies.pop(0)

    async def aclose(self) -> None:
        return None


def make_judge(
    spec: str, *, base_url: str | None = None, options: dict[str, Any] | None = None
) -> HttpJudge | ReplayJudge:
    """The judge model a spec names (openai:…, anthropic:…, replay:PATH). ValueError when unusable."""
    if spec.startswith("replay:"):
        return ReplayJudge(spec)
    return HttpJudge(spec, base_url=base_url, options=options)
