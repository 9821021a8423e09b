"""The proving ground named but not started: what a suite's loader builds its tasks against when
the tasks are only listed (`webfovea bench NAME --list`), not run.

A loader asks its handle for the seed, `url(path)`, the frame origin and the sites' shared
context (`ctx`: the hostile suite's answers are computed from it); none of these needs a
server. The URLs are the placeholders a task file uses (`http://proving-ground/...`), so a
listed task names the same page on every start. There is no control plane: the tasks carry no
session.
"""

from __future__ import annotations

from webfovea_proving_ground.sites.context import SiteContext


class PlaceholderSites:
    """Stands where a `SitesHandle` would, for building tasks without serving them."""

    control_url = None  # no sessions: nothing runs

    def __init__(self, seed: int, main_url: str, frame_url: str) -> None:
        self.seed = seed
        self.main_url = main_url
        self.frame_url = frame_url
        self.ctx = SiteContext(seed, main_url, frame_url)

    def url(self, path: str = "/") -> str:
        return self.main_url + (path if path.startswith("/") else "/" + path)
