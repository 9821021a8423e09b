"""Plan fragments for the education site's tasks: the steps a careful student takes in its
pages (the selectors are the React views' own ids and classes, react/envs/education/)."""

from __future__ import annotations

from webfovea_proving_ground.plan import L, Step, click, fill, select, text_has, value_is, visible


def card(cid: str) -> str:
    return f'.course-card[data-id="{cid}"]'


def entry(eid: str) -> str:
    """An entry's own action row (not its replies': those are nested inside it)."""
    return f'.entry[data-id="{eid}"] > .actions'


def dashboard() -> Step:
    return click(L("#nav-dashboard"), expect=visible(L("#courses")))


def open_course(cid: str) -> Step:
    """From the dashboard (the start page), the course's card."""
    return click(L(f"{card(cid)} a.course-link"), expect=visible(L(f'#course[data-id="{cid}"]')))


def tab(name: str, shows: str) -> Step:
    return click(L(f"#tab-{name}"), expect=visible(L(shows)))


def mark_done(iid: str) -> Step:
    button = f'.item[data-id="{iid}"] .done'
    return click(L(button), expect=visible(L(f'{button}[aria-pressed="true"]')))


def open_assignment(aid: str, table: str = "assignments") -> Step:
    return click(
        L(f'#{table} tr[data-id="{aid}"] a.title'), expect=visible(L(f'#assignment[data-id="{aid}"]'))
    )


def to_assignment(cid: str, aid: str) -> list[Step]:
    return [open_course(cid), tab("assignments", "#assignments"), open_assignment(aid)]


def submit(kind: str, content: str, new_id: str) -> list[Step]:
    """On an assignment's page: start an attempt, choose its form, hand it in."""
    steps = [click(L("#start"), expect=visible(L("#submit-form")))]
    if kind == "text":
        steps.append(fill(L("#text-body"), content, expect=value_is(L("#text-body"), content)))
    else:
        steps += [
            click(L("#kind-upload"), expect=visible(L("#upload-file"))),
            select(L("#upload-file"), content, expect=value_is(L("#upload-file"), content)),
        ]
    return [*steps, click(L("#submit-go"), expect=text_has(L("#toast .ref"), new_id))]


def comment(text: str, new_id: str) -> list[Step]:
    return [
        fill(L("#comment-body"), text, expect=value_is(L("#comment-body"), text)),
        click(L("#comment-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def open_announcement(nid: str) -> Step:
    return click(
        L(f'.ann[data-id="{nid}"] a.title'), expect=visible(L(f'#announcement[data-id="{nid}"].read'))
    )


def to_topic(cid: str, did: str) -> list[Step]:
    return [
        open_course(cid),
        tab("discussions", "#topics"),
        click(L(f'#topics .topic[data-id="{did}"] a.title'), expect=visible(L(f'#topic[data-id="{did}"]'))),
    ]


def subscribe() -> Step:
    return click(L("#subscribe"), expect=visible(L('#subscribe[aria-pressed="true"]')))


def like(eid: str) -> Step:
    button = f"{entry(eid)} .like"
    return click(L(button), expect=visible(L(f'{button}[aria-pressed="true"]')))


def reply_topic(text: str, new_id: str) -> list[Step]:
    return [
        fill(L("#reply-body"), text, expect=value_is(L("#reply-body"), text)),
        click(L("#reply-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def reply_entry(eid: str, text: str, new_id: str) -> list[Step]:
    box = f"#reply-{eid}"
    return [
        click(L(f"{entry(eid)} .reply"), expect=visible(L(box))),
        fill(L(box), text, expect=value_is(L(box), text)),
        click(
            L(f'.entry[data-id="{eid}"] > .reply-form .reply-send'), expect=text_has(L("#toast .ref"), new_id)
        ),
    ]


def new_topic(title: str, body: str, new_id: str) -> list[Step]:
    return [
        click(L("#new-topic"), expect=visible(L("#topic-post"))),
        fill(L("#topic-title"), title, expect=value_is(L("#topic-title"), title)),
        fill(L("#topic-body"), body, expect=value_is(L("#topic-body"), body)),
        click(L("#topic-post"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def new_event(
    title: str, date: str, time: str, course_label: str, course_value: str, new_id: str
) -> list[Step]:
    steps = [
        click(L("#nav-calendar"), expect=visible(L("#event-new"))),
        click(L("#event-new"), expect=visible(L("#event-save"))),
        fill(L("#event-title"), title, expect=value_is(L("#event-title"), title)),
        fill(L("#event-date"), date, expect=value_is(L("#event-date"), date)),
        fill(L("#event-time"), time, expect=value_is(L("#event-time"), time)),
    ]
    if course_value:
        steps.append(
            select(L("#event-course"), course_label, expect=value_is(L("#event-course"), course_value))
        )
    return [*steps, click(L("#event-save"), expect=text_has(L("#toast .ref"), new_id))]


def new_note(title: str, date: str, course_label: str, course_value: str, new_id: str) -> list[Step]:
    return [
        click(L("#nav-todo"), expect=visible(L("#note-add"))),
        fill(L("#note-title"), title, expect=value_is(L("#note-title"), title)),
        fill(L("#note-date"), date, expect=value_is(L("#note-date"), date)),
        select(L("#note-course"), course_label, expect=value_is(L("#note-course"), course_value)),
        click(L("#note-add"), expect=text_has(L("#toast .ref"), new_id)),
    ]
