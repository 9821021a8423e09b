"""Evaluation: scoring answers, loading task files, run summaries, the HTML report, run comparison.

  scoring.score_answer(answer, expected) -> Score     exact / numeric (±0.5%) / date / list / empty
  taskfile.load_task_file(path, known_sites) -> list[Task]   one-line TaskFileError on bad input
  summary.write_summary(run_dir, tasks, complete=, meta=) -> Path   summary.json or summary.partial.json
  report.write_report(run_dir, out=None, images="lazy") -> Path   HTML; screenshots linked ("inline": one file)
  compare.compare_runs(a, b) -> Comparison; format_comparison(c) -> "B 40/42 vs A 12/42: +28/−0"

Submodules are imported on demand so that importing one (the runner scores answers) stays cheap.
"""
