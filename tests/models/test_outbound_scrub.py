"""One scrub for every model call: whatever a model is sent — an agent step, the verifier's
request, the judge's — carries a known secret's placeholder, never its value, and the images
beside it arrive unchanged. An API key the harness loads is a known value too."""

from __future__ import annotations

import json
from typing import Any

from PIL import Image

from tests.models.fake_llm import fake_llm, openai_ok
from tests.models.inputs import FAST, make_input
from webfovea.guardrails.evidence import Evidence
from webfovea.guardrails.verifier import Verifier
from webfovea.judge.client import HttpJudge
from webfovea.models.base import ModelInput, ModelReply
from webfovea.models.openai_client import OpenAIModel
from webfovea.record.atomic import scrubbed_text
from webfovea.secrets import Secret, remember

VALUE = "Tq4!outbound-heron-77"
PLACEHOLDER = "<secret>outbound_pw</secret>"


def _known() -> None:
    remember({"outbound_pw": Secret(value=VALUE, origins=["https://example.org"])})


class Recording:
    """An in-process model (as the oracle is): it reads the input it is handed."""

    def __init__(self) -> None:
        self.seen: list[ModelInput] = []

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        self.seen.append(inp)
        return ModelReply("VERDICT: accept\nREASON: fine")

    async def aclose(self) -> None:
        pass


async def test_the_verifiers_request_is_scrubbed_like_every_model_input() -> None:
    _known()
    verifier = Verifier(active=True, task="Read the code the page shows.")
    model = Recording()
    verifier.use(model, label="recording", separate=True)
    ev = Evidence(
        answer=f"The code is {VALUE}",
        image=Image.new("RGB", (64, 32), "white"),
        url=f"https://example.org/done?c={VALUE}",
        texts=[f"Your code: {VALUE.upper()}"],  # the page shows it upper-cased
        mark=None,
        taken_at="2026-01-01T00:00:00+00:00",
    )
    await verifier.review(ev, step=3)
    (inp,) = model.seen
    text = json.dumps([inp.system, inp.task, inp.history, inp.feedback, inp.closing])
    assert VALUE.lower() not in text.lower() and PLACEHOLDER in inp.task, inp.task


async def test_an_agent_call_and_a_judge_call_leave_scrubbed_with_their_images_intact() -> None:
    _known()
    inp = make_input(feedback=f"The box now contains '{VALUE}'.")
    inp.history.append(f"Thought: type it\nAction: type(content='{VALUE[:14]}')")  # a long prefix too
    with fake_llm([openai_ok("Thought: t\nAction: wait()"), openai_ok("VERDICT: accept")]) as srv:
        model = OpenAIModel("gpt-4o", base_url=srv.base_url, api_key="k", retry=FAST)
        judge = HttpJudge("openai:gpt-4o", base_url=srv.base_url, options={"max_attempts": 1})
        png = _png()
        try:
            await model.next_reply(inp)
            await judge.ask(
                "t1", f"Judge it. Secret seen: {VALUE}", [("text", f"url ?p={VALUE}"), ("image", png)]
            )
        finally:
            await model.aclose()
            await judge.aclose()
        bodies = [r.body for r in srv.received]
    sent = json.dumps(bodies)
    assert VALUE not in sent and VALUE[:14] not in sent, sent[:500]
    assert sent.count(PLACEHOLDER) >= 3
    images = [
        p["image_url"]["url"]
        for b in bodies
        for m in b["messages"]
        for p in _parts(m)
        if p.get("type") == "image_url"
    ]
    assert len(images) == 4 and all(u.startswith("data:image/png;base64,") for u in images)


def test_an_api_key_the_harness_loads_is_scrubbed_from_records() -> None:
    key = "Zx81-outbound-KEY-value-31"  # no provider's shape: only knowing it hides it
    OpenAIModel("gpt-4o", base_url="http://127.0.0.1:9", api_key=key)
    assert key not in scrubbed_text(f"error: 401 for key {key}") and "<secret>key." in scrubbed_text(key)


def _png() -> bytes:
    import io

    out = io.BytesIO()
    Image.new("RGB", (40, 20), (10, 200, 30)).save(out, format="PNG")
    return out.getvalue()


def _parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return content if isinstance(content, list) else []
