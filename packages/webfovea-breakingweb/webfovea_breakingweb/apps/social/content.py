"""The forum a seed starts with: 8 communities, 96 posts, ~400 nested comments, 18 messages.

Deterministic by the generator the engine hands over (`rng("app:social", seed, None,
"content")`, engine/spec.py `AppSpec.initial`), so the task generator reads exactly the
content the server serves. Post titles carry a number, so each is unique; timestamps come
from the fixed epoch backwards (the newest post is an hour before the sites' "now").
"""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.social.state import (
    Comment,
    Community,
    DirectMessage,
    Post,
    SocialState,
)
from webfovea_breakingweb.engine.determinism import stamp

# name, title, description, members, joined, moderator
COMMUNITIES = (
    ("gardening", "Gardening", "Vegetables, flowers and the soil they grow in.", 48210, True, False),
    ("cycling", "Cycling", "Commutes, tours, repairs and gear.", 91544, True, True),
    ("homebrewing", "Homebrewing", "Beer, cider and mead made at home.", 22987, False, False),
    ("localhistory", "Local History", "Old maps, photos and stories of towns.", 15302, True, True),
    ("boardgames", "Board Games", "Strategy, party and cooperative games.", 120433, False, False),
    ("photography", "Photography", "Cameras, light and the pictures you took.", 210877, True, False),
    ("cooking", "Cooking", "Recipes, techniques and kitchen questions.", 302114, False, False),
    ("running", "Running", "From the first 5K to the marathon.", 77019, False, False),
)
RULES = ("Be civil", "Stay on topic", "No spam or self-promotion", "Search before you ask")
USERS = (
    "maple_fern", "gravel_gus", "ada_builds", "north_kettle", "tinker_liv", "old_mapper",
    "hopfield", "lens_and_light", "pawn_storm", "slow_simmer", "trail_miles", "brass_gear",
    "quiet_harbor", "seedling_sam", "retro_rita", "paper_moth", "cedar_jon", "fika_eva",
)  # fmt: skip
SUBJECTS = {
    "gardening": ("tomato seedlings", "raised beds", "compost heat", "slugs on lettuce", "pruning roses", "winter garlic"),
    "cycling": ("a creaking bottom bracket", "tubeless tyres", "winter commuting", "a first century ride", "chain wear", "disc brake rub"),
    "homebrewing": ("a stuck fermentation", "dry hopping", "cider from windfalls", "bottle conditioning", "water chemistry", "a first mead"),
    "localhistory": ("a 1910 harbour map", "the old tram line", "a mill that burned", "street names", "a parish register", "wartime photos"),
    "boardgames": ("a two-player pick", "teaching heavy games", "card sleeves", "a cooperative campaign", "house rules", "game night snacks"),
    "photography": ("a 50mm lens", "blue hour", "film scanning", "a noisy sensor", "portrait light", "a tripod for travel"),
    "cooking": ("sourdough starter", "a cast iron pan", "knife sharpening", "stock from scraps", "a weeknight curry", "meal prep"),
    "running": ("shin splints", "a first half marathon", "cadence", "trail shoes", "running in the cold", "interval plans"),
}  # fmt: skip
FORMS = ("Question about {s} ({n})", "Tips for {s} ({n})", "My experience with {s} ({n})", "Help: {s} ({n})")
FLAIRS = ("Question", "Discussion", "Guide", "Showcase")
REPLIES = (
    "Same here, it took me a few tries.", "Have you checked the obvious first?", "This worked for me last spring.",
    "Great write-up, thanks for sharing.", "I would not do that, it wears out fast.", "Any photos of the result?",
    "The wiki has a section on this.", "Patience helps more than gear.", "Following, I have the same problem.",
    "Try the cheaper option before you buy anything.",
)  # fmt: skip
MESSAGE_SUBJECTS = (
    "Meetup next week",
    "About your post",
    "Trade offer",
    "Thanks for the help",
    "Question on your guide",
    "Mod team",
)
POSTS_PER_COMMUNITY = 12
HOURS_BACK = 24 * 14  # posts spread over two weeks before the epoch


def _minutes_back(r: random.Random, lo: int, hi: int) -> int:
    return -r.randint(lo, hi)


def build(r: random.Random, seed: int) -> SocialState:
    state = SocialState()
    for i, (name, title, desc, members, joined, mod) in enumerate(COMMUNITIES, start=1):
        state.communities.append(
            Community(id=f"C-{i:04d}", name=name, title=title, description=desc, members=members,
                      joined=joined, moderator=mod, rules=list(RULES))
        )  # fmt: skip
    n = 100
    drafts: list[tuple[int, Post]] = []
    for c in COMMUNITIES:
        for _ in range(POSTS_PER_COMMUNITY):
            n += r.randint(1, 9)
            when = _minutes_back(r, 60, HOURS_BACK * 60)
            subject = r.choice(SUBJECTS[c[0]])
            title = r.choice(FORMS).format(s=subject, n=n)
            body = f"I have been working on {subject} for a while. {r.choice(REPLIES)} What would you do?"
            post = Post(id="", community=c[0], author=r.choice(USERS), title=title[0].upper() + title[1:],
                        body=body, flair=r.choice(FLAIRS), created=stamp(when), score=r.randint(-3, 480))  # fmt: skip
            drafts.append((when, post))
    # Ids in creation order (P-0001 the oldest), as a real site numbers them.
    drafts.sort(key=lambda d: (d[0], d[1].title))
    for i, (_, post) in enumerate(drafts, start=1):
        post.id = f"P-{i:04d}"
        state.posts.append(post)
    comments: list[tuple[str, Comment]] = []
    for post in state.posts:
        made: list[Comment] = []
        for _ in range(r.randint(0, 7)):
            parent = r.choice(made) if made and r.random() < 0.45 else None
            base = parent.created if parent else post.created
            minutes = int(base[11:13]) * 60 + int(base[14:16])  # a later time the same day: stable order
            created = base[:11] + f"{min(23, minutes // 60 + 1):02d}:{minutes % 60:02d}:00Z"
            k = Comment(id="", post=post.id, parent=parent.id if parent else None, author=r.choice(USERS),
                        body=r.choice(REPLIES), created=created, score=r.randint(-2, 90))  # fmt: skip
            k.id = f"K-{len(comments) + 1:04d}"
            made.append(k)
            comments.append((k.id, k))
    state.comments = [k for _, k in comments]
    for i in range(1, 19):
        sent = i % 6 == 0
        other = r.choice(USERS)
        state.messages.append(
            DirectMessage(id=f"M-{i:04d}", folder="sent" if sent else "inbox",
                          sender=state.me if sent else other, recipient=other if sent else state.me,
                          subject=f"{r.choice(MESSAGE_SUBJECTS)} ({200 + i})",
                          body=f"Hi! {r.choice(REPLIES)} Let me know what you think.",
                          created=stamp(-(19 - i) * 180), read=sent or r.random() < 0.5)
        )  # fmt: skip
    state.counter = len(state.posts) + len(state.comments) + len(state.messages)
    return state
