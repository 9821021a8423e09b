"""`webfovea.Harness`: one page, one round trip per `step()`.

    async with Harness.launch("http://127.0.0.1:8000/stats") as h:
        obs = await h.observe()          # obs.image: exactly what the model is sent
        res = await h.step(reply_text)   # parse -> execute -> settle -> feedback
        res.action, res.feedback, res.done, res.answer, res.error

The stages live in their own packages (`parsing/`, `execution/`, `feedback/`,
`observation/`, `guardrails/`); this class only passes one step's data through them in
order. The agent loop (`webfovea.agent`), the CLI and the proving ground build on it.

The room: `core.py` (the class: the stages in order), `pages.py` (what happens to the page
around a step: tabs, the site guard, dialogs and downloads, liveness, the start page),
`results.py` (`Observation`, `StepResult`, `Launch`), `review.py` (every `finished` that
passed the gates: its evidence, the OCR cross-check, the verifier).
"""

from webfovea.harness.core import Harness
from webfovea.harness.results import Launch, Observation, StepResult, StopReason

__all__ = ["Harness", "Launch", "Observation", "StepResult", "StopReason"]
