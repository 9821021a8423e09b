"""Built-in tasks on the widget lab (`webfovea_proving_ground/sites/lab.py`): each fails when the harness
returns before the page answered, scrolls a small list box by a fixed 600 px, or presses
before hover effects happened.

- `lab-ws-*`: the answer arrives over a WebSocket 1 s after the click; a harness that
  returns earlier makes the model (here: the oracle's `expect` check) submit again, and the
  server refuses the duplicate, which replaces the reference on the page.
- `lab-listbox-01`: a 150 px list box; 600 px per scroll jumps past the item every time.
- `lab-rows-01`: the Details button takes clicks only after the pointer rested on its row;
  a click that moves and presses at once lands on the row, which opens another page.
"""

from __future__ import annotations

from typing import Any

from webfovea_proving_ground.plan import L as Loc
from webfovea_proving_ground.plan import answer, any_fetch, click, fill, hover, scroll_to, text_has, visible
from webfovea_proving_ground.sites.lab import LISTBOX_ITEMS
from webfovea_proving_ground.sites.lab_live import PORTS, ws_reference

ORDER_FRAME = ["iframe#order-frame"]


def lab_tasks(add: Any) -> None:
    """Add the lab's tasks through `add(tid, site, path, text, answer, category, classes, plan)`."""
    ref = ws_reference("2")
    add(
        "lab-ws-01",
        "lab",
        "/lab/ws?delay=1000",
        "On the lab's order form, submit the data extract order as it is and report the reference number.",
        ref,
        "form interaction",
        ["late_answer"],
        [
            click(Loc("#submit"), expect=text_has(Loc("#result"), "Order accepted")),
            answer(Loc("#result .ref")),
        ],
    )
    add(
        "lab-ws-frame-01",
        "lab",
        "/lab/ws-frame?delay=1000",
        "The embedded order form is provided by a fulfilment partner. Submit the order as it is and report the "
        "reference number.",
        ref,
        "form interaction",
        ["late_answer", "iframe"],
        [
            click(
                Loc("#submit", ORDER_FRAME), expect=text_has(Loc("#result", ORDER_FRAME), "Order accepted")
            ),
            answer(Loc("#result .ref", ORDER_FRAME)),
        ],
    )
    i = 14
    item = Loc(f'#listbox [data-i="{i}"]')
    add(
        "lab-listbox-01",
        "lab",
        "/lab/listbox",
        f"In the lab's list of warehouse codes, what is the code of {LISTBOX_ITEMS[i - 1][0]}?",
        LISTBOX_ITEMS[i - 1][1],
        "document extraction",
        ["scroll_box"],
        [scroll_to(item), answer(Loc(f'#listbox [data-i="{i}"] .code'))],
    )
    code = f"CC-{3 * 4721 % 9000 + 1000}"
    add(
        "lab-rows-01",
        "lab",
        "/lab/rows",
        "In the lab's shipment list, open the details of Shipment 3 and report its customs code.",
        code,
        "document extraction",
        ["hover_intent"],
        [
            click(Loc('.details[data-id="3"]'), expect=text_has(Loc("#row-dialog"), "customs code")),
            answer(Loc("#row-dialog .code")),
        ],
    )
    add(
        "lab-menu-01",
        "lab",
        "/lab/menu",
        "Open the lab's Data menu and choose Exports. What figure does the page then show?",
        "48.2 bn",
        "document extraction",
        ["hover", "late_answer"],
        [
            hover(Loc("#menu-top"), expect=visible(Loc('#submenu a[data-v^="Exports"]'))),
            click(Loc('#submenu a[data-v^="Exports"]'), expect=text_has(Loc("#menu-result"), "Exports")),
            answer(Loc("#menu-result"), regex=r"Exports: (.+)$"),
        ],
    )
    name, port = next((n, c) for n, c in PORTS if n == "Hamburg")
    add(
        "lab-autocomplete-01",
        "lab",
        "/lab/autocomplete",
        f"On the lab's port finder, type 'ha' and pick {name} from the suggestions. Which code is shown?",
        port,
        "form interaction",
        ["fill", "late_answer"],
        [
            fill(Loc("#port-q"), "ha", expect=visible(Loc(f'#port-suggestions li[data-code="{port}"]'))),
            click(
                Loc(f'#port-suggestions li[data-code="{port}"]'), expect=text_has(Loc("#port-result"), port)
            ),
            answer(Loc("#port-result .code")),
        ],
        truth=[any_fetch("/lab/api/ports", q="ha")],
    )
    add(
        "lab-order-01",
        "lab",
        "/lab/order",
        "On the lab's order page, show the options, then confirm the order without choosing any option. "
        "What total does the confirmation show?",
        "120.00",
        "form interaction",
        ["late_answer"],
        [
            click(Loc("#show-options"), expect=visible(Loc("#options label"))),
            click(Loc("#confirm"), expect=text_has(Loc("#confirmation"), "Order total")),
            answer(Loc("#confirmation .total")),
        ],
    )
    add(
        "lab-tabs-01",
        "lab",
        "/lab/tabs",
        "On the lab's regional figures, open the Gamma tab. How many tonnes does it show?",
        "5,678",
        "document extraction",
        ["tabs"],
        [
            click(Loc("#tab-gamma"), expect=text_has(Loc("#panel-text"), "Gamma")),
            answer(Loc("#panel-text"), regex=r": (.+) tonnes"),
        ],
    )
