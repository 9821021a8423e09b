"""How strictly mypy checks each module of webfovea, read from pyproject.toml's [tool.mypy].

The ratchet test (tests/package/test_types_ratchet.py) and the line count below both need the level
mypy applies to a module. mypy resolves its per-module overrides by specificity, not by order
in the file: unstructured globs (`a.*.b`) first, then `a.*` patterns from the shortest to the
longest, then exact names, each later one replacing the options it sets. This copies that rule
(checked against mypy 2.4: probe files in webfovea/, judge/, webfovea_proving_ground/oracle/ and
webfovea_proving_ground/sites/ drew exactly the errors of strict, checked, strict and ignored).

    PYTHONPATH=. python -m tests.support.mypy_levels [PYPROJECT]   # share of lines per level
"""

from __future__ import annotations

import fnmatch
import sys
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parents[2]

# The flags of the strict block: a module is "strict" when every one of them is on.
STRICT_FLAGS = (
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "disallow_untyped_decorators",
    "disallow_any_generics",
    "disallow_untyped_calls",
    "disallow_subclassing_any",
    "warn_return_any",
    "no_implicit_reexport",
)

Level = Literal["ignored", "checked", "strict"]
Options = Mapping[str, object]


@dataclass(frozen=True)
class Override:
    patterns: tuple[str, ...]
    options: Options


def read_config(pyproject: Path = ROOT / "pyproject.toml") -> tuple[Options, list[Override]]:
    """The global [tool.mypy] options and its [[tool.mypy.overrides]] sections."""
    mypy = tomllib.loads(pyproject.read_text())["tool"]["mypy"]
    overrides = []
    for section in mypy.get("overrides", []):
        modules = section["module"]
        patterns = (modules,) if isinstance(modules, str) else tuple(modules)
        options = {k: v for k, v in section.items() if k != "module"}
        overrides.append(Override(patterns, options))
    return {k: v for k, v in mypy.items() if k != "overrides"}, overrides


def _rank(pattern: str) -> tuple[int, int]:
    if "*" in pattern.removesuffix(".*"):
        return (0, 0)  # unstructured glob: applied first
    if pattern.endswith(".*"):
        return (1, pattern.count("."))
    return (2, 0)


def _matches(pattern: str, module: str) -> bool:
    if pattern.endswith(".*") and "*" not in pattern[:-2]:
        return module == pattern[:-2] or module.startswith(pattern[:-1])
    return fnmatch.fnmatchcase(module, pattern)


def options_for(module: str, base: Options, overrides: Iterable[Override]) -> dict[str, object]:
    """The options mypy applies to one module."""
    hits = [
        (_rank(pattern), order, section.options)
        for order, section in enumerate(overrides)
        for pattern in section.patterns
        if _matches(pattern, module)
    ]
    merged = dict(base)
    for _, _, options in sorted(hits, key=lambda hit: (hit[0], hit[1])):
        merged.update(options)
    return merged


def level_of(options: Options) -> Level:
    if options.get("ignore_errors"):
        return "ignored"
    return "strict" if all(options.get(flag) for flag in STRICT_FLAGS) else "checked"


def source_modules(package: Path = ROOT / "webfovea") -> dict[str, Path]:
    """Every module mypy checks (`files = ["webfovea"]`), by dotted name."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def line_shares(pyproject: Path = ROOT / "pyproject.toml") -> dict[Level, tuple[int, float]]:
    """Lines of webfovea at each level, and their share of all its lines."""
    base, overrides = read_config(pyproject)
    lines: dict[Level, int] = {"ignored": 0, "checked": 0, "strict": 0}
    for module, path in source_modules().items():
        lines[level_of(options_for(module, base, overrides))] += len(path.read_bytes().splitlines())
    total = sum(lines.values())
    return {level: (count, count / total) for level, count in lines.items()}


if __name__ == "__main__":
    for level, (count, share) in line_shares(
        Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "pyproject.toml"
    ).items():
        print(f"{level:8} {count:6d} lines  {share:6.1%}")
