"""The `verifier`: every `finished` is checked by a model in a fresh context before it stands.

Most decision failures are a wrong row or a wrong table read with confidence, and on
BreakingWeb (seed 003) 75% of agent failures end with a declared success. The agent's own
context is the worst place to catch that: it holds the reasoning that led to the misreading.
So the harness asks one separate call — the verifier model (`--verifier SPEC`, default the
task's own model) — shown only the task, the candidate answer and its evidence
(guardrails/evidence.py: the screenshot it was read from, marked where the agent last acted,
the page text it read, the URL, the OCR cross-check's note), never the agent's thoughts or
history. It replies in a small fixed form:

    VERDICT: accept | reject
    REASON: one sentence
    LOOK AT: what to look at again (when rejecting)

A rejection goes back to the agent as feedback and the task goes on (the step counts like any
other); after `MAX_REJECTIONS` the next `finished` stands unchecked and result.json says
`disputed`. A reply that cannot be read counts as accept, with a note: a verifier must never
end or block a task by failing. Its calls are recorded on the step (`verifier`) and counted
apart from the task model's (result.json `verifier_usage`, summary.json `verifier_tokens`).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from webfovea.config import Component, HarnessConfig
from webfovea.guardrails.evidence import Evidence
from webfovea.models.base import VERIFY_PURPOSE, Model, ModelInput, verify_refusal
from webfovea.models.factory import model_kind
from webfovea.models.outbound import scrubbed
from webfovea.quoting import page_text
from webfovea.task import Task

MAX_REJECTIONS = 2
PURPOSE = VERIFY_PURPOSE  # ModelInput.purpose of the call (a model may answer it its own way)
ANSWER_OPEN, ANSWER_CLOSE = "<<<", ">>>"  # the candidate answer sits between these lines

SYSTEM = """You check the answer a web agent gave to a task. You did not do the task; you see only
the task, the agent's candidate answer and the evidence it was read from: a screenshot of the page
(a red ring marks where the agent last acted), the page text the agent read, the page's URL and
any cross-check notes. Accept the answer when the evidence shows it answers the task (the right
row, series, period and unit). Reject it when the evidence shows another value, or that it was read
from the wrong place (a summary box, a look-alike row, the wrong table or period).

Reply in exactly this form, three lines, nothing else:
VERDICT: accept or reject
REASON: one sentence
LOOK AT: where the agent should look again (write "-" when accepting)"""
# Seed 000 §6.3's verifier as written: "seeing only the task, the final screenshot, and the
# candidate answer" (config `verifier_evidence="paper"`).
SYSTEM_PAPER = """You check the answer a web agent gave to a task. You did not do the task; you see only
the task, the agent's candidate answer and the final screenshot of the page. Accept the answer when
the screenshot shows it answers the task (the right row, series, period and unit). Reject it when the
screenshot shows another value, or that it was read from the wrong place (a summary box, a
look-alike row, the wrong table or period).

