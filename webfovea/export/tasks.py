"""The task folders of the runs given, each with its trajectory and its verdict."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.export.steps import TaskSkipped, Trajectory, read_trajectory
from webfovea.export.verdicts import RunVerdicts, Verdict
from webfovea.export.webretriever import ExportError
from webfovea.judge.run import record_ids, task_folders


@dataclass
class JudgedTask:
    traj: Trajectory
    record_id: str  # the id its judge record is kept under (judge/run.py record_ids)
    verdict: Verdict

    @property
    def label(self) -> str:
        return f"{self.traj.run.name}/{self.traj.folder.name}"

    def provenance(self) -> dict[str, Any]:
        return {
            "run": str(self.traj.run),
            "task_id": self.traj.task_id,
            "folder": self.traj.folder.name,
            "passed": self.verdict.passed,
            "verdict_source": self.verdict.source,
        }

    def image_sizes(self) -> list[tuple[int, int]]:
        out = set()
        for s in self.traj.steps:
            size = s.get("image_size")
            if isinstance(size, list) and len(size) == 2:
                out.add((int(size[0]), int(size[1])))
        return sorted(out)

    def coordinate_convention(self) -> str:
        config = self.traj.result.get("config")
        return str((config or {}).get("coordinate_convention") or "pixels")


def judged_tasks(runs: list[Path], judge: str | None) -> list[JudgedTask]:
    """Every task folder of every run with its verdict. ExportError when a folder is not a run,
    a run lacks the judge's records, or no task of any run has a verdict."""
    if not runs:
        raise ExportError("give at least one run folder")
    out: list[JudgedTask] = []
    for run in runs:
        if not run.is_dir():
            raise ExportError(f"{run} is not a run folder")
        folders = task_folders(run)
        if not folders:
            raise ExportError(f"{run} holds no task folders (sub-folders with a result.json)")
        try:
            verdicts = RunVerdicts(run, judge)
        except LookupError as e:
            raise ExportError(str(e)) from None
        ids = record_ids(folders)
        for folder in folders:
            try:
                traj = read_trajectory(run, folder)
            except TaskSkipped:
                continue
            out.append(JudgedTask(traj, ids[folder], verdicts.of(ids[folder], traj.task_id, traj.result)))
    if not any(t.verdict.passed is not None for t in out):
        how = f"records of {judge}" if judge else "site truth or scored summary.json"
        raise ExportError(
            f"no judged tasks in {', '.join(str(r) for r in runs)} (no {how}): judge the run first "
            "(`webfovea judge run RUN`, then --judge METHOD) or score it (`webfovea bench` writes summary.json)"
        )
    return out
