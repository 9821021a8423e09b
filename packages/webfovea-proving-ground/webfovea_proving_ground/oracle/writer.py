"""The oracle as a manual writer (`purpose="manual"`, judge/manuals/writer.py): deterministic, so
tests of `webfovea manual` need no key. Like any model it reads only the request — the task and
start page, one `Step N` entry of facts per step — and writes each step's suggested line, which
names the element the records name; it invents nothing the facts do not hold."""

from __future__ import annotations

import re

from webfovea.models.base import ModelInput

_TASK = re.compile(r"^Write the manual for this task:\s*(.*)$", re.MULTILINE)
_START = re.compile(r"^Start page:\s*(.*)$", re.MULTILINE)
_LINE = re.compile(r"^suggested line:\s*(.*)$", re.MULTILINE)


def write_manual(inp: ModelInput) -> str:
    task = m.group(1).strip() if (m := _TASK.search(inp.task)) else inp.task.strip().splitlines()[0]
    start = m.group(1).strip() if (m := _START.search(inp.task)) else "/"
    lines = [m.group(1).strip() for entry in inp.history if (m := _LINE.search(entry))]
    lines.append("Read the result the task asks for on the page and report it.")
    head = [f"# How to: {task}", "", f"Start at the site's page {start}.", ""]
    return "\n".join(head + [f"{i}. {line}" for i, line in enumerate(lines, start=1)]) + "\n"


_TASK_BLOCK = re.compile(r"^Task \d+: .*?(?=^Task \d+: |\Z)", re.MULTILINE | re.DOTALL)
_SITE = re.compile(r"^Write the operating notes for the site\s+(\S+?)\.?$", re.MULTILINE)
_START_IN = re.compile(r"^\s*Start page:\s*(.*)$", re.MULTILINE)
_ELEMENT = re.compile(r"^\s*element:\s*(.*)$", re.MULTILINE)
_ON_PAGE = re.compile(r"^\s*page:\s*(.*)$", re.MULTILINE)


def write_site_notes(inp: ModelInput) -> str:
    """Site notes (`purpose="site_notes"`, judge/site_notes.py): what the tasks' facts share —
    where they started and the elements several of them used — nothing the facts do not hold."""
    site = m.group(1) if (m := _SITE.search(inp.task)) else "this site"
    tasks = inp.history
    starts: dict[str, int] = {}
    used: dict[str, set[int]] = {}
    pages: dict[str, str] = {}
    for i, block in enumerate(tasks):
        if m := _START_IN.search(block):
            starts[m.group(1).strip()] = starts.get(m.group(1).strip(), 0) + 1
        for step in block.split("Step ")[1:]:
            el = m.group(1).strip() if (m := _ELEMENT.search(step)) else ""
            if not el or el.startswith("not named"):
                continue
            used.setdefault(el, set()).add(i)
            if (p := _ON_PAGE.search(step)) and el not in pages:
                pages[el] = p.group(1).strip()
    lines = [f"# Site notes: {site}", ""]
    lines += [f"- Tasks here started at {page} ({n} of {len(tasks)})." for page, n in sorted(starts.items())]
    ranked = sorted(used.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:10]
    for el, where in ranked:
        on = f" (on {pages[el]})" if el in pages else ""
        lines.append(f"- {el[0].upper()}{el[1:]} was used in {len(where)} of {len(tasks)} tasks{on}.")
    return "\n".join(lines) + "\n"
