"""Guardrails: within the rules, within the budget, and alive.

Each module holds one concern, as data plus the check that enforces it where it applies:

- `constraints.py`  the hard constraints the prompt states (numbered, citable)
- `forbidden.py`    actions outside the closed action set (URL navigation, JavaScript, HTTP ...)
- `hotkeys.py`      browser-level key combinations the `hotkey` action refuses
- `bounds.py`       a model point must lie inside the image it was sent
- `budgets.py`      per-action budgets (enforced by the executor) and the task's step/time budgets
- `breaker.py`      the scroll breaker
- `captcha.py`      `click_many` only where an image-grid CAPTCHA is on the page
- `verify.py`       a state-changing task's first `finished` waits until the real state was shown
"""
