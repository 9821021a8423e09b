"""What the person sees besides the app: the task window (the instruction, an answer box, Done
and Infeasible), and the script that counts their raw events on the app's page.

The task window is its own browser window, not a panel inside the app's page: the app's DOM,
its client-layer interventions and its layout stay exactly what an agent gets. The counter
reports each event through a binding (`BINDING`) the runner exposes to the app's window only.
"""

from __future__ import annotations

import html
import json

BINDING = "__bwRawEvent"  # one call per pointer click or key press on the app's page
ENDED = "__bwEnded"  # the task window's verdict: {how: done | infeasible, answer}

# Capture phase on the window: the app cannot stop it from seeing an event its own handlers
# swallow (a swallowed click is still a click the person made). `isTrusted` leaves out events a
# page script synthesises; repeats of a held key are one press.
COUNTER_JS = f"""
(() => {{
  if (window.top !== window || typeof window.{BINDING} !== "function") return;
  const send = (kind) => {{ try {{ window.{BINDING}(kind); }} catch (e) {{}} }};
  window.addEventListener("click", (e) => {{ if (e.isTrusted) send("click"); }}, true);
  window.addEventListener("keydown", (e) => {{ if (e.isTrusted && !e.repeat) send("key"); }}, true);
}})();
"""


def task_window(instruction: str, attempt: str, index: int, total: int) -> str:
    """The task window's page: the instruction only (never the task id or the condition), as seed
    003's annotators saw it, and the two ways to end. `data-bw` ({index, attempt}) lets a helper
    attached to the browser tell one attempt from the next."""
    which = "first attempt" if attempt == "cold" else "second attempt (the app was reset)"
    data = html.escape(json.dumps({"index": index, "attempt": attempt}), quote=True)
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>Your task ({index}/{total})</title>
<style>body{{font-family:sans-serif;margin:1.5em;max-width:34em}}textarea{{width:100%;height:5em}}
button{{font-size:1.1em;margin:.5em .5em 0 0;padding:.3em 1em}}.meta{{color:#555}}</style></head>
<body data-bw="{data}">
<p class="meta">Task {index} of {total}, {which}. Work in the other window; end here.</p>
<h2 id="instruction">{html.escape(instruction)}</h2>
<p>If the task asks for an answer, write it here:</p>
<textarea id="answer"></textarea>
<div><button id="done">Done</button><button id="infeasible">Infeasible</button></div>
<p id="status" class="meta"></p>
<script>
window.{ENDED} = undefined;  // set_content keeps the window: the last attempt's ending goes
for (const how of ["done", "infeasible"]) {{
  document.getElementById(how).addEventListener("click", () => {{
    window.{ENDED} = {{how, answer: document.getElementById("answer").value}};
    document.getElementById("status").textContent = "Recorded: " + how + ". Wait for the next task.";
    for (const b of document.querySelectorAll("button")) b.disabled = true;
  }});
}}
</script></body></html>"""
