"""The social site's task templates, tiers T1-T3 (long_tasks.py holds T4-T5): votes, saves,
joining, reading a message, commenting and replying, messages, new posts and moderation.

Each instance names its post by title and its comment by author (only that author commented
there once), so the truth is unambiguous; obligations name every change; anything else that
changes breaks an invariant. The readback holds only when the backend holds the change, on
`verify_path` after a fresh load."""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.apps.social import plans as p
from webfovea_breakingweb.apps.social.common import (
    API,
    create,
    home_posts,
    make,
    post_with_comment,
    update,
    visible_posts,
    write_targets,
)  # fmt: skip
from webfovea_breakingweb.apps.social.state import SocialState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, click, text_has, visible

PER_TEMPLATE = 6
COMMENTS = (
    "Thanks, this is really helpful.", "I had the same problem and a new part fixed it.",
    "Could you share a photo of the result?", "Good point, I had not thought of that.",
    "This matches what I saw last year.", "Agreed, patience is the whole trick.",
)  # fmt: skip
SUBJECTS = ("Question about your post", "Meetup this weekend?", "Thanks for the tip", "Swap offer")
BODIES = (
    "Hi! Would you have time to talk about it this week?",
    "Hello, I liked your post and have a question.",
)
NEW_TITLES = (
    "Looking for advice on a first project", "What I learned this season", "Weekly thread: share your progress",
    "Beginner question about tools", "A small guide I wrote for newcomers",
)  # fmt: skip
FLAIRS = ("Question", "Discussion", "Guide", "Showcase")


def vote_ob(rec: Any, entity: str, direction: int) -> dict[str, Any]:
    return update(entity, rec.id, my_vote=direction, score=rec.score + direction)


def modlog_ob(community: str, action: str, target: str, reason: str = "") -> dict[str, Any]:
    return create("modlog", community=community, action=action, target=target, reason=reason)


def lookalike(state: SocialState, r: random.Random, post: Any) -> dict[str, Any]:
    """The seed families' targets for a home-feed post: the record, and how a look-alike of it
    differs (the same title in another of your communities, ranked above it)."""
    other = r.choice(sorted(c.name for c in state.communities if c.joined and c.name != post.community))
    return {"decoy_of": post.id, "decoy": {"community": other, "score": post.score + 7}}


def t_upvote_home(state: SocialState, r: random.Random, n: int) -> StatefulTask:
    post = r.choice(home_posts(state))
    btn = f"{p.post_row(post.id)} .up"
    plan = [click(L(btn), expect=visible(L(f'{btn}[aria-pressed="true"]')))]
    targets = write_targets(f"{API}/posts/{post.id}/vote", plan, btn, visible(L('#post-up[aria-pressed="true"]')),
                            f"/p/{post.id}", listing=f"{API}/posts")  # fmt: skip
    return make("upvote-home", n, f"On threadly, upvote the post “{post.title}” in r/{post.community} from your home feed.",
                plan, [vote_ob(post, "posts", 1)], {**targets, **lookalike(state, r, post)})  # fmt: skip


