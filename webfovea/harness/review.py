"""The last word on a `finished` before it stands: its evidence, the OCR cross-check, the verifier.

`Harness.step` hands every `finished` that passed the answer and verify gates here. It takes the
answer's evidence (guardrails/evidence.py), cross-checks its digits by OCR when `ocr_check` is
on (guardrails/ocr_check.py) and asks the verifier when `verifier` is on
(guardrails/verifier.py). It fills the step's result: the answer stands (`done`), or it goes
back to the agent with the verifier's reason — or, with no verifier, once with the OCR
check's evidence against it — and the task goes on. Each hold says why (the step record's
`hold_why`, result.json `holds`). An answer the workflow cache confirmed on the page (whole
tokens at the elements it was read from, webfovea/cache/) is not sent to the verifier again:
a run replayed whole makes no model call.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from webfovea.config import Component
from webfovea.feedback import notes
from webfovea.guardrails import ocr_check
from webfovea.guardrails.answer_regions import answer_boxes, image_region
from webfovea.guardrails.verifier import MAX_REJECTIONS
from webfovea.harness.results import Observation, StepResult

if TYPE_CHECKING:
    from webfovea.harness import Harness


async def review_answer(h: Harness, obs: Observation, answer: str, result: StepResult) -> None:
    """Decide whether this `finished` stands; `result` gets the evidence and the outcome."""
    ev = h.evidence.gather(answer, obs.image, obs.shot.from_css, obs.url)
    result.evidence = ev
    if h.config.on(Component.ocr_check):
        # Tesseract is a separate program: run it off the event loop, the page keeps being served.
        shown = list(h.evidence.shown)  # a zoom crop the answer may have been read from
        boxes = await answer_boxes(h.page, ocr_check.numbers_of(answer))
        region = image_region(boxes, obs.shot.from_css, obs.image.size)
        png = obs.shot.png if obs.image is obs.shot.image else None  # the pixels the model saw
        ev.ocr = await asyncio.to_thread(ocr_check.check, answer, obs.image, ev.texts, shown, region, png=png)
    ocr_note = ev.ocr.note if ev.ocr is not None and ev.ocr.mismatch else None
    v = h.verifier
    ev.confirmed = h.evidence.confirmed_by_cache(answer)
    if v.asks and ev.confirmed is None:
        verdict, call = await v.review(ev, obs.step)
        result.verifier = call
        if not verdict.accept:
            result.answer, result.verifier_rejected = answer, True
            result.hold_why = f"the verifier rejected it: {verdict.reason or 'no reason given'}"
            h.evidence.holds.append({"step": obs.step, "check": "verifier", "why": result.hold_why})
            left = MAX_REJECTIONS - v.rejections
            result.feedback = notes.verifier_rejected(verdict.reason, verdict.look_at, left, ocr_note)
            return
    elif v.stands_disputed():
        pass  # the rejections are spent: this answer stands, and the record says it was disputed
    elif ocr_note is not None and not h.ocr_held and v.off is None:
        # Once per task: a second hold would only teach it to say finished twice. Not for a
        # model that replays a script (v.off says so): it cannot look again, only go on.
        h.ocr_held = True
        result.answer, result.ocr_held, result.hold_why = answer, True, ocr_note
        h.evidence.holds.append({"step": obs.step, "check": "ocr_check", "why": ocr_note})
        result.feedback = notes.ocr_mismatch(ocr_note)
        return
    result.done, result.answer, result.stop_reason = True, answer, "finished"
