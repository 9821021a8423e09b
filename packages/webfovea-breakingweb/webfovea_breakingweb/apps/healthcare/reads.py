"""The patient portal's retrieval templates: what a patient reads off the test results list. The
list comes as stored (newest first), so server/scrambled_timestamps (`order_sensitive:
"results"`) makes "the most recent" a matter of reading every collection date (half of them
then written another way); seed/split_information (`unit`: the ordering provider) shows provider
codes, their names on the Codes legend. The oracle reads the true row (by id) or the legend."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.healthcare import plans as p
from webfovea_breakingweb.apps.healthcare.common import API, KIT
from webfovea_breakingweb.apps.healthcare.state import HealthState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer


def t_latest_result_orderer(state: HealthState, r: random.Random, n: int) -> StatefulTask | None:
    test = r.choice(["", *sorted({x.test for x in state.results})])
    group = [x for x in state.results if not test or x.test == test]
    ranked = sorted(group, key=lambda x: x.collected, reverse=True)
    if len(ranked) < 2 or ranked[0].collected == ranked[1].collected:  # a tie: no one "most recent"
        return None
    top = ranked[0]
    who = next(d.name for d in state.providers if d.id == top.ordered_by)
    what = f"{test} result" if test else "test result"
    plan = [
        p.nav("results", "#results tbody tr"),
        answer(L(f'#results tr[data-id="{top.id}"] td.ordered-by')),
    ]
    return KIT.read(
        "latest-result-orderer", n,
        f"On Meadowcare MyHealth, who ordered your most recent {what}? Report the provider's name.",
        plan, who, f"{API}/results",
        {"submit": "#nav-results", "submit_step": 0, "order_sensitive": "results", "unit": top.ordered_by},
    )  # fmt: skip


TEMPLATES = {"latest-result-orderer": t_latest_result_orderer}
