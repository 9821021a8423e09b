"""Task-type checklists: data, one Markdown file per category, appended to the instruction.

A file (`checklists/<name>.md`, or the same in `checklist_dir`, which adds files and replaces
same-named ones) is a front matter block and the checklist itself:

    ---
    title: Chart reading
    aliases: chart reading          (optional: task categories that pick it outright)
    keywords: chart, graph, plot    (words and phrases that count towards it)
    ---
    - Read the axis titles and units first; ...

A task's checklist: the file whose name or alias is the task's `category`, else the file whose
keywords occur most often in the task's words (whole words, case-folded; a tie goes to the
file listed first by name), else none. The choice and why are recorded in result.json
(`checklist`), so an A/B of `checklists=auto` against `off` can be read task by task.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path


class ChecklistError(ValueError):
    """A checklist file that cannot be read as one (its path and what is wrong)."""


@dataclass(frozen=True)
class Checklist:
    name: str
    title: str
    aliases: tuple[str, ...]
    keywords: tuple[str, ...]
    items: str  # the Markdown list, as the model reads it

    def score(self, words: str) -> int:
        return sum(len(re.findall(rf"\b{re.escape(k)}\b", words)) for k in self.keywords)


def parse(name: str, text: str, where: str = "") -> Checklist:
    head, sep, body = text.removeprefix("---\n").partition("\n---\n")
    if not text.startswith("---\n") or not sep:
        raise ChecklistError(f"{where or name}: starts with a '---' front matter block (title, keywords)")
    fields: dict[str, str] = {}
    for line in head.splitlines():
        key, colon, value = line.partition(":")
        if not colon:
            raise ChecklistError(f"{where or name}: front matter line {line!r} is not 'key: value'")
        fields[key.strip()] = value.strip()
    if "title" not in fields:
        raise ChecklistError(f"{where or name}: the front matter needs a title")

    def listed(key: str) -> tuple[str, ...]:
        return tuple(v.strip().casefold() for v in fields.get(key, "").split(",") if v.strip())

    items = body.strip()
    if not items:
        raise ChecklistError(f"{where or name}: the checklist is empty")
    return Checklist(name, fields["title"], listed("aliases"), listed("keywords"), items)


@cache
def _builtin() -> tuple[Checklist, ...]:
    root = resources.files("webfovea.skills") / "checklists"
    files = sorted((f for f in root.iterdir() if f.name.endswith(".md")), key=lambda f: f.name)
    return tuple(parse(f.name[:-3], f.read_text(encoding="utf-8")) for f in files)


def load(extra_dir: str | None = None) -> tuple[Checklist, ...]:
    """The built-in checklists, with `extra_dir`'s files added (a same-named file replaces one)."""
    found = {c.name: c for c in _builtin()}
    if extra_dir:
        folder = Path(extra_dir)
        if not folder.is_dir():
            raise ChecklistError(f"checklist_dir {extra_dir} is not a folder of <category>.md checklists")
        for f in sorted(folder.glob("*.md")):
            found[f.stem] = parse(f.stem, f.read_text(encoding="utf-8"), str(f))
    return tuple(sorted(found.values(), key=lambda c: c.name))


def choose(
    task_text: str, category: str | None, lists: tuple[Checklist, ...]
) -> tuple[Checklist, str] | None:
    """The task's checklist and why it was chosen, or None."""
    if category:
        cat = category.strip().casefold()
        for c in lists:
            if cat == c.name.replace("_", " ") or cat == c.name or cat in c.aliases:
                return c, f"the task's category {category!r}"
    words = " ".join(re.findall(r"[\w-]+", task_text.casefold()))
    best, best_score = None, 0
    for c in lists:
        s = c.score(words)
        if s > best_score:
            best, best_score = c, s
    if best is None:
        return None
    return best, f"classified from the task's words ({best_score} keyword{'s' if best_score != 1 else ''})"


def with_checklist(instruction: str, checklist: Checklist) -> str:
    return f"{instruction}\n\nChecklist for this kind of task ({checklist.title.lower()}):\n{checklist.items}"


def instruction_for(
    instruction: str, category: str | None, mode: str, extra_dir: str | None
) -> tuple[str, dict[str, str] | None]:
    """The instruction the model reads, and what result.json records of its checklist."""
    if mode == "off":
        return instruction, None
    picked = choose(instruction, category, load(extra_dir))
    if picked is None:
        return instruction, None
    checklist, why = picked
    return with_checklist(instruction, checklist), {
        "name": checklist.name,
        "title": checklist.title,
        "why": why,
    }
