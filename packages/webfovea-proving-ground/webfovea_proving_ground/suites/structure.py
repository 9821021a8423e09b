"""Built-in tasks on the structure pages (`webfovea_proving_ground/sites/structure.py`): where structured mode is
tested, and which vision mode passes too.

- `struct-stations-01`: the snapshot is over 500 KB; the answer row (the middle of 3,000) is
  truncated away, so a structured agent must `find` it and open its row.
- `struct-shadow-open-01` / `struct-shadow-closed-01`: a widget in an open shadow root (in the
  snapshot) and one in a closed root (not in it: only a point found by looking reaches it).
- `struct-seat-01`: the button renames itself when clicked; its old ref is stale.
- `struct-back-01`: the list shows the last opened report's reference only after going back.
- `struct-labels-01`: the labels are drawn next to the wrong inputs; the markup's are right.
"""

from __future__ import annotations

from typing import Any

from webfovea_proving_ground.plan import L as Loc
from webfovea_proving_ground.plan import answer, back, click, fill, find_text, text_has, visible
from webfovea_proving_ground.sites.data import token
from webfovea_proving_ground.sites.structure import (
    ANSWER_ROW,
    REPORTS,
    contact_code,
    report_ref,
    seat_code,
    station_value,
)


def structure_tasks(add: Any, seed: int) -> None:
    """Add the structure pages' tasks through `add(tid, site, path, text, answer, category, classes, plan)`."""
    row = Loc(f"#st-{ANSWER_ROW}")
    add(
        "struct-stations-01",
        "structure",
        "/struct/stations",
        f"In the rain gauge register, what rainfall (cm) did station ST-{ANSWER_ROW:04d} record in 2023?",
        station_value(seed),
        "document extraction",
        ["long_page", "find_text"],
        [find_text(f"ST-{ANSWER_ROW:04d}", row), answer(Loc(f"#st-{ANSWER_ROW} td:nth-child(7)"))],
    )
    meter = token("meter", seed, n=4).upper()
    add(
        "struct-shadow-open-01",
        "structure",
        "/struct/widgets",
        "On the utility widgets page, show the meter reading. What reading does it give?",
        meter,
        "document extraction",
        ["shadow_dom"],
        [
            click(Loc("open-meter >> #show"), expect=text_has(Loc("open-meter >> #out"), "Reading")),
            answer(Loc("open-meter >> #out"), regex=r"Reading: (.+)$"),
        ],
    )
    vault = token("vault", seed, n=4).upper()
    add(
        "struct-shadow-closed-01",
        "structure",
        "/struct/widgets",
        "On the utility widgets page, unlock the vault. Which vault code is shown?",
        vault,
        "document extraction",
        ["shadow_dom"],
        [
            click(Loc("closed-vault"), expect=text_has(Loc("#vault-result"), "Vault code")),
            answer(Loc("#vault-result"), regex=r"Vault code: (.+)$"),
        ],
    )
    add(
        "struct-seat-01",
        "structure",
        "/struct/seat",
        "Hold seat 14C on the seat booking page, confirm the booking and report the booking code.",
        seat_code(seed),
        "form interaction",
        ["stale_ref"],
        [
            click(Loc("#seat"), expect=visible(Loc("#confirm"))),
            click(Loc("#confirm"), expect=text_has(Loc("#seat-result"), "Booking code")),
            answer(Loc("#seat-result"), regex=r"Booking code: (.+)$"),
        ],
    )
    name = REPORTS[2]
    add(
        "struct-back-01",
        "structure",
        "/struct/reports",
        f"Open the {name} station report, then return to the report list. Which reference does the list show "
        "for the report you opened?",
        report_ref(seed, name),
        "document extraction",
        ["back"],
        [
            click(Loc(f"#rep-{name.lower()}"), expect=visible(Loc("main .card p[data-stored]"))),
            back(expect=text_has(Loc("#last"), "Last opened")),
            answer(Loc("#last"), regex=r"Last opened: (.+)$"),
        ],
    )
    email, phone = "desk@example.org", "+44 20 7946 0001"
    add(
        "struct-labels-01",
        "structure",
        "/struct/contact",
        f"On the contact details form, enter the email {email} and the phone number {phone}, save, and "
        "report the receipt number.",
        contact_code(seed, email, phone),
        "form interaction",
        ["label_layout", "fill"],
        [
            fill(Loc("#email"), email),
            fill(Loc("#phone"), phone),
            click(Loc("#save"), expect=text_has(Loc("#contact-result"), "receipt")),
            answer(Loc("#contact-result"), regex=r"receipt (\S+)$"),
        ],
    )
