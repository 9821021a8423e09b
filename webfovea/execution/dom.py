"""DOM-level execution and fingerprint helpers: the one import the executor needs.

Every function takes CSS pixels of the main viewport, looks into child frames (same-origin,
cross-origin in-process and out-of-process, nested), and reports page-level problems in
its result instead of raising.
"""

from webfovea.browser.frames import FrameHit, frame_at_point, is_captcha_frame
from webfovea.execution.forms import FillOutcome, SelectOutcome, fill_at, select_at
from webfovea.feedback.element import ElementInfo, describe_at, dom_click_at
from webfovea.feedback.fingerprint import changed, fingerprint, fingerprints_at, text_hash
from webfovea.observation.textsearch import (
    FindOutcome,
    ReadOutcome,
    find_text,
    read_text,
    replace_private_use,
)

__all__ = [
    "ElementInfo",
    "FillOutcome",
    "FindOutcome",
    "ReadOutcome",
    "SelectOutcome",
    "fill_at",
    "select_at",
    "changed",
    "fingerprint",
    "fingerprints_at",
    "text_hash",
    "find_text",
    "read_text",
    "replace_private_use",
    "FrameHit",
    "describe_at",
    "dom_click_at",
    "frame_at_point",
    "is_captcha_frame",
]
