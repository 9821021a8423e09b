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
