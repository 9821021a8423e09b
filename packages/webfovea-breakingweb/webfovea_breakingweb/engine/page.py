"""The page of an app with its own UI: its HTML, CSS and script, plus what every app page carries.

Every app page carries, in both conditions, `window.__IV_PLAN__` (the client-layer plan, null
when clean) and `/_static/iv.js` (client interventions, inert without a plan), before the app's
own markup; and `client.js` (`WF.api`, `WF.error`, `WF.toast`, the sign-in after a session
expiry, the busy marker), so network families meet the same cues on every app. Only the plan
line differs between clean and intervention runs.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import Session
from webfovea_proving_ground.sites.layout import esc, js_data

BASE_CSS = """
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 15px; color: #1d232b; }
button { font: inherit; cursor: pointer; }
input, select, textarea { font: inherit; }
#busy { position: fixed; top: 8px; right: 12px; background: #1d232b; color: #fff; padding: 4px 10px; border-radius: 4px; font-size: 13px; }
#error { background: #fdecec; border: 1px solid #e08a8a; color: #7a1d1d; padding: 10px 14px; border-radius: 4px; margin: 10px 0; }
#toast { background: #e5f5ea; border: 1px solid #7cc293; color: #1d5b31; padding: 10px 14px; border-radius: 4px; margin: 10px 0; }
/* Forms: label + control in 36px rows with a 12px gap (client/label_shift draws labels a row off). */
#app .fields { display: grid; grid-template-columns: 200px 340px; gap: 12px 16px; align-items: center; }
#app .fields input, #app .fields select { height: 36px; padding: 4px 8px; border: 1px solid #9aa7b4; border-radius: 4px; }
#login { max-width: 460px; border: 1px solid #ccd; border-radius: 6px; padding: 18px; margin: 20px 0; background: #fff; }
#login label { display: block; margin: 10px 0 4px; }
#login input { width: 100%; padding: 6px 8px; }
"""


@lru_cache(maxsize=1)
def client_js() -> str:
    return Path(__file__).with_name("client.js").read_text(encoding="utf-8")


def client_plan(session: Session | None, app: str) -> dict[str, Any] | None:
    """The client-layer plan of a session of `app` (None when clean or another app's session)."""
    if session is None or session.extra.get("app") != app:
        return None
    iv = session.extra.get("iv")
    plan = iv.get("client") if iv else None
    if plan and "swallow" in plan:  # per-session ordinal: tell the new page how many it has seen
        plan = {**plan, "swallow": {**plan["swallow"], "seen": int(session.extra.get("clicks_seen", 0))}}
    if plan and "terms" in plan:  # accepted once, accepted for the session: the banner stays away
        accepted = bool(session.extra.get("flags", {}).get("terms_accepted"))
        plan = {**plan, "terms": {**plan["terms"], "accepted": accepted}}
    return plan


def document(
    app: AppSpec, client_plan: dict[str, Any] | None, body: str, *, css: str = "", script: str = ""
) -> str:
    """A whole page of the app's own look. `body` must hold `#wf-status` (where errors, toasts
    and the sign-in form appear: `WF.mount` renders them there) and the app's own markup."""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(app.title)}</title>
<style>{BASE_CSS}{css}</style></head>
<body>
<script>window.__IV_PLAN__ = {js_data(client_plan)};</script><script src="/_static/iv.js"></script>
<div id="busy" hidden>Loading…</div>
{body}
<script>const WF_API = {js_data(app.api)};
{client_js()}
{script}</script>
</body></html>"""


def asset(package_file: str, name: str) -> str:
    """A file next to an app's module (its JS or CSS), read once."""
    return _read(str(Path(package_file).with_name(name)))


@lru_cache(maxsize=64)
def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")
