"""Judging runs: evidence from a task folder (ours or WebRetriever's), the NavEval / WebJudge /
rule judges, and the judge's agreement with ground truth. docs/judge.md is the user's guide.

Above `eval` (scoring, predicates, truth) and beside `runner`: the judge reads finished run
folders; it never runs tasks.
"""
