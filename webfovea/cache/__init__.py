"""Cached workflows (`webfovea run --cache DIR`, `run_task(cache=DIR)`): a task's executed
actions kept with what identified their targets, and replayed without a model call while the
page still matches; the model decides from the first step where it does not (docs/embedding.md)."""

from webfovea.cache.workflow import WorkflowCache

__all__ = ["WorkflowCache"]
