"""The social site's long task templates, tiers T4 and T5: a whole engagement with one post and
its author, a moderation sweep, a newcomer's first day, a moderator's day. Their main write (the
one the families aim at) is the last; a redo starts at that write's own steps."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.social import plans as p
from webfovea_breakingweb.apps.social.common import (
    API,
    create,
    make,
    post_with_comment,
    update,
    visible_posts,
    write_targets,
)
from webfovea_breakingweb.apps.social.state import SocialState
from webfovea_breakingweb.apps.social.tasks import (
    BODIES,
    COMMENTS,
    FLAIRS,
    NEW_TITLES,
    SUBJECTS,
    modlog_ob,
    vote_ob,
)
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, click, text_has, visible

REASONS = ("Off topic", "Duplicate post", "Heated discussion", "Question answered", "Spam")


def t_engage(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    got = post_with_comment(state, r)
    if got is None or got[0].locked or got[0].author == got[1].author:
        return None
    post, k = got
    text, kid, mid = r.choice(COMMENTS), next_id(state.comments, "K-"), next_id(state.messages, "M-")
    subject, body = r.choice(SUBJECTS), r.choice(BODIES)
    save = click(L("#post-save"), expect=visible(L('#post-save[aria-pressed="true"]')))
    plan = [
        *p.find_post(post.title, post.id),
        p.vote_post(1),
        save,
        *p.reply(k.id, text, kid),
        p.vote_comment(kid, 1),
    ]
    start = len(
        plan
    )  # after a sign-in the compose view is back (the author filled in): redo from the subject
    plan += p.message(post.author, subject, body, mid, from_post=True)
    return make("engage", n, f"On threadly, open the post “{post.title}”: upvote and save it, reply “{text}” to the comment by u/{k.author}, "
                f"then message the post's author with the subject “{subject}” and the text “{body}”.", plan,
                [{**vote_ob(post, "posts", 1), "fields": {"my_vote": 1, "score": post.score + 1, "saved": True}},
                 create("comments", post=post.id, parent=k.id, body=text, author=state.me, my_vote=1, score=1),
                 create("messages", folder="sent", sender=state.me, recipient=post.author, subject=subject, body=body, read=True)],
                write_targets(f"{API}/messages", plan, "#msg-send", visible(L(f'tr[data-id="{mid}"]')), "/messages/sent",
                              listing=f"{API}/messages", redo_from=start + 1, form=True))  # fmt: skip


def _distinct_mod_posts(state: SocialState, r: random.Random, count: int) -> list | None:
    pool = [x for x in visible_posts(state, moderated=True) if not (x.locked or x.pinned)]
    return r.sample(pool, count) if len(pool) >= count else None


def t_mod_sweep(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    posts = _distinct_mod_posts(state, r, 3)
    if posts is None:
        return None
    a, b, c = posts
    why_a, why_b = r.sample(REASONS, 2)
    plan = [*p.find_post(a.title, a.id), *p.moderate("#mod-remove", why_a, "remove done"),
            *p.find_post(b.title, b.id), *p.moderate("#mod-lock", why_b, "lock done")]  # fmt: skip
    start = len(plan)
    plan += [*p.find_post(c.title, c.id), *p.moderate("#mod-pin", "", "pin done")]
    return make("mod-sweep", n, f"You moderate communities on threadly. Remove the post “{a.title}” with the reason “{why_a}”, "
                f"lock the comments of “{b.title}” with the reason “{why_b}”, and pin “{c.title}” to the top of r/{c.community}.", plan,
                [update("posts", a.id, removed=True), modlog_ob(a.community, "remove", a.id, why_a),
                 update("posts", b.id, locked=True), modlog_ob(b.community, "lock", b.id, why_b),
                 update("posts", c.id, pinned=True), modlog_ob(c.community, "pin", c.id)],
                write_targets(f"{API}/posts/{c.id}/mod", plan, "#mod-pin", text_has(L("#post-status"), "pinned"), f"/p/{c.id}",
                              listing=f"{API}/posts/{c.id}", redo_from=start))  # fmt: skip


def t_newcomer(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    com = r.choice([c for c in state.communities if not c.joined])
    got = post_with_comment(state, r)
    if got is None or got[0].locked:
        return None
    post, k = got
    title, flair = r.choice(NEW_TITLES), r.choice(FLAIRS)
    body, pid = f"Hello r/{com.name}, I just joined. {r.choice(BODIES)}", next_id(state.posts, "P-")
    text, kid, mid = r.choice(COMMENTS), next_id(state.comments, "K-"), next_id(state.messages, "M-")
    to = r.choice(sorted({x.author for x in state.posts} - {post.author}))
    subject, msg = r.choice(SUBJECTS), r.choice(BODIES)
    plan = [*p.join(com.name), *p.create_post(com.name, title, flair, body, pid),
            *p.find_post(post.title, post.id), *p.reply(k.id, text, kid)]  # fmt: skip
    start = len(plan)
    plan += p.message(to, subject, msg, mid)
    return make("newcomer", n, f"On threadly: join r/{com.name}; post “{title}” there with the flair {flair} and the text “{body}”; "
                f"reply “{text}” to u/{k.author}'s comment on “{post.title}”; and send u/{to} a message with the subject “{subject}” "
                f"and the text “{msg}”.", plan,
                [update("communities", com.id, joined=True, members=com.members + 1),
                 create("posts", community=com.name, title=title, flair=flair, body=body, author=state.me),
                 create("comments", post=post.id, parent=k.id, body=text, author=state.me),
                 create("messages", folder="sent", recipient=to, subject=subject, body=msg)],
                write_targets(f"{API}/messages", plan, "#msg-send", visible(L(f'tr[data-id="{mid}"]')), "/messages/sent",
                              listing=f"{API}/messages", redo_from=start, form=True))  # fmt: skip


def t_mod_day(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    posts = _distinct_mod_posts(state, r, 3)
    got = post_with_comment(state, r, moderated=True)
    if posts is None or got is None or got[0] in posts:
        return None
    a, c, d = posts
    b, k = got
    why_a, why_c = r.sample(REASONS, 2)
    plan = [*p.find_post(a.title, a.id), *p.moderate("#mod-remove", why_a, "remove done"),
            *p.find_post(b.title, b.id), click(L(f"{p.comment(k.id)} .remove"), expect=text_has(L("#toast"), "remove done")),
            *p.find_post(c.title, c.id), *p.moderate("#mod-lock", why_c, "lock done")]  # fmt: skip
    start = len(plan)
    plan += [*p.find_post(d.title, d.id), *p.moderate("#mod-pin", "", "pin done")]
    return make("mod-day", n, f"You moderate communities on threadly. Remove the post “{a.title}” (reason “{why_a}”), remove "
                f"u/{k.author}'s comment on “{b.title}”, lock the comments of “{c.title}” (reason “{why_c}”) and pin “{d.title}”.", plan,
                [update("posts", a.id, removed=True), modlog_ob(a.community, "remove", a.id, why_a),
                 update("comments", k.id, removed=True), modlog_ob(b.community, "remove", k.id),
                 update("posts", c.id, locked=True), modlog_ob(c.community, "lock", c.id, why_c),
                 update("posts", d.id, pinned=True), modlog_ob(d.community, "pin", d.id)],
                write_targets(f"{API}/posts/{d.id}/mod", plan, "#mod-pin", text_has(L("#post-status"), "pinned"), f"/p/{d.id}",
                              listing=f"{API}/posts/{d.id}", redo_from=start))  # fmt: skip


TEMPLATES = {"engage": t_engage, "mod-sweep": t_mod_sweep, "newcomer": t_newcomer, "mod-day": t_mod_day}
