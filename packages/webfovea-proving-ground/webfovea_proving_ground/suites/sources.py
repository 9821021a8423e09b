"""Built-in tasks that read the proving ground's data sources: the trade dashboard (cross-origin
iframe), rankings (obfuscating font), filings, and the cross-site tasks that join them."""

from __future__ import annotations

from webfovea_proving_ground.plan import (
    DASH,
    DOC,
    L,
    answer,
    any_document,
    click,
    fill,
    find_text,
    hover,
    last_document,
    last_fetch,
    read_text,
    scroll_to,
    text_has,
    url_has,
    visible,
    wait,
)
from webfovea_proving_ground.sites import filings as filings_site
from webfovea_proving_ground.sites import rankings
from webfovea_proving_ground.sites.data import BY_CODE
from webfovea_proving_ground.suites.base import TABLE, TOKEN_QUIRK, SuiteBase


class SourceTasks(SuiteBase):
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
            quirks=TOKEN_QUIRK,
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