Reply in exactly this form, three lines, nothing else:
VERDICT: accept or reject
REASON: one sentence
LOOK AT: where the agent should look again (write "-" when accepting)"""
CLOSING = "Answer now in the form asked for."

# A verdict line: the line starts with the word (Markdown emphasis allowed), never a quoted one
# ("> VERDICT: accept", 'The page says "VERDICT: accept"').
_VERDICT = re.compile(
    r"^[ \t*_]*verdict[ \t*_]*[:=\-][ \t*_]*(accept(?:ed)?|reject(?:ed)?)\b", re.IGNORECASE | re.MULTILINE
)
_FIELD = {
    "reason": re.compile(r"^[ \t*_]*reason[ \t*_]*[:=\-]\s*(.+)$", re.IGNORECASE | re.MULTILINE),
    "look_at": re.compile(r"^[ \t*_]*look[ _]?at[ \t*_]*[:=\-]\s*(.+)$", re.IGNORECASE | re.MULTILINE),
}
_BARE = re.compile(r"^[ \t*_]*(accept(?:ed)?|reject(?:ed)?)\b", re.IGNORECASE)
_WHOLE_JSON = re.compile(r"^(?:```(?:json)?\s*)?(\{.*\})(?:\s*```)?$", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.IGNORECASE | re.DOTALL)


@dataclass
class Verdict:
    accept: bool
    reason: str = ""
    look_at: str = ""
    note: str | None = None  # why an unreadable reply counted as accept

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": "accept" if self.accept else "reject", "reason": self.reason}
        if self.look_at:
            out["look_at"] = self.look_at
        if self.note:
            out["note"] = self.note
        return out


def parse_verdict(text: str) -> Verdict:
    """The verifier's reply as a verdict. Its verdict is its final `VERDICT:` line (one that
    starts the line: a quoted one is the page's, not the verifier's); when its verdict lines
    disagree, it rejects. With no such line: a reply that is one JSON object with the same keys,
    or that starts with the word. Anything else is an accept with a note (a verifier must never
    block a task by failing)."""
    body = _THINK.sub("", text or "").strip()
    lines = list(_VERDICT.finditer(body))
    if lines:
        said = {m.group(1).lower().startswith("accept") for m in lines}
        final = lines[-1]
        rest = body[final.start() :]  # the reason and place that go with the final verdict
        fields = {k: (m.group(1).strip() if (m := rx.search(rest)) else "") for k, rx in _FIELD.items()}
        reason = fields["reason"][:500]
        if len(said) > 1:
            reason = f"the verifier's reply holds conflicting verdicts; {reason}".rstrip("; ")
        return Verdict(said == {True}, reason, fields["look_at"].strip("*- ").strip()[:300])
    data = _json_reply(body)
    if data is not None and str(data.get("verdict", "")).lower().startswith(("accept", "reject")):
        return Verdict(
            str(data["verdict"]).lower().startswith("accept"),
            str(data.get("reason") or "")[:500],
            str(data.get("look_at") or data.get("look at") or "")[:300].strip("- "),
        )
    bare = _BARE.search(body)
    if bare is None:
        return Verdict(True, "", note=f"unreadable verifier reply, counted as accept: {body[:160]!r}")
    fields = {k: (m.group(1).strip() if (m := rx.search(body)) else "") for k, rx in _FIELD.items()}
    return Verdict(
        bare.group(1).lower().startswith("accept"), fields["reason"][:500], fields["look_at"][:300]
    )


def _json_reply(body: str) -> dict[str, Any] | None:
    """The reply as one JSON object — the whole reply (in a code fence or not), never an object
    somewhere inside prose, which may be a quotation of the page."""
    whole = _WHOLE_JSON.match(body)
    if whole is None:
        return None
    try:
        data = json.loads(whole.group(1))
    except json.JSONDecodeError:
        return None
    return {str(k).lower(): v for k, v in data.items()} if isinstance(data, dict) else None


ANSWER_CHARS = 4000  # the candidate answer as the verifier sees it
READ_CHARS = 1200  # one text the agent read, as the verifier sees it


def request_text(task: str, ev: Evidence) -> str:
    """What the verifier is told beside the screenshot: the task, the answer, its evidence.
    Everything but the task is the page's or the agent's: each goes through the one quoting
    function (webfovea/quoting.py), so none starts a line of its own ("VERDICT: accept") or
    closes the answer's fence."""
    read = "\n".join(f"- {fenced(t, READ_CHARS)}" for t in ev.texts) or "(the agent read no page text)"
    lines = [
        f"Task: {task}",
        "",
        "Candidate answer:",
        ANSWER_OPEN,
        fenced(ev.answer, ANSWER_CHARS),
        ANSWER_CLOSE,
        "",
        f"Page URL: {fenced(ev.url, 500)}",
        "",
        "Page text the agent read:",
        read,
    ]
    if ev.ocr is not None and ev.ocr.note:
        lines += ["", f"Cross-check: {fenced(ev.ocr.note, 500)}"]
    lines += ["", "The screenshot is the page the answer was read from."]
    return "\n".join(lines)


def paper_request_text(task: str, ev: Evidence) -> str:
    """The paper's verifier request: the task and the candidate answer beside the final screenshot."""
    return "\n".join(
        [
            f"Task: {task}",
            "",
            "Candidate answer:",
            ANSWER_OPEN,
            fenced(ev.answer, ANSWER_CHARS),
            ANSWER_CLOSE,
            "",
            "The screenshot is the final view of the page.",
        ]
    )


def fenced(text: str, limit: int) -> str:
    """Page or agent text as one line of the request, unable to close a fence or open a line."""
    return page_text(text, limit, mark="")


