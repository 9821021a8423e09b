"""No code outside the action specs decides anything by an action's name.

What differs between actions (the DOM event of the iframe fallback, whether page text is
hashed, whether it counts as a scroll, its aliases ...) is a field of its spec; a
comparison like `name == "scroll"` anywhere else would be a second definition of the action.
"""

from __future__ import annotations

import ast
from pathlib import Path

from webfovea.actions.catalog import ALIASES, TABLE3

PKG = Path(__file__).resolve().parents[2] / "webfovea"
CHECKED = ["harness.py", "agent.py", "execution", "feedback", "guardrails", "observation", "parsing", "mcp"]
NAMES = set(TABLE3) | set(ALIASES)


def _files() -> list[Path]:
    out: list[Path] = []
    for item in CHECKED:
        path = PKG / item
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def _mentions_a_name(node: ast.AST) -> bool:
    """`name`, `spec.name`, `action.name`, `kind_name` ...: what holds an action's name."""
    for sub in ast.walk(node):
        if (
            isinstance(sub, ast.Name)
            and "name" in sub.id
            or isinstance(sub, ast.Attribute)
            and "name" in sub.attr
        ):
            return True
    return False


def _names_in(node: ast.AST) -> set[str]:
    found = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value in NAMES:
            found.add(sub.value)
    return found


def test_no_comparison_with_an_action_name_outside_the_specs():
    offenders = []
    for path in _files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Compare) and _mentions_a_name(node):
                names = _names_in(node)
                if names:
                    offenders.append(f"{path.relative_to(PKG)}:{node.lineno} compares with {sorted(names)}")
    assert not offenders, "\n".join(offenders)


def test_the_check_sees_a_name_comparison():
    tree = ast.parse('if spec.name == "hover":\n    pass\n')
    assert any(isinstance(n, ast.Compare) and _mentions_a_name(n) and _names_in(n) for n in ast.walk(tree))
