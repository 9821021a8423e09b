"""Size control for a snapshot, as the winner measured it (seed 002, docs/glossary.md): a snapshot over the byte
budget is cut by structure, deterministically, with no model call.

Kept first: main/article/dialog/form regions with their headings, controls and table edges;
then headings, tabs, controls and table edges page-wide (the fallback when there is no main
region); then the regions' remaining text; then everything else, in document order. A kept
node always brings its ancestors, so indentation and context stay valid. References are
copied verbatim, never renumbered (the page's ref table keeps every ref of the snapshot,
omitted ones too). Each omitted run becomes one marker line saying how to get it.
A text at or under the budget is returned unchanged, so truncating twice changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from webfovea.browser.snapshot_text import Node, parse

REGIONS = frozenset({"main", "article", "dialog", "alertdialog", "form"})
INTERACTIVE = frozenset({
    "button", "link", "textbox", "combobox", "listbox", "option", "checkbox", "radio", "tab", "menuitem",
    "menuitemcheckbox", "menuitemradio", "searchbox", "slider", "spinbutton", "switch", "treeitem",
})  # fmt: skip
STRUCTURE = frozenset(
    {"heading", "tablist", "tab", "table", "grid", "rowgroup", "columnheader", "navigation"}
)
TABLE_HEAD_ROWS = 3  # header + first rows of a table kept with priority
TABLE_TAIL_ROWS = 2
MARKER = (
    "- … {n} {what} omitted (snapshot(ref='{ref}') shows them; find(text='…') searches the full snapshot)"
)
MARKER_NO_REF = "- … {n} {what} omitted (find(text='…') searches the full snapshot)"


@dataclass
class Truncated:
    text: str
    truncated: bool
    omitted: int  # nodes left out
    kept: int


def _table_edges(nodes: list[Node]) -> set[int]:
    """Rows at the head and tail of each table (and everything inside them)."""
    edges: set[int] = set()
    rows_of: dict[int, list[int]] = {}
    for n in nodes:
        if n.role != "row":
            continue
        p = n.parent
        while p is not None and nodes[p].role not in ("table", "grid", "treegrid"):
            p = nodes[p].parent
        if p is not None:
            rows_of.setdefault(p, []).append(n.index)
    for rows in rows_of.values():
        for r in rows[:TABLE_HEAD_ROWS] + rows[-TABLE_TAIL_ROWS:]:
            edges.add(r)
    # the cells of an edge row come with it
    for n in nodes:
        p = n.parent
        while p is not None:
            if p in edges:
                edges.add(n.index)
                break
            if nodes[p].role == "row":
                break
            p = nodes[p].parent
    return edges


def _priorities(nodes: list[Node]) -> list[int]:
    in_region = [False] * len(nodes)
    for n in nodes:
        p = n.parent
        in_region[n.index] = n.role in REGIONS or (p is not None and in_region[p])
    edges = _table_edges(nodes)
    out = []
    for n in nodes:
        important = n.role in INTERACTIVE or n.role in STRUCTURE or n.index in edges or n.role in REGIONS
        if n.line.lstrip().startswith("- …"):
            important = True  # a marker the scoped snapshot wrote: what was left out, and how to reach it
        if n.line.lstrip().startswith("- /url:") and n.parent is not None:
            important = nodes[n.parent].role in INTERACTIVE  # a link's address comes with it
        if important:
            out.append(0 if in_region[n.index] else 1)
        else:
            out.append(2 if in_region[n.index] else 3)
    return out


def _select(nodes: list[Node], prio: list[int], budget: int) -> set[int]:
    order = sorted(range(len(nodes)), key=lambda i: (prio[i], i))
    kept: set[int] = set()
    used = 0
    for i in order:
        if i in kept:
            continue
        chain = [i]
        p = nodes[i].parent
        while p is not None and p not in kept:
            chain.append(p)
            p = nodes[p].parent
        cost = sum(nodes[j].size for j in chain)
        if used + cost > budget:
            continue
        kept.update(chain)
        used += cost
    return kept


def _render(nodes: list[Node], kept: set[int]) -> tuple[str, int]:
    lines: list[str] = []
    omitted = 0
    run: list[Node] = []

    def flush() -> None:
        nonlocal omitted
        if not run:
            return
        omitted += len(run)
        first = run[0]
        rows = sum(1 for n in run if n.role == "row")
        what = "rows" if rows and rows == sum(1 for n in run if n.depth == first.depth) else "nodes"
        count = rows if what == "rows" else len(run)
        ref = None
        p = first.parent
        while p is not None and ref is None:
            ref = nodes[p].ref if p in kept else None
            p = nodes[p].parent
        marker = (MARKER if ref else MARKER_NO_REF).format(n=count, what=what, ref=ref)
        lines.append("  " * first.depth + marker)
        run.clear()

    for n in nodes:
        if n.index in kept:
            # a run is closed by a kept node at its depth or shallower, or by a kept child's line
            flush()
            lines.append(n.line)
        else:
            if run and n.depth < run[0].depth:
                flush()
            run.append(n)
    flush()
    return "\n".join(lines), omitted


def truncate(text: str, budget: int) -> Truncated:
    """The snapshot cut to at most `budget` UTF-8 bytes (markers included)."""
    if len(text.encode("utf-8")) <= budget:
        return Truncated(text, False, 0, text.count("\n") + 1)
    nodes = parse(text)
    prio = _priorities(nodes)
    target = budget
    for _ in range(12):  # markers cost bytes too: shrink the fill target until the whole fits
        kept = _select(nodes, prio, target)
        out, omitted = _render(nodes, kept)
        size = len(out.encode("utf-8"))
        if size <= budget:
            return Truncated(out, True, omitted, len(kept))
        target -= max(size - budget, budget // 50)
    headings = "\n".join(n.line.strip() for n in nodes if n.role == "heading")
    cut = headings.encode("utf-8")[: budget - 80].decode("utf-8", "ignore")
    return Truncated(
        cut + f"\n- … {len(nodes)} nodes omitted (find(text='…') searches the full snapshot)",
        True,
        len(nodes),
        0,
    )
