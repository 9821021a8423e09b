"""BreakingWeb as a BrowserGym benchmark: `import webfovea_breakingweb.gym` registers every task
as `browsergym/breakingweb.<task>` and its official variant as
`browsergym/breakingweb.<task>.<family>` (registration.py); docs/breakingweb.md, "Run it from
BrowserGym"."""

from webfovea_breakingweb.gym.ids import PREFIX, gym_id
from webfovea_breakingweb.gym.registration import register_all

ENV_IDS = register_all()

__all__ = ["ENV_IDS", "PREFIX", "gym_id", "register_all"]
