"""What running BrowserGym's own environment (and AgentLab's study) in a test needs, offline,
and a model that solves MiniWoB tasks from what it is sent plus a twin of the task.

- BrowserGym's environment launches Playwright's downloaded Chromium: this machine's is linked
  where Playwright looks (`link_playwright_chromium`, the recipe of docs/browsergym.md).
- BrowserGym keeps one sync Playwright per process, alive for good, and sync Playwright marks an
  asyncio loop as running on its thread: it lives on `BGYM`, a thread of its own, so the
  pytest-asyncio tests that run later on this worker's main thread are not affected.
- Importing AgentLab's study module imports browsergym-webarena, which downloads NLTK's
  `punkt_tab` when it is missing; BrowserGym's loop counts tokens of the observation with
  tiktoken's `cl100k_base`, downloaded on first use. The tests run offline: an empty
  `punkt_tab` (WebArena never runs here) and a byte-level stand-in for the encoding (the counts
  go into the stats only) take their place for the module's duration.

`TwinSolver` (model spec `miniwob-twin:TASK=SEED;TASK=SEED`) reads the goal it is sent, sets the
same BrowserGym task up with the same seed on a page of its own (BrowserGym's MiniWoB layouts
are a function of the seed) and answers in webfovea's grammar at the point of its target in the
image it was sent. So the reward is 1 only when the agent's sizing, parsing, action strings and
BrowserGym's own execution carry the point to the right element on BrowserGym's page.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from webfovea.browser.session import BrowserSession
from webfovea.driving.environment import make_environment
from webfovea.environments.browsergym.chromium import link_playwright_chromium
from webfovea.environments.browsergym.miniwob_site import miniwob_url
from webfovea.models.base import ModelInput, ModelReply, Usage
from webfovea.models.factory import ModelKind, ModelRequest, register_model_kind
from webfovea.task import EnvironmentSpec

BGYM = ThreadPoolExecutor(1, thread_name_prefix="browsergym-sync")


@contextmanager
def offline_browsergym(folder: Path) -> Iterator[None]:
    import nltk
    import tiktoken
    import tiktoken.registry

    saved = {k: os.environ.get(k) for k in ("PLAYWRIGHT_BROWSERS_PATH", "MINIWOB_URL")}
    os.environ["PLAYWRIGHT_BROWSERS_PATH"] = str(link_playwright_chromium(folder / "playwright"))
    miniwob_url()  # serves the pages, sets MINIWOB_URL
    punkt = folder / "nltk"
    (punkt / "tokenizers" / "punkt_tab").mkdir(parents=True, exist_ok=True)
    nltk.data.path.insert(0, str(punkt))
    encodings = tiktoken.registry.ENCODINGS
    had = encodings.get("cl100k_base")
    encodings["cl100k_base"] = tiktoken.Encoding(
        name="cl100k_base",
        pat_str=r"\S+|\s+",
        mergeable_ranks={bytes([i]): i for i in range(256)},
        special_tokens={},
    )
    try:
        yield
    finally:
        BGYM.submit(_stop_global_playwright).result()
        nltk.data.path.remove(str(punkt))
        if had is None:
            encodings.pop("cl100k_base", None)
        else:
            encodings["cl100k_base"] = had
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _stop_global_playwright() -> None:
    """BrowserGym keeps one sync Playwright per process (browsergym.core._PLAYWRIGHT); started on
    BGYM's thread it cannot be used from another, so the next module on this worker that drives
    BrowserGym from its main thread (tests/breakingweb/gym) would fail with a greenlet error."""
    import browsergym.core

    pw = browsergym.core._PLAYWRIGHT
    if pw is not None:
        pw.stop()
        browsergym.core._set_global_playwright(None)


def plan(goal: str) -> list[tuple[str, str]]:
    """(action, CSS selector or text to type) for the MiniWoB goals of these tests."""
    if goal == "Click the button.":
        return [("click", "button")]
    if m := re.fullmatch(r'Click on the "(.+)" button\.', goal):
        return [("click", f"button:text-is('{m[1]}')")]
    if m := re.fullmatch(r'Enter "(.+)" into the text field and press Submit\.', goal):
        return [("click", "input[type=text]"), ("type", m[1]), ("click", "button:text-is('Submit')")]
    raise AssertionError(f"no plan for {goal!r}")


_twin_sessions: dict[int, BrowserSession] = {}  # per event loop: the agent loop's, in practice


async def twin(task_id: str, seed: int) -> tuple[Any, str]:
    """BrowserGym's task set up on a page of our own at its viewport: (sync facade, goal)."""
    key = id(asyncio.get_running_loop())
    if key not in _twin_sessions:
        _twin_sessions[key] = await BrowserSession.launch()
    env = make_environment(EnvironmentSpec(kind="browsergym", name=task_id, seed=seed))
    page = await _twin_sessions[key].fresh_page()
    await page.set_viewport_size(env.task.viewport)
    goal = await env.setup(page)
    return env.facade, str(goal)


async def close_twins() -> None:
    for key in list(_twin_sessions):
        await _twin_sessions.pop(key).close()


def image_point(page: Any, selector: str, image_size: tuple[int, int]) -> tuple[float, float]:
    """The centre of `selector` on a twin page, in the pixels of an image of BrowserGym's
    screenshot (CSS px x its scale factor) resized to `image_size`. Sync: a facade's thread."""
    box = page.locator(selector).first.bounding_box()
    scale = getattr(page, "_bgym_scale_factor", 1.0)
    view = page.viewport_size
    sx, sy = image_size[0] / (view["width"] * scale), image_size[1] / (view["height"] * scale)
    return (box["x"] + box["width"] / 2) * scale * sx, (box["y"] + box["height"] / 2) * scale * sy


class TwinSolver:
    can_verify = False

    def __init__(self, seeds: dict[str, int]) -> None:
        self.seeds, self.page, self.steps, self.done = seeds, None, [], 0
        self.seen: list[ModelInput] = []

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        self.seen.append(inp)
        assert "click(start_box=" in inp.system and "mouse_click" not in inp.system  # our grammar
        if self.page is None:
            for task_id, seed in self.seeds.items():
                page, goal = await twin(task_id, seed)
                if goal == inp.task:
                    self.page, self.steps = page, plan(goal)
                    break
            else:
                raise AssertionError(f"no twin among {self.seeds} has the goal {inp.task!r}")
        if self.done >= len(self.steps):
            return ModelReply("Thought: done\nAction: finished(content='done')", Usage(1, 1))
        action, target = self.steps[self.done]
        self.done += 1
        if action == "type":
            return ModelReply(f"Thought: type it\nAction: type(content='{target}')", Usage(1, 1))
        x, y = await asyncio.to_thread(image_point, self.page, target, inp.images[-1].size)
        return ModelReply(f"Thought: {target}\nAction: click(start_box='({x:.0f},{y:.0f})')", Usage(1, 1))

    async def aclose(self) -> None:
        pass


def _build(request: ModelRequest) -> TwinSolver:
    pairs = [p.split("=") for p in (request.argument or "").split(";") if p]
    return TwinSolver({task: int(seed) for task, seed in pairs})


register_model_kind(
    ModelKind("miniwob-twin", "tests: solves MiniWoB from a twin of the task", _build), replace=True
)
