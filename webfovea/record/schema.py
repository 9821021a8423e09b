"""The schemas of a task folder (`<run>/<task_id>/`). docs/records.md describes every field.

result.json          TaskResult  (written on every exit path of a task)
trajectory.jsonl     one StepRecord per line, appended as the task runs
step_NNN.png         the screenshot as sent to the model at step NNN
step_NNN_marked.png  the same, with the executed point marked (red dot and ring)
step_NNN.snapshot.yml the full (untruncated, annotated) AI snapshot of step NNN (structured/hybrid)
step_NNN_<kind>.png  an image the action of step NNN attached for the next input (zoom: step_NNN_zoom.png)
capture.json         CaptureFile: passive request capture (when capture is on)
evidence.png         the screenshot the accepted answer was read from, marked where the agent last acted
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea.record.atomic import Record

RESULT_JSON = "result.json"
TRAJECTORY_JSONL = "trajectory.jsonl"
CAPTURE_JSON = "capture.json"
EVIDENCE_PNG = "evidence.png"

Status = Literal[
    "finished",  # the model called finished(content)
    "max_steps",  # step budget spent
    "budget_exceeded",  # the task's token or money budget spent (max_tokens, max_cost)
    "timeout",  # wall-clock budget spent
    "scroll_breaker",  # too many scrolls with no page change
    "stale_refs",  # too many stale or unknown snapshot references (structured/hybrid)
    "loop_breaker",  # the same action on the same spot, again and again, with no page change
    "model_error",  # the model endpoint failed after retries
    "browser_error",  # browser crashed or disconnected
    "tool_timeout",  # three consecutive tool timeouts
    "page_unresponsive",  # the page's main thread stopped answering (endless script, dialog storm)
    "interrupted",  # Ctrl-C / cancelled
    "env_done",  # the task's environment ended the episode (BrowserGym's done); its state scores it
    "worker_lost",  # written by the runner's parent for a task whose worker died
    "error",  # anything else (message in `error`)
]


class UsageTotals(BaseModel):
    prompt_tokens: int = 0  # the whole prompt of every call (cached parts included)
    completion_tokens: int = 0
    model_calls: int = 0
    # Caching providers split the prompt: uncached input, cache reads, cache writes.
    # For a provider that does not split it, input_tokens counts the whole prompt.
    input_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_miss_calls: int = 0  # caching calls that neither wrote nor read the cache
    estimated_calls: int = 0  # calls whose tokens no provider counted

    def add(self, usage: Any) -> None:
        """Add one call's `models.base.Usage` (duck-typed: record sits below models)."""
        self.model_calls += 1
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        self.input_tokens += usage.uncached_tokens
        self.cache_read_input_tokens += usage.cache_read_input_tokens
        self.cache_creation_input_tokens += usage.cache_creation_input_tokens
        self.cache_miss_calls += int(usage.cache_miss)
        self.estimated_calls += int(usage.estimated)


class StateScore(BaseModel):
    """result.json `state`: the backend-state score an environment wrote for the task.

    The stateful proving ground fills it (obligations and invariants over the canonical diff);
    these four fields are the ones the failure taxonomy reads. Other keys (hashes of the
    initial state, the audit log, the diff) are kept as written."""

    model_config = ConfigDict(extra="allow")

    score: float | None = None  # obligations met / total
    obligations_met: int | list[bool] | None = None  # a count, or one boolean per obligation
    obligations_total: int | None = None  # with a count; a list's length otherwise
    invariants_broken: list[Any] = Field(default_factory=list)  # what changed that must not have
    # A stateful suite's scorer (a plug-in's, docs/plugins.md) may add extra keys; BreakingWeb's
    # writes passed, error, initial_sha256, final_sha256, audit_sha256, diff_sha256.


