"""Plan steps on the mail client's page (docs/contracts.md §1), shared by the task templates.

Each step carries the expectation a careful person checks before going on, so the oracle
retries a step whose effect did not show; a write's step expects the page's success message
(the toast is hidden when a request starts), as a person trusts what the page says.
"""

from __future__ import annotations

from urllib.parse import quote

from webfovea_proving_ground.plan import L, Step, click, fill, select, text_has, visible

SIGN_IN = "If asked to sign in, the user name is analyst and the password portal-2025."
FOLDER_NAMES = {"inbox": "Inbox", "sent": "Sent", "archive": "Archive", "spam": "Spam", "trash": "Trash"}


def row(mid: str) -> str:
    return f'#records tr[data-id="{mid}"]'


def folder(name: str) -> Step:
    where = FOLDER_NAMES[name]
    return click(L(f'#sidebar a[data-folder="{name}"]'), expect=text_has(L("#list-info .where"), where))


def label(slug: str, name: str) -> Step:
    return click(
        L(f'#sidebar a[data-label="{slug}"]'), expect=text_has(L("#list-info .where"), f"Label {name}")
    )


def search(q: str, everywhere: bool = False) -> list[Step]:
    steps = [fill(L("#search"), q, expect={"target": L("#search"), "value": q})]
    if everywhere:
        steps.append(
            select(L("#search-scope"), "In all mail", expect={"target": L("#search-scope"), "value": "all"})
        )
    steps.append(click(L("#search-go"), expect=text_has(L("#list-info .where"), f"“{q}”")))
    return steps


def open_message(mid: str) -> Step:
    return click(L(f"{row(mid)} a.open"), expect=visible(L(f'#message[data-id="{mid}"] #thread')))


def toast_after(target: str) -> Step:
    return click(L(target), expect=visible(L("#toast")))


def choose(target: str, option: str, value: str) -> Step:
    return select(L(target), option, expect={"target": L(target), "value": value})


def search_path(scope: str, q: str) -> str:
    """The page that shows a search's real state after a fresh load (`?view=` deep link)."""
    return f"/app/mail?view=s/{quote(scope, safe=':')}/{quote(q)}"


def message_path(mid: str) -> str:
    return f"/app/mail?view=m/{mid}"


def answer_done() -> Step:
    """A state task's last step: nothing to read, the change is the result."""
    from webfovea_proving_ground.plan import answer_value

    return answer_value("done")
