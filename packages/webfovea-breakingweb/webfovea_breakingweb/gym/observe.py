"""The observation of one step, extracted as BrowserGym extracts it (`BrowserEnv._get_obs` of
browsergym-core 0.14: the same helpers, the same retries on a frame that went away, the same
keys), but only the parts the task's contract shows the agent — what is not shown is not paid for:

- `text` (Appendix A.2.1: instruction, last action and error, URL, the accessibility tree):
  marks, DOM snapshot (for visibility and clickability), accessibility tree, focused element; the
  screenshot is a 1 × 1 black pixel;
- `gui` (Appendix A.2.2: the screenshot only): the screenshot; the DOM, tree and element
  properties are empty, no element is marked.

On a page of BreakingWeb's size the tree and the snapshot cost far more than on MiniWoB's
(benchmarks/bench_gym_step.py), and the screenshot is the largest part after them.
"""

from __future__ import annotations

import copy
import logging
import time
from typing import Any

import numpy as np
import playwright.sync_api
from browsergym.core.constants import EXTRACT_OBS_MAX_TRIES
from browsergym.core.env import _try_to_extract_legacy_goal
from browsergym.core.observation import (
    MarkingError,
    _post_extract,
    _pre_extract,
    extract_dom_extra_properties,
    extract_dom_snapshot,
    extract_focused_element_bid,
    extract_merged_axtree,
    extract_screenshot,
)

logger = logging.getLogger(__name__)

NO_SCREENSHOT = np.zeros((1, 1, 3), dtype=np.uint8)
# What the GUI contract shows of the page's structure: nothing, in shapes BrowserGym's own
# readers (flatten_dom_to_str, flatten_axtree_to_str, an Agent's default preprocessor) accept.
EMPTY_AXTREE: dict[str, Any] = {"nodes": [{"nodeId": "0", "role": {"value": "RootWebArea"}, "childIds": []}]}
EMPTY_DOM: dict[str, Any] = {
    "documents": [
        {
            "nodes": {
                "parentIndex": [-1],
                "nodeType": [9],
                "nodeName": [0],
                "nodeValue": [-1],
                "attributes": [[]],
                "contentDocumentIndex": {"index": [], "value": []},
            }
        }
    ],
    "strings": ["#document"],
}
# BrowserGym's own list of the errors of a frame detached while it was read: try again.
RETRY_ON = (
    "Frame was detached",
    "Frame with the given frameId is not found",
    "Execution context was destroyed",
    "Frame has been detached",
    "Cannot mark a child frame without a bid",
    "Cannot read properties of undefined",
)


def _tree(env: Any) -> tuple[dict[str, Any], dict[str, Any], str, dict[str, Any]]:
    """DOM snapshot, accessibility tree, focused bid and element properties (BrowserGym's loop)."""
    page = env.page
    for retries_left in reversed(range(EXTRACT_OBS_MAX_TRIES)):
        try:
            _pre_extract(page, tags_to_mark=env.tags_to_mark, lenient=(retries_left == 0))
            dom = extract_dom_snapshot(page)
            axtree = extract_merged_axtree(page)
            focused = extract_focused_element_bid(page)
            extra = extract_dom_extra_properties(dom, scale_factor=getattr(page, "_bgym_scale_factor", 1.0))
        except (playwright.sync_api.Error, MarkingError) as e:
            if retries_left > 0 and any(msg in str(e) for msg in RETRY_ON):
                logger.warning("observation: a frame changed while it was read, retrying (%s)", e)
                _post_extract(page)
                time.sleep(0.5)
                continue
            raise
        break
    _post_extract(page)
    return dom, axtree, focused, extra


def observe(env: Any, harness: str) -> dict[str, Any]:
    """The observation dict BrowserGym's agents read, filled as `harness` shows it."""
    if harness == "text":
        dom, axtree, focused, extra = _tree(env)
        screenshot = NO_SCREENSHOT
    else:
        dom, axtree, focused, extra = EMPTY_DOM, EMPTY_AXTREE, "", {}
        screenshot = extract_screenshot(env.page)
    pages = env.context.pages
    return {
        "chat_messages": tuple(copy.deepcopy(env.chat.messages)),
        "goal": _try_to_extract_legacy_goal(env.goal_object),
        "goal_object": tuple(copy.deepcopy(env.goal_object)),
        "open_pages_urls": tuple(p.url for p in pages),
        "open_pages_titles": tuple(p.title() for p in pages),
        "active_page_index": np.asarray([pages.index(env.page)]),
        "url": env.page.url,
        "screenshot": screenshot,
        "dom_object": dom,
        "axtree_object": axtree,
        "extra_element_properties": extra,
        "focused_element_bid": focused,
        "last_action": env.last_action,
        "last_action_error": env.last_action_error,
        "elapsed_time": np.asarray([time.time() - env.start_time]),
    }
