"""Plan fragments for the social site's tasks: the steps a careful person takes in its pages."""

from __future__ import annotations

from webfovea_proving_ground.plan import L, Step, click, fill, select, text_has, value_is, visible


def post_row(pid: str) -> str:
    return f'article.post[data-id="{pid}"]'


def comment(kid: str) -> str:
    """A comment's own action row (not its replies': those are nested inside it)."""
    return f'.comment[data-id="{kid}"] > .actions'


def search(title: str, pid: str) -> list[Step]:
    return [
        fill(L("#search-q"), title, expect=value_is(L("#search-q"), title)),
        click(L("#search-go"), expect=visible(L(post_row(pid)))),
    ]


def open_post(pid: str) -> Step:
    return click(L(f"{post_row(pid)} a.title"), expect=visible(L(f'#post[data-id="{pid}"]')))


def find_post(title: str, pid: str) -> list[Step]:
    """Search the post by its title and open it."""
    return [*search(title, pid), open_post(pid)]


def vote_post(direction: int) -> Step:
    button = "#post-up" if direction > 0 else "#post-down"
    return click(L(button), expect=visible(L(f'{button}[aria-pressed="true"]')))


def vote_comment(kid: str, direction: int) -> Step:
    button = f"{comment(kid)} .{'up' if direction > 0 else 'down'}"
    return click(L(button), expect=visible(L(f'{button}[aria-pressed="true"]')))


def save_comment(kid: str) -> Step:
    return click(L(f"{comment(kid)} .save"), expect=visible(L(f'{comment(kid)} .save[aria-pressed="true"]')))


def reply(kid: str, text: str, new_id: str) -> list[Step]:
    box = f"#reply-{kid}"
    return [
        click(L(f"{comment(kid)} .reply"), expect=visible(L(box))),
        fill(L(box), text, expect=value_is(L(box), text)),
        click(
            L(f'.comment[data-id="{kid}"] > .reply-form .reply-submit'),
            expect=text_has(L("#toast .ref"), new_id),
        ),
    ]


def top_comment(text: str, new_id: str) -> list[Step]:
    return [
        fill(L("#comment-body"), text, expect=value_is(L("#comment-body"), text)),
        click(L("#comment-submit"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def moderate(button: str, reason: str, done: str) -> list[Step]:
    steps = [fill(L("#mod-reason"), reason, expect=value_is(L("#mod-reason"), reason))] if reason else []
    return [*steps, click(L(button), expect=text_has(L("#toast"), done))]


def message(to: str, subject: str, body: str, new_id: str, *, from_post: bool = False) -> list[Step]:
    opener = (
        [click(L("#message-author"), expect=visible(L("#msg-send")))]
        if from_post
        else [
            click(L("#nav-messages"), expect=visible(L("#msg-new"))),
            click(L("#msg-new"), expect=visible(L("#msg-send"))),
            fill(L("#msg-to"), to, expect=value_is(L("#msg-to"), to)),
        ]
    )
    return [
        *opener,
        fill(L("#msg-subject"), subject, expect=value_is(L("#msg-subject"), subject)),
        fill(L("#msg-body"), body, expect=value_is(L("#msg-body"), body)),
        click(L("#msg-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def create_post(community: str, title: str, flair: str, body: str, new_id: str) -> list[Step]:
    return [
        click(L("#nav-submit"), expect=visible(L("#new-submit"))),
        select(L("#new-community"), f"r/{community}", expect=value_is(L("#new-community"), community)),
        fill(L("#new-title"), title, expect=value_is(L("#new-title"), title)),
        select(L("#new-flair"), flair, expect=value_is(L("#new-flair"), flair)),
        fill(L("#new-body"), body, expect=value_is(L("#new-body"), body)),
        click(L("#new-submit"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def join(name: str) -> list[Step]:
    row = f'#communities tr[data-name="{name}"]'
    return [
        click(L("#nav-communities"), expect=visible(L(row))),
        click(L(f"{row} .join"), expect=text_has(L(f"{row} .join"), "Leave")),
    ]
