"""Built-in tasks on the statistics portal: selects, autocomplete, dates, prefilled forms,
the comparison table."""

from __future__ import annotations

from webfovea_proving_ground.plan import (
    L,
    Step,
    answer,
    click,
    fill,
    find_text,
    last_fetch,
    scroll_to,
    select,
    text_has,
    value_is,
    visible,
    wait,
)
from webfovea_proving_ground.sites.data import BY_CODE, FREQUENCIES, INDICATORS
from webfovea_proving_ground.sites.stats import DEFAULTS, compare_table
from webfovea_proving_ground.suites.base import COMPARE, TABLE, TOKEN_QUIRK, SuiteBase


class StatsTasks(SuiteBase):
    def stats_select_tasks(self) -> None:
        month_names = {
            f"{m:02d}": n
            for m, n in zip(
                range(1, 13),
                [
                    "January",
                    "February",
                    "March",
                    "April",
                    "May",
                    "June",
                    "July",
                    "August",
                    "September",
                    "October",
                    "November",
                    "December",
                ],
                strict=True,
            )
        }
        cases = [
            ("VN", "M", ["2024-03", "2024-04"]),
            ("CI", "M", ["2023-11", "2023-10"]),
            ("NZ", "A", ["2022", "2021"]),
            ("TR", "Q", ["2021-Q3", "2021-Q2"]),
            ("ST", "M", ["2019-06", "2019-07"]),
            ("PH", "M", ["2017-02", "2017-03"]),
            ("BO", "M", ["2020-09", "2020-10"]),
            ("GB", "Q", ["2024-Q2", "2024-Q1"]),
        ]
        for i, (code, freq, cands) in enumerate(cases):
            c = BY_CODE[code]
            period = self.period_differing(code, "cpi", cands, freq)
            if freq == "M":
                when = f"{month_names[period[5:]]} {period[:4]}"
            elif freq == "Q":
                when = f"Q{period[-1]} {period[:4]} (quarterly data)"
            else:
                when = f"the year {period} (annual data)"
            plan = [select(L("#country"), c.said, expect=value_is(L("#country"), code))]
            if freq != "M":
                plan.append(select(L("#freq"), FREQUENCIES[freq], expect=value_is(L("#freq"), freq)))
            plan += [
                click(L("#apply"), expect=text_has(L("#caption"), f"{c.option}, {FREQUENCIES[freq]}")),
                scroll_to(self.row(period)),
                answer(self.row(period)),
            ]
            self.add(
                f"stats-select-{i + 1:02d}-{code.lower()}",
                "stats",
                "/stats",
                f"In the statistics portal's table builder, show consumer price inflation for {c.said} and "
                f"report the value for {when}, in % y/y as shown in the table.",
                self.cell(code, "cpi", period, freq),
                "form interaction",
                ["select", "long_page"],
                plan,
                truth=[last_fetch(TABLE, country=code, indicator="cpi", freq=freq)],
            )

    def stats_autocomplete_tasks(self) -> None:
        # Autocomplete only (the default country): the indicator box is a plain input.
        for tid, ind, typed, period, quirks, extra in [
            ("stats-autocomplete-01", "unemp", "unemploy", "2019-12", None, []),
            ("stats-token-01", "exports", "export", "2024-06", TOKEN_QUIRK, ["token"]),
            ("stats-autocomplete-02", "retail", "retail", "2022-08", None, []),
        ]:
            au = BY_CODE[DEFAULTS["country"]].said
            plan = [
                fill(L("#indicator-q"), typed, expect=visible(L(f'#suggestions li[data-code="{ind}"]'))),
                click(L(f'#suggestions li[data-code="{ind}"]'), expect=value_is(L("#indicator"), ind)),
                click(L("#apply"), expect=text_has(L("#caption"), INDICATORS[ind])),
                scroll_to(self.row(period)),
                answer(self.row(period)),
            ]
            label = INDICATORS[ind].split(",")[0].lower()
            self.add(
                tid,
                "stats",
                "/stats",
                f"In the statistics portal's table builder, keep {au} as the country, choose the indicator "
                f"'{label}' using the indicator search box, apply, and report the value for {period}.",
                self.cell(DEFAULTS["country"], ind, period),
                "form interaction",
                ["autocomplete", *extra, "long_page"],
                plan,
                quirks=quirks,
                truth=[last_fetch(TABLE, country=DEFAULTS["country"], indicator=ind, freq="M")],
            )
        # Select and autocomplete together.
        period = self.period_differing("KE", "unemp", ["2021-05", "2021-06"])
        plan = [
            select(L("#country"), "Kenya", expect=value_is(L("#country"), "KE")),
            fill(L("#indicator-q"), "unemployment", expect=visible(L('#suggestions li[data-code="unemp"]'))),
            click(L('#suggestions li[data-code="unemp"]'), expect=value_is(L("#indicator"), "unemp")),
            click(
                L("#apply"), expect=text_has(L("#caption"), "Unemployment rate, % of labour force — Kenya")
            ),
            scroll_to(self.row(period)),
            answer(self.row(period)),
        ]
        self.add(
            "stats-select-autocomplete-01",
            "stats",
            "/stats",
            f"Using the statistics table builder, find Kenya's unemployment rate for {period}.",
            self.cell("KE", "unemp", period),
            "form interaction",
            ["select", "autocomplete", "long_page"],
            plan,
            truth=[last_fetch(TABLE, country="KE", indicator="unemp", freq="M")],
        )

    def stats_date_tasks(self) -> None:
        for tid, code, start, end, which, label in [
            ("stats-date-01", "AU", "2020-01-01", "2020-12-31", "avg", "the period average"),
            ("stats-date-02", "AU", "2023-07-01", "2024-06-30", "max", "the maximum"),
            ("stats-date-select-01", "VN", "2023-01-01", "2023-12-31", "avg", "the period average"),
        ]:
            summary = self.w.summary(code, "cpi", "M", start, end)
            full = self.w.summary(code, "cpi", "M", DEFAULTS["from"], DEFAULTS["to"])
            if summary[which] == full[which]:  # a date fill that never happened must show
                which, label = "avg", "the period average"
            c = BY_CODE[code]
            plan: list[Step] = []
            classes = ["date_input", "fill"]
            if code != DEFAULTS["country"]:
                plan.append(select(L("#country"), c.said, expect=value_is(L("#country"), code)))
                classes.insert(0, "select")
            plan += [
                fill(L("#date-from"), start, expect=value_is(L("#date-from"), start)),
                fill(L("#date-to"), end, expect=value_is(L("#date-to"), end)),
                click(L("#apply"), expect=text_has(L("#caption"), f"{start} to {end}")),
                scroll_to(L(f"#{which}")),
                answer(L(f"#{which}")),
            ]
            self.add(
                tid,
                "stats",
                "/stats",
                f"In the statistics table builder, restrict consumer price inflation for {c.said} to the period "
                f"from {start} to {end} (monthly) and report {label} shown in the table footer.",
                summary[which],
                "form interaction",
                classes,
                plan,
                truth=[last_fetch(TABLE, country=code, indicator="cpi", freq="M", from_=start, to=end)],
            )

    def stats_prefilled_tasks(self) -> None:
        # Keyboard-only and scroll-only tasks on a pre-filtered table: they survive misaligned clicks.
        period = "2016-08"
        row = self.row(period)
        self.add(
            "stats-findtext-01",
            "stats",
            "/stats?country=KE&indicator=cpi",
            f"This table lists Kenya's consumer price inflation by month. What was it in {period}?",
            self.cell("KE", "cpi", period),
            "document extraction",
            ["find_text", "long_page"],
            [wait(text_has(L("#caption"), "Kenya")), find_text(period, row), answer(row)],
            truth=[last_fetch(TABLE, country="KE", indicator="cpi")],
        )
        period = "2025-10"
        row = self.row(period)
        self.add(
            "stats-scroll-01",
            "stats",
            "/stats?country=DE&indicator=unemp",
            f"This table lists Germany's unemployment rate by month. What was it in {period}?",
            self.cell("DE", "unemp", period),
            "document extraction",
            ["long_page"],
            [wait(text_has(L("#caption"), "Germany")), scroll_to(row), answer(row)],
            truth=[last_fetch(TABLE, country="DE", indicator="unemp")],
        )

    def compare_tasks(self) -> None:
        rows = {r[0]: r for r in compare_table(self.w, "VN", "KE", "cpi")}
        period = "2024-03"
        tgt = L(f'#cmp tr[data-period="{period}"] td.diff')
        self.add(
            "compare-diff-01",
            "stats",
            "/stats/compare",
            f"On the portal's comparison page, compare consumer price inflation of Vietnam (first) and Kenya "
            f"(second). By how many percentage points did Vietnam's exceed Kenya's in {period}? "
            "(Negative if lower.)",
            rows[period][3],
            "multi-source comparison",
            ["select", "long_page"],
            [
                select(L("#country-a"), "Vietnam", expect=value_is(L("#country-a"), "VN")),
                select(L("#country-b"), "Kenya", expect=value_is(L("#country-b"), "KE")),
                click(L("#cmp-apply"), expect=text_has(L("#caption"), "Viet Nam vs Kenya")),
                scroll_to(tgt),
                answer(tgt),
            ],
            truth=[last_fetch(COMPARE, a="VN", b="KE", indicator="cpi")],
        )
        rows = {r[0]: r for r in compare_table(self.w, "DE", "JP", "unemp")}
        period = "2018-11"
        tgt = L(f'#cmp tr[data-period="{period}"] td.higher')
        self.add(
            "compare-higher-01",
            "stats",
            "/stats/compare",
            f"Compare the unemployment rate of Germany and Japan on the portal's comparison page. "
            f"Which of the two had the higher rate in {period}?",
            rows[period][4],
            "multi-source comparison",
            ["select", "long_page"],
            [
                select(L("#country-a"), "Germany", expect=value_is(L("#country-a"), "DE")),
                select(L("#country-b"), "Japan", expect=value_is(L("#country-b"), "JP")),
                select(
                    L("#cmp-indicator"), "Unemployment rate", expect=value_is(L("#cmp-indicator"), "unemp")
                ),
                click(L("#cmp-apply"), expect=text_has(L("#caption"), "Germany vs Japan")),
                scroll_to(tgt),
                answer(tgt),
            ],
            truth=[last_fetch(COMPARE, a="DE", b="JP", indicator="unemp")],
        )
