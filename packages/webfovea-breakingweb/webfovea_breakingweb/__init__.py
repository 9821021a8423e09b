"""BreakingWeb: stateful apps scored by their backend state, clean and under interventions.

`apps/` (the apps' typed states), `engine/` (session-bound state, the JSON API, the client-side
UI, canonical state/diff hashing, control routes), `tasks.py`, `interventions/<layer>/` (one
module per family), `site.py` (wires apps and interventions into the proving ground), `suite.py`
(the `breakingweb` suite), `obligations.py` + `scoring.py` (docs/breakingweb.md)."""
