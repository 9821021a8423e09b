"""Retrieval tasks from what the exploration read, each with the proof of its answer.

From every table (a page's, or a linked CSV's) a few cells are asked for by their row and
column: the row is named by its first column whose values are all distinct (a code, a name),
the column by its header; the answer is the cell as shown. From label/value lists, the value of
a label. Each task carries its proof — the page (and file), the links followed from the start
page, the table's caption, the row key, the column, the value — so a reader can check it, and
a difficulty from what reaching and reading it takes: the links to follow, the rows to search,
a file to open. Deterministic: the same site content and seed give the same tasks.
"""

from __future__ import annotations

import random
import re
from typing import Any

from webfovea.generate.explore import Exploration, PageRead
from webfovea.task import Task

_NUMBERISH = re.compile(r"^[\d\s.,%+\-−]+$")


def _key_column(header: list[str], body: list[list[str]]) -> int | None:
    for c in range(len(header)):
        values = [r[c] for r in body if c < len(r)]
        if len(values) == len(body) and all(values) and len(set(values)) == len(values):
            if not all(_NUMBERISH.match(v) for v in values) or c == 0:
                return c
    return None


def _column(name: str) -> str:
    """A column as a question names it: a year or number header is quoted ("the '2021' value")."""
    return f"'{name}' value" if _NUMBERISH.match(name) else name


def difficulty(page: PageRead, rows: int, from_file: bool) -> str:
    effort = len(page.path) + (1 if rows > 100 else 0) + (1 if rows > 1000 else 0) + (1 if from_file else 0)
    return "easy" if effort == 0 else "medium" if effort <= 2 else "hard"


def _table_tasks(
    page: PageRead, table: dict[str, Any], rng: random.Random, per_table: int
) -> list[dict[str, Any]]:
    header, body = table["rows"][0], [r for r in table["rows"][1:] if any(r)]
    if len(set(header)) != len(header) or not all(header) or not body:
        return []
    key = _key_column(header, body)
    if key is None:
        return []
    cells = [
        (r, c)
        for r in range(len(body))
        for c in range(len(header))
        if c != key and c < len(body[r]) and body[r][c]
    ]
    out = []
    for r, c in rng.sample(cells, min(per_table, len(cells))):
        caption = table.get("caption") or "the table"
        where = caption if table.get("file") else f"the table '{caption}' on the page '{page.title}'"
        out.append(
            {
                "task": f"What is the {_column(header[c])} of {header[key]} {body[r][key]} in {where}?",
                "answer": body[r][c],
                "category": "table lookup",
                "difficulty": difficulty(page, len(body), bool(table.get("file"))),
                "proof": {
                    "page": page.url,
                    "file": table.get("file"),
                    "links_followed": page.path,
                    "table": caption,
                    "row": {header[key]: body[r][key]},
                    "column": header[c],
                    "value": body[r][c],
                },
            }
        )
    return out


def _pair_tasks(page: PageRead, rng: random.Random, per_page: int) -> list[dict[str, Any]]:
    labels = [k for k, _ in page.pairs]
    unique = [(k, v) for k, v in page.pairs if labels.count(k) == 1]
    return [
        {
            "task": f"What is the {k} shown on the page '{page.title}'?",
            "answer": v,
            "category": "lookup",
            "difficulty": difficulty(page, 0, False),
            "proof": {"page": page.url, "links_followed": page.path, "label": k, "value": v},
        }
        for k, v in rng.sample(unique, min(per_page, len(unique)))
    ]


def make_tasks(found: Exploration, *, seed: int = 0, max_tasks: int = 20, per_table: int = 3) -> list[Task]:
    rng = random.Random(f"generate:{found.site}:{seed}")
    drafts: list[dict[str, Any]] = []
    for page in found.pages:
        for table in page.tables:
            drafts += _table_tasks(page, table, rng, per_table)
        drafts += _pair_tasks(page, rng, 2)
    if len(drafts) > max_tasks:  # spread over the pages and tables, not the first ones only
        drafts = [drafts[i] for i in sorted(rng.sample(range(len(drafts)), max_tasks))]
    slug = re.sub(r"[^a-z0-9]+", "-", found.site.lower()).strip("-")
    return [
        Task(task_id=f"gen-{slug}-{i:03d}", website=found.start, **d) for i, d in enumerate(drafts, start=1)
    ]
