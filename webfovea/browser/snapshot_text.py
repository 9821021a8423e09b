"""Reading Playwright's AI snapshot text: one node per `- ` line, its depth, role, name, ref.

The snapshot is YAML-like text (`- button "Save" [ref=e6]`, children indented by two
spaces, properties such as `- /url: /x` as child lines). Truncation, guards, `find`,
`snapshot(ref)`, ref checks and the oracle all read it through this one parser.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

REF_RE = re.compile(r"\[ref=((?:f\d+)?e\d+)\]")
BOX_RE = re.compile(r" \[box=(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)\]")
_ATTRS_RE = re.compile(r"\[[^\]]*\]")
_LINE_RE = re.compile(r"^(\s*)- (.*)$")
_ROLE_RE = re.compile(r'^([A-Za-z][\w-]*)(?:\s+("(?:[^"\\]|\\.)*"))?')
# A reference as models write it: e12, f3e12, 'e12', [ref=e12], ref=e12.
VALID_REF_RE = re.compile(r"^(f\d+)?e\d+$")


@dataclass
class Node:
    index: int  # line number in the snapshot
    depth: int  # indentation level (two spaces each)
    line: str  # the line as written (without the newline)
    role: str  # '' for text/property lines
    name: str
    ref: str | None
    parent: int | None = None  # index of the parent node
    text: str = ""  # inline text after the colon (`- listitem [ref=e4]: Kenya`)

    @property
    def size(self) -> int:
        return len(self.line.encode("utf-8")) + 1


def _unquote(quoted: str | None) -> str:
    if not quoted:
        return ""
    try:
        return str(json.loads(quoted))
    except ValueError:
        return quoted[1:-1]


def parse(text: str) -> list[Node]:
    """Every line as a node with its parent; lines that are not `- ` items join the previous node."""
    nodes: list[Node] = []
    stack: list[Node] = []
    for raw in text.split("\n"):
        if not raw.strip():
            continue
        m = _LINE_RE.match(raw)
        if m is None:  # a wrapped value: part of the node above
            if nodes:
                nodes[-1].line += "\n" + raw
            continue
        depth = len(m.group(1)) // 2
        body = m.group(2)
        role = name = inline = ""
        if not body.startswith(("text:", "/", "…")):
            rm = _ROLE_RE.match(body)
            if rm:
                role, name = rm.group(1), _unquote(rm.group(2))
                rest = _ATTRS_RE.sub("", body[rm.end() :]).strip()
                if rest.startswith(":") and rest[1:].strip():
                    inline = rest[1:].strip()
                    inline = _unquote(inline) if inline.startswith('"') else inline
        ref = REF_RE.search(body)
        node = Node(len(nodes), depth, raw, role, name, ref.group(1) if ref else None, text=inline)
        while stack and stack[-1].depth >= depth:
            stack.pop()
        node.parent = stack[-1].index if stack else None
        stack.append(node)
        nodes.append(node)
    return nodes


def by_ref(nodes: list[Node]) -> dict[str, Node]:
    return {n.ref: n for n in nodes if n.ref}


def subtree(nodes: list[Node], index: int) -> list[Node]:
    """The node at `index` and all its descendants (they follow it with a greater depth)."""
    root = nodes[index]
    out = [root]
    for n in nodes[index + 1 :]:
        if n.depth <= root.depth:
            break
        out.append(n)
    return out


def render(nodes: list[Node], base_depth: int = 0) -> str:
    """Lines back to text, re-indented so the first node's depth becomes `base_depth`."""
    if not nodes:
        return ""
    shift = nodes[0].depth - base_depth
    return "\n".join(n.line[2 * shift :] if shift > 0 else n.line for n in nodes)


def strip_boxes(text: str) -> str:
    return BOX_RE.sub("", text)


def box_of(line: str) -> tuple[float, float, float, float] | None:
    m = BOX_RE.search(line)
    if m is None:
        return None
    x, y, w, h = (float(g) for g in m.groups())  # BOX_RE has four groups
    return x, y, w, h


def normalise_ref(text: str) -> str | None:
    """`e12`, `'e12'`, `[ref=e12]`, `ref=e12`, ` F3E12 ` -> the canonical ref; None if it is not one."""
    t = text.strip().strip("'\"` ").strip("[]").strip()
    if t.lower().startswith("ref"):
        t = t[3:].lstrip(" =:").strip("'\"` ")
    t = t.lower()
    return t if VALID_REF_RE.match(t) else None


def ancestors(nodes: list[Node], index: int) -> list[Node]:
    out = []
    p = nodes[index].parent
    while p is not None:
        out.append(nodes[p])
        p = nodes[p].parent
    return out


def find(nodes: list[Node], text: str, limit: int = 10) -> list[tuple[Node, list[Node]]]:
    """Lines containing `text` (case-insensitive), each with its path of ancestors (nearest first)."""
    needle = text.strip().lower()
    if not needle:
        return []
    hits = []
    for n in nodes:
        if needle in n.line.lower():
            hits.append((n, ancestors(nodes, n.index)))
            if len(hits) >= limit:
                break
    return hits
