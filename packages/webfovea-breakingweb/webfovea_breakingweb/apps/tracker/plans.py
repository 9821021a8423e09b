"""Plan steps on the tracker's page (docs/contracts.md §1), shared by the task templates.

Each step expects what a careful person checks before going on; a write expects the page's
success message (hidden when a request starts), as a person trusts what the page says."""

from __future__ import annotations

from urllib.parse import quote

from webfovea_breakingweb.apps.tracker.state import COLUMNS, PRIORITIES
from webfovea_proving_ground.plan import L, Step, click, drag, fill, select, text_has, visible

SIGN_IN = "If asked to sign in, the user name is analyst and the password portal-2025."
COLUMN = dict(COLUMNS)
PRIORITY = dict(PRIORITIES)


def card(tid: str) -> str:
    return f'#board .tcard[data-id="{tid}"]'


def column(status: str) -> str:
    return f'#board .col[data-status="{status}"]'


def tab(view: str) -> Step:
    shows = {"board": "#board", "list": "#tickets", "new": "#n-title"}[view]
    return click(L(f'nav.tabs a[data-view="{view}"]'), expect=visible(L(shows)))


def board_filter(text: str) -> list[Step]:
    return [
        fill(L("#board-q"), text, expect={"target": L("#board-q"), "value": text}),
        click(L("#board-go"), expect=text_has(L("#board-info"), f"matching “{text}”")),
    ]


def open_card(tid: str) -> Step:
    return click(L(f"{card(tid)} a.open"), expect=visible(L(f'#ticket[data-id="{tid}"] #t-meta')))


def find(tid: str, title: str, from_board: bool = True) -> list[Step]:
    """From the board (or any view, through the Board tab): filter by title, open the ticket."""
    return [*([] if from_board else [tab("board")]), *board_filter(title), open_card(tid)]


def drag_card(tid: str, to: str) -> Step:
    """The card onto another column; without drag, its Move… menu does the same."""
    lands = visible(L(f'{column(to)} .tcard[data-id="{tid}"]'))
    menu = [L(f"{card(tid)} .move-btn"), L(f'{card(tid)} .menu button[data-to="{to}"]')]
    return {**drag(L(card(tid)), L(column(to)), menu=menu, expect={"all": [visible(L("#toast")), lands]})}


def list_filter(
    status: str = "", assignee: tuple[str, str] | None = None, label: tuple[str, str] | None = None
) -> list[Step]:
    """On the list: choose the filters, Apply (the list then says what it shows)."""
    steps: list[Step] = [tab("list")]
    shown: list[str] = []
    if status:
        name = "Not done" if status == "open" else COLUMN[status]
        steps.append(select(L("#f-status"), name, expect={"target": L("#f-status"), "value": status}))
        shown.append("not done" if status == "open" else f"column {name}")
    if assignee:
        steps.append(
            select(L("#f-assignee"), assignee[1], expect={"target": L("#f-assignee"), "value": assignee[0]})
        )
        shown.append(f"assignee {assignee[1]}")
    if label:
        steps.append(select(L("#f-label"), label[1], expect={"target": L("#f-label"), "value": label[0]}))
        shown.append(f"label {label[1]}")
    # The list says what it shows once it is rendered from the filtered answer.
    steps.append(
        click(L("#f-apply"), expect=text_has(L("#list-info .shown"), "Showing: " + ", ".join(shown)))
    )
    return steps


def toast_after(target: str, also: dict | None = None) -> Step:
    shown = visible(L("#toast"))
    return click(L(target), expect={"all": [shown, also]} if also else shown)


def board_path(text: str) -> str:
    """The board filtered by `text` after a fresh load (`?view=` deep link)."""
    return f"/app/tracker?view=board/{quote(text)}"


def ticket_path(tid: str) -> str:
    return f"/app/tracker?view=t/{tid}"