class TaskResult(BaseModel):
    task_id: str
    status: Status
    answer: str | None = None  # finished(content); None when the task ended otherwise
    answer_value: Any = None  # with an answer schema: the JSON value of the accepted answer
    answer_errors: int = 0  # answers the answer gate refused (invalid JSON or schema)
    # The downloads the task kept: {path (relative to the task folder), bytes, url}, in the order
    # they were saved; None when there were none.
    downloads: list[dict[str, Any]] | None = None
    steps: int = 0
    seconds: float = 0.0
    usage: UsageTotals = Field(default_factory=UsageTotals)
    # A separate vision model's calls (look/locate with --vision-model): counted apart from
    # `usage`; None when the task's own model answered them (they are in `usage` then).
    vision_usage: UsageTotals | None = None
    # What the accepted answer was read from (guardrails/evidence.py): {screenshot (evidence.png),
    # taken_at, url, text_read, mark, request, ocr}; None when the task ended without an answer.
    evidence: dict[str, Any] | None = None
    # The verifier (guardrails/verifier.py): {model, verdicts [{step, answer, verdict, reason,
    # look_at?, note?}], rejections, disputed}; its calls' tokens apart in `verifier_usage`.
    # None when the `verifier` switch was off.
    verification: dict[str, Any] | None = None
    # Every finished an answer check held, {step, check: ocr_check | verifier, why}
    # (harness/review.py); None when none was held.
    holds: list[dict[str, Any]] | None = None
    verifier_usage: UsageTotals | None = None
    # A separate summary model's calls (the summarise route, --summary-model): apart from
    # `usage`; None when the task's model wrote the summaries (in `usage`) or the rule did.
    summary_usage: UsageTotals | None = None
    # The model each role used (models/routes.py `recorded`): {act, look, verify, summarise:
    # {model, via: own | act | rule | off}}; run.json records the same for the run.
    routes: dict[str, dict[str, Any]] | None = None
    # The task-type checklist shown with the instruction (`checklists = "auto"`): {name, title,
    # why}; None when the switch is off or no checklist fits the task.
    checklist: dict[str, str] | None = None
    # The site whose reviewed notes were shown with the instruction (`site_notes_dir`), or None.
    site_notes: str | None = None
    # Why the `verifier` switch was on but nothing checked the answers: the task's model cannot
    # verify (it replays a script) and no --verifier was given. None otherwise.
    verifier_off: str | None = None
    # The quirks an instrumented model played (the oracle: ref quirks, contamination ...), each
    # {call, quirk, ...}; None for real models. run.json's `model_quirks` totals them.
    model_quirks: list[dict[str, Any]] | None = None
    error: str | None = None
    task: str | None = None
    website: str | None = None
    model: str | None = None
    profile: str | None = None
    disabled: list[str] = Field(default_factory=list)  # HarnessConfig.disabled(): every component off
    started_at: str | None = None  # ISO time
    ended_at: str | None = None
    # HarnessConfig.model_dump(mode="json"). Kept as plain JSON, not a HarnessConfig, so a result
    # written by another version (a renamed component) still reads; None when the writer had no
    # config at hand (results written by the runner for a task whose worker was lost).
    config: dict[str, Any] | None = None
    session_id: str | None = None  # the environment's server-side session (task.session), when bound
    # HarnessConfig.outside_rules(): tools on that the challenge's rules forbid (the `winner` profile)
    outside_rules: list[str] = Field(default_factory=list)
    # Proving ground only, written after the run from the server's own log (eval/truth.py):
    # {nav_ok, answer_ok, valid, details, why}. Judges never read it.
    truth: dict[str, Any] | None = None
    fault: str | None = (
        None  # the oracle fault plan this run followed (webfovea_proving_ground/oracle/faults.py); judges never read it
    )
    state: StateScore | None = None  # the backend-state score, when the environment scored state
    # Why a failed task failed, written when the run is summarised (eval/taxonomy.py); None when it passed.
    taxonomy: str | None = None  # seed 003's failure label (docs/taxonomy.md)
    stage: str | None = None  # the stage where the run first went wrong
    family: str | None = None  # the intervention family of the run (task.session.variant); None when clean
    # Characters UTF-8 cannot hold (lone UTF-16 surrogates from a page) replaced by U+FFFD; None: none.
    replaced_characters: int | None = None
    # The workflow cache (--cache DIR): dir, key, entry (one was found), cached_steps (steps
    # replayed without a model call), model_from_step, why, written; None without a cache.
    cache: dict[str, Any] | None = None


