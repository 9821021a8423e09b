"""docs/architecture.md is the map: its layer diagrams are the import contracts pyproject.toml
enforces (so a layer added to one is added to the other), and every row of its tables has as many
cells as its header (a stray `|` hides the rest of a row)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"][
    "contracts"
]


def _diagram_after(marker: str) -> list[str]:
    """The layers of the first code block after `marker`: one per line that does not start
    with a space, each written `a | b`, with an optional comment after two spaces or `(`."""
    start = DOC.index(marker)
    block = re.search(r"```\n(.*?)```", DOC[start:], re.S)
    assert block, f"no diagram after {marker!r}"
    layers = []
    for line in block.group(1).splitlines():
        if line and not line.startswith(" "):
            layers.append(re.split(r"\s{2,}|\s*\(", line, maxsplit=1)[0].strip())
    return layers


def _contract(container: str | None) -> list[str]:
    for c in CONTRACTS:
        if c["type"] == "layers" and c.get("containers", [None]) == [container]:
            prefix = "webfovea." if container is None else ""
            return [" | ".join(p.strip().removeprefix(prefix) for p in lay.split("|")) for lay in c["layers"]]
    raise AssertionError(f"no layers contract for {container}")


def test_the_package_diagram_is_the_import_contract() -> None:
    assert _diagram_after("## The import rules") == _contract(None)


def test_the_proving_ground_diagram_is_its_import_contract() -> None:
    assert _diagram_after("Inside the proving ground the rooms have their own rules") == _contract(
        "webfovea_proving_ground"
    )


def _cells(row: str) -> int:
    """The cells of a table row; a `|` inside backticks is text, not a separator."""
    outside = re.sub(r"`[^`]*`", "", row)
    return outside.strip().strip("|").count("|") + 1


def test_every_table_row_has_the_headers_cells() -> None:
    bad = []
    header = 0
    for number, line in enumerate(DOC.splitlines(), 1):
        if not line.startswith("|"):
            header = 0
        elif not header:
            header = _cells(line)
        elif _cells(line) != header:
            bad.append(f"line {number}: {_cells(line)} cells, its header has {header}")
    assert bad == []


def _recipes() -> dict[str, str]:
    parts = re.split(r"^### (Adding [^\n]*)\n", DOC, flags=re.M)
    return {
        title: re.split(r"^##? ", body, maxsplit=1, flags=re.M)[0]
        for title, body in zip(parts[1::2], parts[2::2], strict=True)
    }


def test_every_recipe_is_followed_by_a_test_that_exists() -> None:
    recipes = _recipes()
    assert len(recipes) >= 7, sorted(recipes)
    for title, body in recipes.items():
        named = re.findall(r"`?(tests/[\w/]+\.py)", body)
        assert named, f"the recipe {title!r} names no test"
        assert [p for p in named if not (ROOT / p).is_file()] == [], title


def test_every_test_file_the_map_names_exists() -> None:
    named = set(re.findall(r"(tests/[\w/]+\.py)", DOC))
    assert sorted(p for p in named if not (ROOT / p).is_file()) == []