def t_save_home(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    post = r.choice([x for x in home_posts(state) if not x.saved])
    btn = f"{p.post_row(post.id)} .save"
    plan = [click(L(btn), expect=visible(L(f'{btn}[aria-pressed="true"]')))]
    targets = write_targets(f"{API}/posts/{post.id}/save", plan, btn, visible(L(f"#saved-posts {p.post_row(post.id)}")),
                            "/saved", listing=f"{API}/posts")  # fmt: skip
    return make("save-home", n, f"On threadly, save the post “{post.title}” (in r/{post.community}) from your home feed.",
                plan, [update("posts", post.id, saved=True)], {**targets, **lookalike(state, r, post)})  # fmt: skip


def t_join(state: SocialState, r: random.Random, n: int) -> StatefulTask:
    com = r.choice([c for c in state.communities if not c.joined])
    plan = p.join(com.name)
    row = f'#communities tr[data-name="{com.name}"]'
    return make("join", n, f"On threadly, join the community r/{com.name}.", plan,
                [update("communities", com.id, joined=True, members=com.members + 1)],
                write_targets(f"{API}/communities/{com.name}/join", plan, f"{row} .join", text_has(L(f"{row} .join"), "Leave"),
                              "/communities", listing=f"{API}/communities"))  # fmt: skip


def t_read_message(state: SocialState, r: random.Random, n: int) -> StatefulTask:
    m = r.choice([x for x in state.messages if x.folder == "inbox" and not x.read])
    row = f'#messages tr[data-id="{m.id}"]'
    plan = [
        click(L("#nav-messages"), expect=visible(L(row))),
        click(L(f"{row} .open"), expect=visible(L(f"{row}.read"))),
    ]
    return make("read-message", n, f"On threadly, open and read the message “{m.subject}” from u/{m.sender}.", plan,
                [update("messages", m.id, read=True)],
                write_targets(f"{API}/messages/{m.id}/read", plan, f"{row} .open", visible(L(f"{row}.read")), "/messages/inbox",
                              listing=f"{API}/messages"))  # fmt: skip


def t_upvote_search(state: SocialState, r: random.Random, n: int) -> StatefulTask:
    post = r.choice(visible_posts(state))
    btn = f"{p.post_row(post.id)} .up"
    plan = [*p.search(post.title, post.id), click(L(btn), expect=visible(L(f'{btn}[aria-pressed="true"]')))]
    return make("upvote-search", n, f"On threadly, find the post “{post.title}” in r/{post.community} and upvote it.",
                plan, [vote_ob(post, "posts", 1)],
                write_targets(f"{API}/posts/{post.id}/vote", plan, btn, visible(L('#post-up[aria-pressed="true"]')), f"/p/{post.id}",
                              listing=f"{API}/posts"))  # fmt: skip


def t_downvote_comment(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    got = post_with_comment(state, r)
    if got is None:
        return None
    post, k = got
    plan = [*p.find_post(post.title, post.id), p.vote_comment(k.id, -1)]
    btn = f"{p.comment(k.id)} .down"
    return make("downvote-comment", n, f"On threadly, open the post “{post.title}” and downvote the comment by u/{k.author} on it.",
                plan, [vote_ob(k, "comments", -1)],
                write_targets(f"{API}/comments/{k.id}/vote", plan, btn, visible(L(f'{btn}[aria-pressed="true"]')), f"/p/{post.id}",
                              listing=f"{API}/posts/{post.id}"))  # fmt: skip


def t_save_comment(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    got = post_with_comment(state, r)
    if got is None:
        return None
    post, k = got
    plan = [*p.find_post(post.title, post.id), p.save_comment(k.id)]
    return make("save-comment", n, f"On threadly, save the comment by u/{k.author} on the post “{post.title}”.",
                plan, [update("comments", k.id, saved=True)],
                write_targets(f"{API}/comments/{k.id}/save", plan, f"{p.comment(k.id)} .save",
                              visible(L(f'#saved-comments li[data-id="{k.id}"]')), "/saved", listing=f"{API}/posts/{post.id}"))  # fmt: skip


def t_comment(state: SocialState, r: random.Random, n: int) -> StatefulTask:
    post = r.choice([x for x in visible_posts(state) if not x.locked])
    text, kid = r.choice(COMMENTS), next_id(state.comments, "K-")
    plan = [*p.find_post(post.title, post.id), *p.top_comment(text, kid)]
    return make("comment", n, f"On threadly, comment “{text}” on the post “{post.title}” in r/{post.community}.",
                plan, [create("comments", post=post.id, parent=None, body=text, author=state.me)],
                write_targets(f"{API}/posts/{post.id}/comments", plan, "#comment-submit",
                              visible(L(f'.comment[data-id="{kid}"]')), f"/p/{post.id}", listing=f"{API}/posts/{post.id}"))  # fmt: skip


def t_mod_remove_comment(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    got = post_with_comment(state, r, moderated=True)
    if got is None:
        return None
    post, k = got
    plan = [
        *p.find_post(post.title, post.id),
        click(L(f"{p.comment(k.id)} .remove"), expect=text_has(L("#toast"), "remove done")),
    ]
    return make("mod-remove-comment", n, f"You moderate r/{post.community} on threadly. Remove the comment by u/{k.author} on the post “{post.title}”.",
                plan, [update("comments", k.id, removed=True), modlog_ob(post.community, "remove", k.id)],
                write_targets(f"{API}/comments/{k.id}/mod", plan, f"{p.comment(k.id)} .remove",
                              visible(L(f'.comment[data-id="{k.id}"] > .c-meta .tag.removed')), f"/p/{post.id}",
                              listing=f"{API}/posts/{post.id}"))  # fmt: skip


def t_mod_lock(state: SocialState, r: random.Random, n: int) -> StatefulTask:
    post = r.choice([x for x in visible_posts(state, moderated=True) if not x.locked])
    reason = r.choice(("Off topic", "Heated discussion", "Question answered"))
    plan = [*p.find_post(post.title, post.id), *p.moderate("#mod-lock", reason, "lock done")]
    return make("mod-lock", n, f"You moderate r/{post.community} on threadly. Lock the comments of the post “{post.title}” with the reason “{reason}”.",
                plan, [update("posts", post.id, locked=True), modlog_ob(post.community, "lock", post.id, reason)],
                write_targets(f"{API}/posts/{post.id}/mod", plan, "#mod-lock", visible(L("#locked-note")), f"/p/{post.id}",
                              listing=f"{API}/posts/{post.id}", form=True))  # fmt: skip


def t_reply(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    got = post_with_comment(state, r)
    if got is None or got[0].locked:
        return None
    post, k = got
    text, kid = r.choice(COMMENTS), next_id(state.comments, "K-")
    plan = [*p.find_post(post.title, post.id), p.vote_post(1), *p.reply(k.id, text, kid)]
    return make("reply", n, f"On threadly, open the post “{post.title}”, upvote it, and reply “{text}” to the comment by u/{k.author}.",
                plan, [vote_ob(post, "posts", 1), create("comments", post=post.id, parent=k.id, body=text, author=state.me)],
                write_targets(f"{API}/posts/{post.id}/comments", plan, ".reply-submit", visible(L(f'.comment[data-id="{kid}"]')),
                              f"/p/{post.id}", listing=f"{API}/posts/{post.id}", redo_from=len(plan) - 3))  # fmt: skip


def t_reply_save(state: SocialState, r: random.Random, n: int) -> StatefulTask | None:
    got = post_with_comment(state, r)
    if got is None or got[0].locked:
        return None
    post, k = got
    text, kid = r.choice(COMMENTS), next_id(state.comments, "K-")
    plan = [*p.find_post(post.title, post.id), p.save_comment(k.id), *p.reply(k.id, text, kid)]
    return make("reply-save", n, f"On threadly, on the post “{post.title}”, save the comment by u/{k.author} and reply “{text}” to it.",
                plan, [update("comments", k.id, saved=True), create("comments", post=post.id, parent=k.id, body=text, author=state.me)],
                write_targets(f"{API}/posts/{post.id}/comments", plan, ".reply-submit", visible(L(f'.comment[data-id="{kid}"]')),
                              f"/p/{post.id}", listing=f"{API}/posts/{post.id}", redo_from=len(plan) - 3))  # fmt: skip


def t_message(state: SocialState, r: random.Random, n: int) -> StatefulTask:
    to = r.choice(sorted({x.author for x in state.posts}))
    subject, body, mid = r.choice(SUBJECTS), r.choice(BODIES), next_id(state.messages, "M-")
    plan = p.message(to, subject, body, mid)
    return make("message", n, f"On threadly, send u/{to} a message with the subject “{subject}” and the text “{body}”.",
                plan, [create("messages", folder="sent", sender=state.me, recipient=to, subject=subject, body=body, read=True)],
                write_targets(f"{API}/messages", plan, "#msg-send", visible(L(f'tr[data-id="{mid}"]')), "/messages/sent",
                              listing=f"{API}/messages", form=True))  # fmt: skip


def t_create_post(state: SocialState, r: random.Random, n: int) -> StatefulTask:
    com = r.choice(state.communities)
    title, flair = r.choice(NEW_TITLES), r.choice(FLAIRS)
    body, pid = f"Sharing this with r/{com.name}. Any advice is welcome.", next_id(state.posts, "P-")
    plan = p.create_post(com.name, title, flair, body, pid)
    return make("create-post", n, f"On threadly, create a post in r/{com.name} titled “{title}” with the flair {flair} and the text “{body}”.",
                plan, [create("posts", community=com.name, title=title, flair=flair, body=body, author=state.me, score=1, my_vote=1)],
                write_targets(f"{API}/posts", plan, "#new-submit", visible(L(f'#my-posts li[data-id="{pid}"]')), "/submit", listing=f"{API}/posts", form=True))  # fmt: skip


TEMPLATES = {
    "upvote-home": t_upvote_home, "save-home": t_save_home, "join": t_join, "read-message": t_read_message,
    "upvote-search": t_upvote_search, "downvote-comment": t_downvote_comment, "save-comment": t_save_comment,
    "comment": t_comment, "mod-remove-comment": t_mod_remove_comment, "mod-lock": t_mod_lock,
    "reply": t_reply, "reply-save": t_reply_save, "message": t_message, "create-post": t_create_post,
}  # fmt: skip
