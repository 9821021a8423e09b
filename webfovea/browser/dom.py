"""DOM-level execution and fingerprint helpers: the one import the executor needs.

Every function takes CSS pixels of the main viewport, looks into child frames (same-origin,
cross-origin in-process and out-of-process, nested), and reports page-level problems in
its result instead of raising.
"""

from webfovea.browser.elements import ElementInfo, describe_at, dom_click_at
from webfovea.browser.forms import FillOutcome, SelectOutcome, fill_at, select_at
from webfovea.browser.frames import FrameHit, frame_at_point, is_captcha_frame

__all__ = [
    "ElementInfo",
    "FillOutcome",
    "SelectOutcome",
    "fill_at",
    "select_at",
    "FrameHit",
    "describe_at",
    "dom_click_at",
    "frame_at_point",
    "is_captcha_frame",
]
