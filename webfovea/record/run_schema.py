"""The schemas of a run folder (`runs/<name>/`). docs/records.md describes every field.

run.json       RunInfo: how the run was made (model, whole config, workers, times) + earlier runs
tasks.json     the run's tasks, a JSON list of webfovea.task.Task
summary.json   Summary of a complete run (summary.partial.json: the same, for an incomplete one)
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from webfovea.record.atomic import Record

RUN_JSON = "run.json"
TASKS_JSON = "tasks.json"
SUMMARY_JSON = "summary.json"
PARTIAL_SUMMARY_JSON = "summary.partial.json"


class RunInfo(Record):
    """run.json. Written when a run starts, updated when it ends; a resumed run moves the
    earlier record into `previous_runs`, so the file tells every configuration the folder saw."""

    # Keys this version does not know (written by a newer one) survive a read-update-write.
    model_config = ConfigDict(extra="allow")
    _absent_when_none = frozenset(
        {"suite", "interrupted", "previous_runs", "model_quirks", "verifier_off", "routes", "code", "budget"}
    )

    model: str | None = None
    code: str | None = None  # webfovea's version + a digest of its sources (runner/identity.py)
    profile: str | None = None
    disabled: list[str] = Field(default_factory=list)  # HarnessConfig.disabled()
    outside_rules: list[str] = Field(default_factory=list)  # HarnessConfig.outside_rules()
    workers: int | None = None
    backend: str | None = None
    ray_address: str | None = None
    cdp_urls: list[str] | None = None
    task_timeout_s: float | None = None
    config: dict[str, Any] | None = None  # HarnessConfig.model_dump(mode="json")
    # The model each role used (models/routes.py `recorded`): {act, look, verify, summarise:
    # {model, via: own | act | rule | off}}.
    routes: dict[str, dict[str, Any]] | None = None
    tasks: int | None = None  # number of tasks in the run
    queue_at_start: dict[str, int] | None = None  # pending / done / lost / requeued
    started_at: str | None = None
    ended_at: str | None = None  # None while the run is going (or when it died)
    suite: str | None = None  # 'builtin' or the task file, when the caller said
    interrupted: bool | None = None  # set when the run ends
    previous_runs: list[RunInfo] | None = None  # earlier runs into this folder, oldest first
    # The quirks an instrumented model played (the oracle; its rates are in `model`): counts per
    # quirk, and the log {task_id, call, quirk, ...} gathered from each result.json's model_quirks.
    model_quirks: dict[str, Any] | None = None
    # Why the `verifier` switch is on but checks nothing by default: the model kind replays a
    # script (guardrails/verifier.py off_for_spec). Absent when it checks or is off.
    verifier_off: str | None = None
    # The run's spending cap (`--run-max-tokens`, `--run-max-cost`): {max_tokens, max_cost} at the
    # start; at the end also `spent` {tokens, cost}, and `stopped` (why) with `not_started` (tasks
    # left pending) when it stopped the run (runner/spend.py). Absent without a run cap.
    budget: dict[str, Any] | None = None


class TaskRow(Record):
    """One task in a summary: what was expected, what the run answered, and the score."""

    model_config = ConfigDict(extra="allow")
    _absent_when_none = frozenset({"detail", "tokens", "cost"})

    task: str | None = None
    expected: Any = None
    category: str | None = None
    failure_classes: list[str] = Field(default_factory=list)
    status: str  # a result.json status, or "missing" / "unreadable"
    answer: str | None = None
    score: float = 0.0
    passed: bool = False
    how: str = "empty"  # how the answer was matched (scoring.Score.how)
    steps: int = 0
    seconds: float = 0.0
    error: str | None = None
    detail: str | None = None
    tokens: dict[str, Any] | None = None  # eval/costs.py TokenTally.to_json(): tokens per step of this task
    cost: float | None = None  # $ when the run was given prices
    taxonomy: str | None = None  # why a failed task failed (result.json `taxonomy`); None when passed
    stage: str | None = None  # where it first went wrong (result.json `stage`)


class GroupStats(Record):
    tasks: int
    passed: int
    success_rate: float


class SummaryMeta(Record):
    """Who ran what. model/profile/disabled come from the run's recorded configuration;
    seed, suite and the like from the command that ran it (extra keys are kept)."""

    model_config = ConfigDict(extra="allow")

    model: str | None = None
    profile: str | None = None
    disabled: list[str] = Field(default_factory=list)
    seed: int | None = None
    workers: int | None = None
    started: str | None = None
    ended: str | None = None


class Summary(Record):
    model_config = ConfigDict(extra="allow")
    _absent_when_none = frozenset(
        {
            "note",
            "tokens",
            "vision_tokens",
            "verifier_tokens",
            "verification",
            "roles",
            "extensions",
            "budget",
        }
    )

    tasks: int = 0
    passed: int = 0
    failed: int = 0
    success_rate: float = 0.0
    complete: bool = True
    missing: int = 0
    statuses: dict[str, int] = Field(default_factory=dict)
    steps_total: int = 0
    seconds_total: float = 0.0
    meta: SummaryMeta = Field(default_factory=SummaryMeta)
    per_task: dict[str, TaskRow]
    per_failure_class: dict[str, GroupStats] = Field(default_factory=dict)
    per_category: dict[str, GroupStats] = Field(default_factory=dict)
    # Failed tasks counted by failure label, by its group (belief / action / overreach) and by
    # the stage where they first went wrong (eval/taxonomy.py).
    taxonomy: dict[str, int] = Field(default_factory=dict)
    taxonomy_groups: dict[str, int] = Field(default_factory=dict)
    stages: dict[str, int] = Field(default_factory=dict)
    note: str | None = None  # only in summary.partial.json: why the run is incomplete
    # eval/costs.py: input/uncached/output tokens per step, cache-read fraction from the third
    # step on, and the cost when prices were given (docs/costs.md)
    tokens: dict[str, Any] | None = None
    # The same over the calls of a separate vision model (--vision-model: look/locate), apart
    # from the task model's; `steps` counts its calls. Absent without one.
    vision_tokens: dict[str, Any] | None = None
    # The same over the verifier's calls (guardrails/verifier.py; `steps` counts its calls), and
    # its verdicts over the run: {tasks, calls, rejections, disputed, accepted_first}. Absent when off.
    verifier_tokens: dict[str, Any] | None = None
    verification: dict[str, Any] | None = None
    # Per role (models/routes.py: act, look, verify, summarise): its route {model, via} as run.json
    # records it, `calls`, and `tokens` (the fields of `tokens`: price_units, cost with prices).
    # look counts every look/locate call, whichever model answered; verify is verifier_tokens.
    roles: dict[str, Any] | None = None
    # A plug-in's own block, by plug-in name (its schema is the plug-in's: docs/plugins.md), e.g.
    # BreakingWeb's paired statistics. Absent when no plug-in wrote one.
    extensions: dict[str, Any] | None = None
    # The run's spending cap and spend, as run.json records it (`stopped`: it stopped the run
    # before every task started). Absent without a run cap.
    budget: dict[str, Any] | None = None
