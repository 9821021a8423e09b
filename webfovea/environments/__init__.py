"""Task environments (driving/environment.py): outside code that sets a task up on the harness's
page and scores it. One folder per kind, registered under the `webfovea.environments` entry
points: `browsergym/` (BrowserGym's tasks, MiniWoB++ offline)."""
