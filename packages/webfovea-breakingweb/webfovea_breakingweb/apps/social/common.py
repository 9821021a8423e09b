"""What the social site's task templates share: finding instances in the seeded forum and
building a `StatefulTask` with its five-scale tier and the targets the families aim at."""

from __future__ import annotations

import random
from typing import Any

from webfovea_breakingweb.apps.social.state import Comment, Post, SocialState
from webfovea_breakingweb.engine import task_kit as kit
from webfovea_breakingweb.engine.task_kit import create, update  # noqa: F401 - the templates import them from here

API = "/api/env/social"
PAGE = "/env/social"
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."
Template = Any


KIT = kit.TaskKit("social", PAGE, SIGN_IN)
write_targets = KIT.write_targets
make = KIT.make


def visible_posts(state: SocialState, *, moderated: bool | None = None) -> list[Post]:
    """Posts a person can find by searching their title (not removed), optionally only those in
    communities you moderate (True) or do not (False)."""
    mods = {c.name for c in state.communities if c.moderator}
    return [
        p for p in state.posts
        if not p.removed and (moderated is None or (p.community in mods) == moderated)
    ]  # fmt: skip


def home_posts(state: SocialState) -> list[Post]:
    joined = {c.name for c in state.communities if c.joined}
    return [p for p in visible_posts(state) if p.community in joined]


def comments_of(state: SocialState, pid: str) -> list[Comment]:
    return [k for k in state.comments if k.post == pid]


def by_unique_author(state: SocialState, pid: str) -> list[Comment]:
    """The post's comments whose author wrote only that one there (an instruction names it so)."""
    ks = comments_of(state, pid)
    return [k for k in ks if sum(1 for x in ks if x.author == k.author) == 1]


def post_with_comment(
    state: SocialState, r: random.Random, *, moderated: bool | None = None
) -> tuple[Post, Comment] | None:
    posts = [p for p in visible_posts(state, moderated=moderated) if by_unique_author(state, p.id)]
    if not posts:
        return None
    p = r.choice(posts)
    return p, r.choice(by_unique_author(state, p.id))
