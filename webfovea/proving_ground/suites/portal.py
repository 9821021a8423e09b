"""Built-in tasks on the other proving-ground sites: the trade dashboard (cross-origin iframe),
rankings (obfuscating font), filings, cross-site tasks, the captcha gate, slow and consent pages,
forms."""

from __future__ import annotations

import random

from webfovea.proving_ground.plan import (
    DASH,
    DOC,
    L,
    Step,
    answer,
    answer_value,
    any_document,
    any_fetch,
    click,
    click_many,
    fill,
    find_text,
    hover,
    last_document,
    last_fetch,
    read_text,
    scroll_to,
    select,
    text_has,
    url_has,
    value_is,
    visible,
    wait,
)
from webfovea.proving_ground.sites import filings as filings_site
from webfovea.proving_ground.sites import forms, gate, rankings, slow
from webfovea.proving_ground.sites.data import BY_CODE
from webfovea.proving_ground.sites.images import captcha_solution
from webfovea.proving_ground.suites.base import GATE_TRUTH, TABLE, TOKEN_QUIRK, SuiteBase


class PortalTasks(SuiteBase):
    def dashboard_tasks(self) -> None:
        labels = {
            "exports": "exports",
            "imports": "imports",
            "balance": "trade balance",
            "partner": "main trading partner",
        }
        wanted = [
            (["KE", "NG"], "exports"),
            (["CL", "MX"], "imports"),
            (["VN", "ID", "IN"], "partner"),
            (["PE", "EG"], "balance"),
        ]
        for i, (codes, key) in enumerate(wanted):
            # The value must differ from the default country's, or a failed click would go unnoticed.
            code = next((c for c in codes if self.trade(c, key) != self.trade("AU", key)), None)
            if code is None:
                raise ValueError(f"seed {self.seed}: no country's {key} differs from the default's")
            c = BY_CODE[code]
            unit = "" if key == "partner" else " in USD bn"
            self.add(
                f"dashboard-list-{i + 1:02d}-{code.lower()}",
                "dashboard",
                "/dashboard",
                f"In the trade dashboard, select {c.said} and report its 2024 {labels[key]}{unit}.",
                self.trade(code, key),
                "document extraction",
                ["iframe"],
                self.pick_country(code) + [answer(L(f'#detail [data-k="{key}"]', DASH))],
            )
        for i, (code, year) in enumerate([("AU", 2021), ("AU", 2024), ("KE", 2022)]):
            bar = L(f'#chart rect.bar[data-year="{year}"]', DASH)
            value = f"{self.w.trade[code]['exports'][year - 2019]:.1f}"  # type: ignore[index]
            plan = (self.pick_country(code) if code != "AU" else []) + [
                hover(bar, expect=visible(L("#tooltip", DASH))),
                answer(L("#tooltip .val", DASH)),
            ]
            classes = ["hover"] + (["iframe"] if code != "AU" else [])
            who = "the country selected by default (Australia)" if code == "AU" else BY_CODE[code].said
            self.add(
                f"dashboard-chart-{i + 1:02d}",
                "dashboard",
                "/dashboard",
                f"The trade dashboard's bar chart shows exports by year. For {who}, what were the "
                f"exports in {year}, in USD bn?",
                value,
                "chart analysis",
                classes,
                plan,
            )

    # -- rankings (obfuscating font) ---------------------------------------------------------
    def rankings_tasks(self) -> None:
        cities = rankings.ranking(self.seed)
        decode = {"decode": "pua_font", "seed": self.seed}
        near, far = cities[4], cities[52]
        score = L(f'#rank-table tr[data-name="{near.name}"] td.score')
        self.add(
            "rankings-font-01",
            "rankings",
            "/rankings",
            f"What score did {near.name} get in the City Liveability Index 2025?",
            near.score,
            "document extraction",
            ["font", "read_text"],
            [read_text(near.name), answer(score, **decode)],
        )
        score = L(f'#rank-table tr[data-name="{far.name}"] td.score')
        self.add(
            "rankings-font-02",
            "rankings",
            "/rankings",
            f"What score did {far.name} get in the City Liveability Index 2025?",
            far.score,
            "document extraction",
            ["font", "long_page"],
            [scroll_to(score), answer(score, **decode)],
        )
        mid = cities[23]
        rank = L(f'#rank-table tr[data-name="{mid.name}"] td.rank')
        self.add(
            "rankings-font-03",
            "rankings",
            "/rankings",
            f"At which rank is {mid.name} in the City Liveability Index 2025?",
            str(mid.rank),
            "document extraction",
            ["font", "read_text"],
            [read_text(mid.name), scroll_to(rank), answer(rank, **decode)],
        )
        # The filter matches names and countries: pick a city it isolates, so "1 cities shown" holds.
        target = next(
            c
            for c in cities[37:] + cities[:37]
            if sum(c.name.lower() in (o.name + "|" + o.country).lower() for o in cities) == 1
        )
        first_score = L("#rank-table tbody tr:not([hidden]) td.score")
        self.add(
            "rankings-token-01",
            "rankings",
            "/rankings",
            f"Filter the City Liveability Index by the city name {target.name} and report its score.",
            target.score,
            "document extraction",
            ["token", "font"],
            [
                fill(L("#filter"), target.name, expect=text_has(L("#shown"), "1 cities shown")),
                answer(first_score, **decode),
            ],
            TOKEN_QUIRK,
        )

    # -- filings (long document in a cross-origin iframe) --------------------------------------
    def filings_tasks(self) -> None:
        docs = filings_site.filings(self.seed)
        phrases = {k: v[0] for k, v in filings_site.FACT_SENTENCES.items()}
        questions = {
            "headcount": "What was the total headcount at year end (full-time equivalents)?",
            "revenue": "What was net revenue for the financial year, in millions?",
            "scope1": "How many tonnes CO2e of direct (scope 1) greenhouse gas emissions were reported?",
            "dividend": "What dividend per share does the Board propose?",
        }
        for i, (doc_id, key) in enumerate(
            [("nt-2024", "headcount"), ("hm-2024", "revenue"), ("km-2024", "scope1")]
        ):
            f = docs[doc_id]
            fact = L(f"#fact-{key}", DOC)
            self.add(
                f"filings-find-{i + 1:02d}",
                "filings",
                f"/filings?doc={doc_id}",
                f"The viewer shows the 2024 annual report of {f.company}. {questions[key]}",
                f.facts[key],
                "document extraction",
                ["find_text"],
                [find_text(phrases[key], fact), answer(fact)],
                truth=[last_document("/filings", doc=doc_id)],
            )
        f = docs["km-2024"]
        fact = L("#fact-dividend", DOC)
        self.add(
            "filings-open-01",
            "filings",
            "/filings",
            f"Open the 2024 annual report of {f.company} in the filings viewer. {questions['dividend']}",
            f.facts["dividend"],
            "document extraction",
            ["find_text"],
            [
                click(L('a.doc[data-doc="km-2024"]'), expect=url_has("doc=km-2024")),
                find_text(phrases["dividend"], fact),
                answer(fact),
            ],
            truth=[last_document("/filings", doc="km-2024")],
        )

    def cross_site_tasks(self) -> None:
        docs = filings_site.filings(self.seed)
        f = docs["hm-2024"]
        code = next(c.code for c in BY_CODE.values() if c.option == f.facts["market"])
        self.add(
            "cross-filing-dashboard-01",
            "dashboard",
            "/filings?doc=hm-2024",
            f"The annual report of {f.company} names its largest export market. Look that country up in the "
            "trade dashboard and report its 2024 exports in USD bn.",
            self.trade(code, "exports"),
            "multi-source comparison",
            ["find_text", "iframe"],
            [
                find_text(filings_site.FACT_SENTENCES["market"][0], L("#fact-market", DOC)),
                click(L('nav.main a[href="/dashboard"]'), expect=url_has("/dashboard")),
                *self.pick_country(code),
                answer(L('#detail [data-k="exports"]', DASH)),
            ],
            truth=[any_document("/dashboard")],
        )
        # A source country whose partner differs from the partner of the dashboard's default
        # country (Australia), in a month where the two partners' values differ too.
        default_partner = self.code_of(self.w.trade["AU"]["partner"])
        src = next(
            c
            for c in ("CL", "MX", "PE", "BR", "KE")
            if self.code_of(self.w.trade[c]["partner"]) not in (default_partner, "AU")
        )
        partner = BY_CODE[self.code_of(self.w.trade[src]["partner"])]
        period = self.period_differing(
            partner.code, "cpi", ["2024-12", "2024-11", "2024-10", "2024-09"], other=default_partner
        )
        self.add(
            "cross-dashboard-stats-01",
            "stats",
            "/dashboard",
            f"Find {BY_CODE[src].said}'s main trading partner in the trade dashboard, open that partner's "
            f"statistics from the dashboard and report its consumer price inflation for {period}.",
            self.cell(partner.code, "cpi", period),
            "multi-source comparison",
            ["iframe", "long_page"],
            # The partner link carries the dashboard's state to the statistics page: a country
            # click that never happened opens the default country's partner instead.
            [
                *self.pick_country(src),
                click(L('#detail [data-k="partner"] a', DASH), expect=url_has(f"country={partner.code}")),
                wait(text_has(L("#caption"), partner.option)),
                scroll_to(self.row(period)),
                answer(self.row(period)),
            ],
            truth=[last_fetch(TABLE, country=partner.code, indicator="cpi")],
        )

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
                quirks,
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
