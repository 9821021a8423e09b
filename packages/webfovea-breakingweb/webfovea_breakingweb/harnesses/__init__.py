"""BreakingWeb through the paper's two harness contracts (seed 003, Appendix A.2–A.3), run by
`webfovea bench breakingweb --harness text|gui`: each task through the BrowserGym registration
(gym/) with its contract, the text harness's 26,000-token input budget and the per-task time
cap, the results written into the same run folder layout and scored by the same backend
evaluator; and the harness × condition table over runs of several harnesses (table.py).
"""
