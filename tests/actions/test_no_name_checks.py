"""No code outside the action specs decides anything by an action's name.

What differs between actions (the DOM event of the iframe fallback, whether page text is
hashed, whether it counts as a scroll, its aliases, its line in a manual, how the failure
taxonomy counts a repeat ...) is a field of its spec; a comparison like `name == "scroll"`
anywhere else would be a second definition of the action. The whole package is checked;
only `actions/` (the specs) and `models/conventions.py` (the one table keyed on model
names) may name actions in a comparison.
"""

from __future__ import annotations

import ast
from pathlib import Path

from webfovea.actions.catalog import ALIASES, BY_NAME

PKG = Path(__file__).resolve().parents[2] / "webfovea"
ALLOWED = ("actions/", "models/conventions.py")
NAMES = set(BY_NAME) | set(ALIASES)


def _files() -> list[Path]:
    return [p for p in sorted(PKG.rglob("*.py")) if not p.relative_to(PKG).as_posix().startswith(ALLOWED)]


def _mentions_a_name(node: ast.AST) -> bool:
    """`name`, `spec.name`, `action.name`, `kind_name`, `step.action["name"]`,
    `action.get("name")` ...: what holds an action's name."""
    for sub in ast.walk(node):
        if (
            isinstance(sub, ast.Name)
            and "name" in sub.id
            or isinstance(sub, ast.Attribute)
            and "name" in sub.attr
            or isinstance(sub, ast.Constant)
            and sub.value == "name"
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
    for code in (
        'spec.name == "hover"',
        'action.get("name") == "scroll"',
        'step.action["name"] in ("zoom",)',
    ):
        tree = ast.parse(f"if {code}:\n    pass\n")
        assert any(
            isinstance(n, ast.Compare) and _mentions_a_name(n) and _names_in(n) for n in ast.walk(tree)
        ), code


def test_the_whole_package_is_checked():
    files = {p.relative_to(PKG).as_posix() for p in _files()}
    assert {"harness/core.py", "judge/manuals/__init__.py", "eval/taxonomy.py", "cli/bench.py"} <= files
    assert not any(f.startswith("actions/") for f in files) and "models/conventions.py" not in files
