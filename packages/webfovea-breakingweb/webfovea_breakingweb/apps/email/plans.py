"""Plan fragments for the email site's tasks: the steps a careful person takes in its pages."""

from __future__ import annotations

from webfovea_proving_ground.plan import L, Step, click, fill, select, text_has, value_is, visible


def row(tid: str) -> str:
    return f'tr.thread[data-id="{tid}"]'


def typed(selector: str, text: str) -> Step:
    return fill(L(selector), text, expect=value_is(L(selector), text))


def nav(folder: str, shows: str) -> Step:
    return click(L(f"#nav-{folder}"), expect=visible(L(shows)))


def search(text: str, tid: str) -> list[Step]:
    return [typed("#search-q", text), click(L("#search-go"), expect=visible(L(row(tid))))]


def open_thread(tid: str) -> Step:
    """Open a conversation from a list; it shows once read (opening marks it read)."""
    return click(L(f"{row(tid)} a.subject"), expect=visible(L(f'#thread.read[data-id="{tid}"]')))


def find(subject: str, tid: str) -> list[Step]:
    """Search the conversation by its subject and open it."""
    return [*search(subject, tid), open_thread(tid)]


def star_row(tid: str) -> Step:
    return click(L(f"{row(tid)} .star"), expect=visible(L(f'{row(tid)} .star[aria-pressed="true"]')))


def pick(tid: str) -> Step:
    return click(L(f"{row(tid)} .pick"), expect=visible(L(f"{row(tid)} .pick:checked")))


def bulk(button: str, action: str) -> Step:
    return click(L(f"#bulk-{button}"), expect=text_has(L("#toast"), f"{action} done"))


def label(name: str) -> list[Step]:
    return [
        select(L("#t-label"), name, expect=value_is(L("#t-label"), name)),
        click(L("#t-label-apply"), expect=visible(L(f'#t-labels .chip[data-label="{name}"]'))),
    ]


def archive() -> Step:
    return click(L("#t-archive"), expect=text_has(L("#toast"), "archived"))


def trash() -> Step:
    return click(L("#t-trash"), expect=text_has(L("#toast"), "moved to Trash"))


def reply(text: str, new_id: str) -> list[Step]:
    return [
        click(L("#reply"), expect=visible(L("#reply-body"))),
        typed("#reply-body", text),
        click(L("#reply-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def forward(to: str, note: str, new_id: str) -> list[Step]:
    return [
        click(L("#forward"), expect=visible(L("#fwd-to"))),
        typed("#fwd-to", to),
        typed("#fwd-body", note),
        click(L("#fwd-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def compose(to: str, cc: str, subject: str, body: str, new_id: str, *, draft: bool = False) -> list[Step]:
    """Write a new message and send it (or, `draft`, save it as a draft)."""
    steps = [click(L("#compose"), expect=visible(L("#c-to"))), typed("#c-to", to)]
    if cc:
        steps.append(typed("#c-cc", cc))
    steps += [typed("#c-subject", subject), typed("#c-body", body)]
    button = "#c-save" if draft else "#c-send"
    return [*steps, click(L(button), expect=text_has(L("#toast .ref"), new_id))]


def finish_draft(did: str, to: str, new_id: str) -> list[Step]:
    draft = f'tr.draft[data-id="{did}"]'
    return [
        nav("drafts", draft),
        click(L(f"{draft} a.open"), expect=visible(L("#c-discard"))),
        typed("#c-to", to),
        click(L("#c-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def create_label(name: str, new_id: str) -> list[Step]:
    return [
        nav("labels", "#label-name"),
        typed("#label-name", name),
        click(L("#label-create"), expect=text_has(L("#toast .ref"), new_id)),
    ]
