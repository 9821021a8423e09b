"""The run-folder and task-folder format: one schema, one writer and one reader per file.

docs/records.md describes every file and field for users. Layering: this package imports only
webfovea.task, webfovea.config, webfovea.secrets (the scrub), Pydantic and PIL (writer.py), so every other part — agent,
runner, eval, replay — can depend on it. record/capture.py (Playwright listeners) and
record/writer.py (PIL) are imported on their own, not from here.
"""

from webfovea.record.atomic import RecordError, now_iso, write_json_atomic, write_text_atomic
from webfovea.record.files import (
    TrajectoryError,
    append_step,
    check_result,
    config_fields,
    failure_result,
    read_capture,
    read_result,
    read_trajectory,
    update_result,
    write_capture,
    write_labels,
    write_result,
)
from webfovea.record.run_files import (
    mark_run_ended,
    new_run_info,
    read_run_info,
    read_run_tasks,
    read_summary_file,
    write_model_quirks,
    write_run_info,
    write_run_tasks,
    write_summary_file,
)
from webfovea.record.run_schema import (
    GroupStats,
    RunInfo,
    Summary,
    SummaryMeta,
    TaskRow,
)
from webfovea.record.schema import CaptureFile, StateScore, StepRecord, TaskResult, UsageTotals

__all__ = [
    "CaptureFile",
    "GroupStats",
    "RecordError",
    "RunInfo",
    "StateScore",
    "StepRecord",
    "Summary",
    "SummaryMeta",
    "TaskResult",
    "TaskRow",
    "TrajectoryError",
    "UsageTotals",
    "append_step",
    "check_result",
    "config_fields",
    "failure_result",
    "mark_run_ended",
    "new_run_info",
    "now_iso",
    "read_capture",
    "read_result",
    "read_run_info",
    "read_run_tasks",
    "read_summary_file",
    "read_trajectory",
    "update_result",
    "write_capture",
    "write_json_atomic",
    "write_labels",
    "write_result",
    "write_model_quirks",
    "write_run_info",
    "write_run_tasks",
    "write_summary_file",
    "write_text_atomic",
]
