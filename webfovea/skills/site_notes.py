"""Operating notes per site (seed 000 §6.3): what was learnt about a site across tasks — where
its search is, which filter traps, which banner to dismiss — shown with the instruction of every
task on that site when `site_notes_dir` is set.

A site is the registrable domain of the task's start URL (`shop.example.co.uk` ->
`example.co.uk`, guardrails/site.py's rule), so notes learnt on one subdomain serve its
siblings. A loopback or private host serves several sites under paths on one port (the proving
ground: `127.0.0.1:PORT/stats`, `/filings`), so there the first path segment is part of the
site and the port is not (it changes every start): `127.0.0.1/stats`.

The folder the harness reads holds only reviewed notes, one `<site>.md` each (`/` written as
`__`): `webfovea notes RUN...` writes drafts from judged trajectories and `webfovea notes
--publish DRAFTS --to DIR` copies the ones people accepted or edited (app/site_notes.py).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from webfovea.guardrails.site import is_local_host, registrable

MAX_NOTES_CHARS = 6_000  # a page of notes: more is cut, and the model told


def site_key(url: str) -> str:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if not host:
        return ""
    if is_local_host(host):
        first = next((seg for seg in parts.path.split("/") if seg), "")
        return f"{host}/{first}" if first else host
    return registrable(host)


def note_name(key: str) -> str:
    """The file a site's notes live in."""
    return key.replace("/", "__") + ".md"


def notes_for(url: str, notes_dir: str | Path) -> str | None:
    """The reviewed notes of the site `url` is on, or None."""
    key = site_key(url)
    path = Path(notes_dir) / note_name(key)
    if not key or not path.is_file():
        return None
    text = path.read_text(encoding="utf-8").strip()
    if len(text) > MAX_NOTES_CHARS:
        text = text[:MAX_NOTES_CHARS] + "\n[... the notes were cut here]"
    return text or None


def with_notes(instruction: str, notes: str) -> str:
    return (
        f"{instruction}\n\nNotes about this site, learnt from earlier tasks and reviewed by people:\n{notes}"
    )
