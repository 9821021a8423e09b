"""Built-in tasks on the pages that stand in the way: the captcha gate, slow and consent pages,
forms."""

from __future__ import annotations

import random

from webfovea_proving_ground.plan import (
    L,
    Step,
    answer,
    answer_value,
    any_fetch,
    click,
    click_many,
    fill,
    last_document,
    scroll_to,
    select,
    text_has,
    url_has,
    value_is,
    visible,
    wait,
)
from webfovea_proving_ground.sites import forms, gate, slow
from webfovea_proving_ground.sites.images import captcha_solution
from webfovea_proving_ground.suites.base import GATE_TRUTH, TOKEN_QUIRK, SuiteBase


class ObstacleTasks(SuiteBase):
    # -- captcha gate --------------------------------------------------------------------------
    def gate_tasks(self) -> None:
        tiles = [L(f'#grid .tile[data-i="{i}"]') for i in captcha_solution(self.seed)]
        solve = [click_many(tiles), click(L("#verify"), expect=url_has("/gate/data"))]
        rows = {r.port: r for r in gate.port_rows(self.seed)}
        for i, (port, col, label) in enumerate(
            [
                ("Hamburg", "clearance", "median clearance time in hours"),
                ("Piraeus", "decl", "number of declarations"),
            ]
        ):
            r = rows[port]
            val = f"{r.clearance_h:.1f}" if col == "clearance" else f"{r.declarations:,}"
            tgt = L(f'#ports tr[data-port="{port}"] td.{col}')
            self.add(
                f"gate-value-{i + 1:02d}",
                "captcha",
                "/gate",
                f"Open the customs data (pass the human check) and report the {label} at {port} in Q4 2024.",
                val,
                "document extraction",
                ["captcha"],
                [*solve, answer(tgt)],
                truth=GATE_TRUTH,
            )
        delayed = "; ".join(gate.delayed_ports(self.seed)) or "none"
        self.add(
            "gate-list-01",
            "captcha",
            "/gate",
            f"Open the customs data (pass the human check) and list every port whose median clearance time "
            f"exceeds {gate.DELAY_LIMIT} hours, separated by semicolons.",
            delayed,
            "complete data retrieval",
            ["captcha"],
            [*solve, answer(L("#delayed"), regex=r"hours: (.+)$")],
            truth=GATE_TRUTH,
        )

    # -- slow and consent ----------------------------------------------------------------------
    def slow_tasks(self) -> None:
        ships = slow.shipments(self.seed)
        s = ships[3]
        tgt = L(f'#ship tr[data-id="{s.sid}"] td.status')
        self.add(
            "slow-wait-01",
            "slow",
            "/shipments",
            f"What is the current status of shipment {s.sid} in the shipment tracker?",
            s.status,
            "document extraction",
            ["slow"],
            [wait(visible(L("#ship"))), answer(tgt)],
        )
        s = ships[72]
        tgt = L(f'#ship tr[data-id="{s.sid}"] td.weight')
        self.add(
            "slow-lazy-01",
            "slow",
            "/shipments",
            f"What is the weight in tonnes of shipment {s.sid} in the shipment tracker? More rows load as "
            "you scroll.",
            f"{s.weight_t:.1f}",
            "document extraction",
            ["slow", "long_page"],
            [
                wait(visible(L("#ship"))),
                # Rows load only when the sentinel under the table scrolls into view: bring it
                # up, wait for the next batch, again, then go to the row.
                scroll_to(L("#sentinel")),
                wait(visible(L("#ship tbody tr", nth=2 * slow.PAGE_SIZE - 1))),
                scroll_to(L("#sentinel")),
                wait(visible(L("#ship tbody tr", nth=3 * slow.PAGE_SIZE - 1))),
                scroll_to(tgt),
                answer(tgt),
            ],
            truth=[any_fetch("/shipments/api/rows", offset={"ge": (72 // slow.PAGE_SIZE) * slow.PAGE_SIZE})],
        )
        held = "; ".join(slow.alerts(self.seed)) or "none"
        self.add(
            "slow-list-01",
            "slow",
            "/shipments",
            "List all shipments the tracker reports as held by customs, separated by semicolons.",
            held,
            "complete data retrieval",
            ["slow"],
            [
                wait(text_has(L("#alerts"), "Held by customs")),
                answer(L("#alerts"), regex=r"Held by customs: (.+)$"),
            ],
        )

    def consent_tasks(self) -> None:
        prices = slow.energy_prices(self.seed)
        last = slow.ENERGY_MONTHS[-1]
        accept = click(L("#consent-accept"), expect=visible(L("#prices")))
        tgt = L('#prices tr[data-region="South-West"] td.price')
        self.add(
            "consent-tab-01",
            "consent",
            "/energy",
            "On the energy price monitor, what is the gas price (EUR per MWh) in the South-West region for "
            f"{slow.MONTH_LABELS[last]}?",
            prices["gas"]["South-West"][last],
            "document extraction",
            ["consent"],
            [
                accept,
                click(L('button.tab[data-tab="gas"]'), expect=text_has(L("#unit"), "EUR per MWh")),
                answer(tgt),
            ],
        )
        tgt = L('#prices tr[data-region="Central"] td.price')
        self.add(
            "consent-select-01",
            "consent",
            "/energy",
            "On the energy price monitor, what was the electricity price (cents per kWh) in the Central region "
            "in January 2025?",
            prices["electricity"]["Central"]["2025-01"],
            "form interaction",
            ["consent", "select"],
            [
                click(L("#consent-reject"), expect=visible(L("#prices"))),
                select(L("#month"), "January 2025", expect=value_is(L("#month"), "2025-01")),
                answer(tgt),
            ],
        )
        tgt = L('#prices tr[data-region="North-East"] td.price')
        self.add(
            "consent-read-01",
            "consent",
            "/energy",
            "On the energy price monitor, what is the latest electricity price (cents per kWh) in the "
            "North-East region?",
            prices["electricity"]["North-East"][last],
            "document extraction",
            ["consent"],
            [accept, answer(tgt)],
        )

    # -- forms -----------------------------------------------------------------------------------
    def form_tasks(self) -> None:
        comps = forms.companies(self.seed)
        unique = [c for c in comps if len(forms.search_companies(self.seed, c.name)) == 1]
        rng = random.Random(f"suite-forms-{self.seed}")
        picks = rng.sample(unique, 2)
        for tid, comp, quirks, extra in [
            ("register-search-01", picks[0], None, []),
            ("register-token-01", picks[1], TOKEN_QUIRK, ["token"]),
        ]:
            self.add(
                tid,
                "forms",
                "/register",
                f"Search the company register for {comp.name} and report its registration number.",
                comp.reg,
                "form interaction",
                ["fill", *extra],
                [
                    fill(L("#q"), comp.name, submit=True, expect=url_has("q=")),
                    answer(L("#reg-results td.reg")),
                ],
                quirks=quirks,
                truth=[last_document("/register", q=comp.name)],
            )
        # A query with a handful of hits for a complete-list task.
        query = next(
            f"{p} {s}"
            for p in forms.PREFIXES
            for s in forms.SUFFIXES
            if 2 <= len(forms.search_companies(self.seed, f"{p} {s}")) <= 4
        )
        hits = "; ".join(c.name for c in forms.search_companies(self.seed, query))
        self.add(
            "register-list-01",
            "forms",
            "/register",
            f"List every company in the register whose name contains “{query}”, separated by semicolons.",
            hits,
            "complete data retrieval",
            ["fill"],
            [
                fill(L("#q"), query, submit=True, expect=url_has("q=")),
                answer(L("#result-summary"), regex=r"”: (.+)$"),
            ],
            truth=[last_document("/register", q=query)],
        )
        self.add(
            "register-empty-01",
            "forms",
            "/register",
            "Search the company register for Zephyr Quantum Ventures and report its registration number; "
            "if it is not registered, answer with an empty string.",
            "",
            "form interaction",
            ["fill"],
            [fill(L("#q"), "Zephyr Quantum Ventures", submit=True, expect=url_has("q=")), answer_value("")],
            truth=[last_document("/register", q="Zephyr Quantum Ventures")],
        )
        for tid, dataset, said, date, notes in [
            ("requests-form-01", "cpi-m", None, "2025-03-14", "Quarterly CPI by region"),
            (
                "requests-form-02",
                "trade-q",
                "merchandise trade (quarterly)",
                "2025-06-02",
                "Exports by partner",
            ),
        ]:
            plan: list[Step] = []
            classes = ["fill", "date_input"]
            if said:
                plan.append(select(L("#dataset"), said, expect=value_is(L("#dataset"), dataset)))
                classes.insert(0, "select")
            plan += [
                fill(L("#delivery"), date, expect=value_is(L("#delivery"), date)),
                fill(L("#notes"), notes, expect=text_has(L("#notes"), notes)),
                click(L("#submit-request"), expect=text_has(L("#confirmation"), "Reference")),
                answer(L("#confirmation .ref")),
            ]
            what = f"the dataset {said}, " if said else ""
            self.add(
                tid,
                "forms",
                "/requests",
                f"Submit a data extract request for {what}delivery date {date}, with the note "
                f"“{notes}”. Report the reference number shown on confirmation.",
                forms.request_reference(self.seed, dataset, date, notes),
                "form interaction",
                classes,
                plan,
                truth=[any_fetch("/requests/api/submit", dataset=dataset, date=date, notes=notes)],
            )
        query = "inflation report 2023"
        first = forms.search_publications(self.seed, query)[0]
        if first[0] == forms.publications(self.seed)[0][0]:  # a failed search would go unnoticed
            raise ValueError(f"seed {self.seed}: the search result is also the latest publication")
        self.add(
            "publications-search-01",
            "forms",
            "/publications",
            f"Search the publications for “{query}” and report the catalogue number of the first result.",
            first[0],
            "form interaction",
            ["fill"],
            [
                fill(L("#pub-q"), query, submit=True, expect=url_has("q=")),
                answer(L("#pub-results li.pub .pubid")),
            ],
            truth=[last_document("/publications", q=query)],
        )