class StepRecord(BaseModel):
    step: int
    raw_reply: str  # the reply text; for a tool call, the text beside it and the call as JSON
    tool_calls: list[dict[str, Any]] | None = None  # every tool call of the response: id, name, input
    provider_notes: list[str] | None = None  # refusal, safety checks acknowledged (native tool use)
    cleaned_reply: str = ""  # always written; the default reads trajectories older than the field
    thought: str = ""
    action: dict[str, Any] | None = None  # Action.to_json()
    rejection: str | None = None
    executed_point: list[float] | None = None  # CSS pixels [x, y] where the action landed
    executed_points: list[list[float]] | None = None  # click_many / drag
    feedback: str = ""
    changed: bool | None = None
    outcome: str | None = None  # executed | no_effect | failed | rejected
    fallback_used: bool | None = None  # the iframe DOM fallback delivered the click
    fingerprint_before: dict[str, Any] | None = None
    fingerprint_after: dict[str, Any] | None = None
    usage: dict[str, Any] = Field(default_factory=dict)  # models/base.py Usage.to_json()
    screenshot: str | None = None  # file name of the image as sent
    screenshot_marked: str | None = None
    image_size: list[int] | None = None  # [w, h] of the image as sent
    seconds: float = 0.0
    # History compression done just before this step's model call (observation/compress.py
    # Compression.to_json(): status, tokens, the summary call's raw reply and usage ...).
    compression: dict[str, Any] | None = None
    # Structured/hybrid observation (None in vision mode): the snapshot file, its size and
    # cost (bytes, shown_bytes, ms, truncated, omitted_nodes, guards, error), the element a
    # ref named (ref, role, name, semantic locator, point) and why a ref was refused as stale.
    observation: str | None = None  # vision | structured | hybrid
    snapshot: str | None = None
    snapshot_info: dict[str, Any] | None = None
    target: dict[str, Any] | None = None
    stale_ref: str | None = None
    # The verify gate held this step's finished and showed the real state (guardrails/verify.py).
    verification_requested: bool = False
    # The verifier's call on this step's finished (guardrails/verifier.py): {purpose, model,
    # separate, raw_reply, usage, seconds, verdict, error?}; `verifier_rejected`: the task went on.
    verifier: dict[str, Any] | None = None
    verifier_rejected: bool = False
    ocr_held: bool = False  # the OCR cross-check held this finished once (no verifier on)
    # Why an answer check held this finished: the OCR check's evidence against it, or the
    # verifier's reason (harness/review.py); None when nothing held it.
    hold_why: str | None = None
    # look/locate: the model calls made inside the action, each {purpose, model, separate,
    # image_size, raw_reply, usage, seconds, error?}; None when the step made none.
    vision: list[dict[str, Any]] | None = None
    # zoom: the region as given (model space) and in CSS px of the viewport, clipped, the
    # scale, the device pixel ratio, the image size and its file; None when the step made none.
    zoom: dict[str, Any] | None = None
    # Images the action attached for the next input (other than zoom's), each {kind, label,
    # file (step_NNN_<kind>.png), and what the action notes about it}; None when none.
    attachments: list[dict[str, Any]] | None = None
    # Captures since the previous step that needed more than one request: `retries` (asked again
    # after no answer), `nav_retries` (of which a new document committed meanwhile), `fallbacks`
    # (a browser-scaled capture redone full size); None when every capture came back at once.
    capture: dict[str, int] | None = None
    # Characters UTF-8 cannot hold (a lone UTF-16 surrogate in the page's title or text)
    # replaced by U+FFFD in this line; None when there were none.
    replaced_characters: int | None = None
    # The workflow cache took this step, not a model: {entry_step, found}; None otherwise.
    cached: dict[str, Any] | None = None
    # The step router's decision (routing/router.py): by (model, rule, template), route, reason,
    # model, tried (why earlier routes did not apply), detail; None without a routing table.
    route: dict[str, Any] | None = None


class CaptureFile(Record):
    """capture.json. Entries stay plain JSON objects: their fields are documented in
    docs/records.md and written by record/capture.py, the only producer."""

    model_config = ConfigDict(extra="allow")
    _absent_when_none = frozenset({"note", "error", "blocks", "documents"})

    requests: list[dict[str, Any]] = Field(default_factory=list)  # XHR/fetch, redacted
    navigations: list[dict[str, Any]] = Field(default_factory=list)  # top-level frame navigations
    downloads: list[dict[str, Any]] = Field(default_factory=list)
    blocks: list[dict[str, Any]] | None = None  # navigations the site guard refused; absent when none
    documents: list[dict[str, Any]] | None = None  # downloads the document view opened or refused
    note: str | None = None  # who exported it when it was not the task itself (a lost worker)
    error: str | None = None  # the capture database could not be read; lists hold what was
