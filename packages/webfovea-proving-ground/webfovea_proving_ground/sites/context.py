"""What every site module needs: the seed, the seeded data and both origins."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..sessions import SessionStore
from .data import World, world


@dataclass
class SiteContext:
    seed: int
    main_url: str  # http://127.0.0.1:A
    frame_url: str  # http://localhost:B (a second origin: out-of-process iframes)
    cache: dict[str, Any] = field(default_factory=dict)  # per-server lazily built assets
    sessions: SessionStore = field(default_factory=SessionStore)  # per-browser logs and state

    @property
    def world(self) -> World:
        return world(self.seed)