def candidate_of(text: str) -> str | None:
    """The candidate answer in a verifier request (for a model that reads it: the oracle)."""
    start, end = text.find(f"\n{ANSWER_OPEN}\n"), text.rfind(f"\n{ANSWER_CLOSE}\n")
    if start < 0 or end < start:
        return None
    return text[start + len(ANSWER_OPEN) + 2 : end]


@dataclass
class Verifier:
    """Per task: on with the switch and a model to ask; counts the rejections."""

    active: bool = False
    task: str = ""
    model: Model | None = None
    label: str = "task model"
    separate: bool = False
    rejections: int = 0
    disputed: bool = False
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    off: str | None = None  # why it is on but asks no one (the task's model cannot verify)
    paper: bool = False  # shown only the task, the final screenshot and the answer

    @classmethod
    def for_task(cls, config: HarnessConfig, task: Task | None) -> Verifier:
        if task is None or not config.on(Component.verifier):
            return cls()
        return cls(active=True, task=task.instruction(), paper=config.verifier_evidence == "paper")

    def use(self, model: Model, *, label: str, separate: bool) -> None:
        """Ask `model`; the task's own model (not `separate`) only when it can check an answer:
        a model that replays a script would answer with its next scripted line (models/base.py
        `verify_refusal`), so the verifier stays off and says why (result.json `verifier_off`).
        A --verifier model is always used: the user chose it."""
        refusal = None if separate else verify_refusal(model)
        if refusal is not None:
            self.off = off_note(refusal)
            return
        self.model, self.label, self.separate, self.off = model, label, separate, None

    @property
    def asks(self) -> bool:
        """The next `finished` goes to the verifier (on, a model, rejections left)."""
        return self.active and self.model is not None and self.rejections < MAX_REJECTIONS

    def stands_disputed(self) -> bool:
        """True when this `finished` stands only because the rejections are spent."""
        if self.active and self.model is not None and self.rejections >= MAX_REJECTIONS:
            self.disputed = True
        return self.disputed

    async def review(self, ev: Evidence, step: int) -> tuple[Verdict, dict[str, Any]]:
        """One call in a fresh context; never raises (a failed call counts as accept, noted)."""
        assert self.model is not None
        # Through the same scrub as every model input (models/outbound.py): the answer and
        # the page text it was read from may quote a secret the agent typed.
        inp = scrubbed(
            ModelInput(
                system=SYSTEM_PAPER if self.paper else SYSTEM,
                task=(paper_request_text if self.paper else request_text)(self.task, ev),
                history=[],
                images=[ev.plain if self.paper and ev.plain is not None else ev.image],
                feedback=None,
                step=len(self.verdicts),
                purpose=PURPOSE,
                closing=CLOSING,
            )
        )
        t0 = time.monotonic()
        call: dict[str, Any] = {"purpose": PURPOSE, "model": self.label, "separate": self.separate}
        try:
            reply = await self.model.next_reply(inp)
            verdict = parse_verdict(reply.text or "")
            call.update(raw_reply=reply.text or "", usage=reply.usage.to_json(), call_usage=reply.usage)
        except Exception as e:  # noqa: BLE001 - a verifier that fails must not end the task
            why = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
            verdict = Verdict(True, note=f"the verifier call failed, counted as accept: {why}")
            call["error"] = why
        call["seconds"] = round(time.monotonic() - t0, 4)
        if not verdict.accept:
            self.rejections += 1
        call["verdict"] = verdict.to_json()
        self.verdicts.append({"step": step, "answer": ev.answer, **verdict.to_json()})
        return verdict, call

    def to_json(self) -> dict[str, Any] | None:
        """result.json `verification` (None when the verifier was off or had no model)."""
        if not self.active or self.model is None:
            return None
        return {
            "model": self.label,
            "verdicts": self.verdicts,
            "rejections": self.rejections,
            "disputed": self.disputed,
        }


def off_note(why: str) -> str:
    return f"verifier off: {why}; give --verifier SPEC"


def off_for_spec(config: HarnessConfig, spec: str) -> str | None:
    """run.json `verifier_off`: why a run's verifier checks nothing by default — the switch is on,
    no --verifier was given, and the model kind of `spec` declares its models cannot verify
    (`ModelKind.can_verify`, models/factory.py). None when it checks, or when the switch is off."""
    if not config.on(Component.verifier) or config.verifier_model:
        return None
    name = spec.partition(":")[0]
    kind = model_kind(name) if name else None
    if kind is None or kind.can_verify:
        return None
    return off_note(f"model kind {kind.name} replays a script")
