"""The modules mypy lets off only ever get fewer (pyproject.toml [tool.mypy]).

mypy is strict by default; the exceptions are listed in pyproject.toml: relaxed modules
(checked, strict flags off; none left) and ignored ones (`ignore_errors`). Their baselines
are below. A pattern added to either list, a strict flag switched off at the top, a module
that is not strict but in neither list, an inline `# mypy:` switch or one more
`# type: ignore` fails here. When a list shrinks the test fails too and says which baseline
line to delete, so the ratchet stays tight. No browser, no mypy run: it reads files.

    PYTHONPATH=. python -m tests.support.mypy_levels   # the share of lines at each level
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.mypy_levels import (
    ROOT,
    STRICT_FLAGS,
    level_of,
    options_for,
    read_config,
    source_modules,
)

# Patterns under `ignore_errors = true`.
IGNORED_BASELINE = frozenset({"webfovea_proving_ground.*", "webfovea_breakingweb.*"})
# Patterns with a strict flag switched off.
RELAXED_BASELINE: frozenset[str] = frozenset()  # empty: every checked module is strict
# `# type: ignore` comments in webfovea.
TYPE_IGNORES_BASELINE = 8

_INLINE_SWITCH = re.compile(r"#\s*mypy:")
_TYPE_IGNORE = re.compile(r"#\s*type:\s*ignore")


def _covered(module: str, patterns: frozenset[str]) -> bool:
    return any(module == p or (p.endswith(".*") and (module + ".").startswith(p[:-1])) for p in patterns)


def exception_lists(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, set[str]]:
    """The patterns pyproject.toml ignores and relaxes, under their baselines' names."""
    _, overrides = read_config(pyproject)
    return {
        "IGNORED_BASELINE": {p for o in overrides if o.options.get("ignore_errors") for p in o.patterns},
        "RELAXED_BASELINE": {
            p for o in overrides if any(o.options.get(f) is False for f in STRICT_FLAGS) for p in o.patterns
        },
    }


BASELINES = {"IGNORED_BASELINE": IGNORED_BASELINE, "RELAXED_BASELINE": RELAXED_BASELINE}


def list_problems(pyproject: Path) -> list[str]:
    """What the [tool.mypy] of `pyproject` loosens beyond the baselines (empty: nothing)."""
    base, overrides = read_config(pyproject)
    problems = []
    if base.get("ignore_errors"):
        problems.append("ignore_errors at the top of [tool.mypy] turns every check off")
    off = [flag for flag in STRICT_FLAGS if not base.get(flag)]
    if off:
        problems.append(f"strict flags off at the top of [tool.mypy]: {off} (new modules must start strict)")
    for name, now in exception_lists(pyproject).items():
        baseline = BASELINES[name]
        # A narrower pattern inside a baseline one (a list split to shrink it) is no growth.
        added = sorted(p for p in now - baseline if not _covered(p.removesuffix(".*"), baseline))
        if added:
            problems.append(f"patterns added to the {name[:7].lower()} list: {added}; type them instead")
    for module in source_modules():
        level = level_of(options_for(module, base, overrides))
        allowed = IGNORED_BASELINE if level == "ignored" else RELAXED_BASELINE | IGNORED_BASELINE
        if level != "strict" and not _covered(module, allowed):
            problems.append(f"{module} is {level}, not strict, and in no baseline")
    return problems


def test_the_exception_lists_do_not_grow() -> None:
    assert list_problems(ROOT / "pyproject.toml") == []


def test_the_baselines_are_tight() -> None:
    for name, now in exception_lists().items():
        assert now == BASELINES[name], (
            f"pyproject.toml's list shrank (good): set {name} = frozenset({sorted(now)}) in "
            "tests/package/test_types_ratchet.py, so what left the list cannot come back."
        )


def test_a_grown_list_is_caught(tmp_path: Path) -> None:
    text = (ROOT / "pyproject.toml").read_text()
    ignoring = text.replace(
        'module = ["webfovea_proving_ground.*", "webfovea_breakingweb.*"]',
        'module = ["webfovea_proving_ground.*", "webfovea_breakingweb.*", "webfovea.agent"]',
    )
    relaxing = (
        text + '\n[[tool.mypy.overrides]]\nmodule = ["webfovea.execution.*"]\nwarn_return_any = false\n'
    )
    loosening = text.replace("\nwarn_return_any = true\n", "\nwarn_return_any = false\n", 1)
    for case, changed in (("ignoring", ignoring), ("relaxing", relaxing), ("loosening", loosening)):
        assert changed != text, f"the {case} edit no longer applies to pyproject.toml: update this test"
        (tmp_path / f"{case}.toml").write_text(changed)
        assert list_problems(tmp_path / f"{case}.toml"), f"{case} pyproject.toml passed the ratchet"


def test_no_inline_switch_and_no_new_type_ignores() -> None:
    inline, ignores = [], 0
    for path in source_modules().values():
        text = path.read_text()
        if _INLINE_SWITCH.search(text):
            inline.append(str(path.relative_to(ROOT)))
        ignores += len(_TYPE_IGNORE.findall(text))
    assert not inline, f"inline `# mypy:` switches change the checks per file: {inline}"
    assert ignores <= TYPE_IGNORES_BASELINE, (
        f"{ignores} `# type: ignore` in webfovea, the baseline allows {TYPE_IGNORES_BASELINE}: fix the "
        "type instead (a narrow ignore[code] with a why-comment only where a stub is wrong)"
    )
    assert ignores == TYPE_IGNORES_BASELINE, (
        f"{ignores} `# type: ignore` in webfovea, fewer than the baseline: good. "
        f"Set TYPE_IGNORES_BASELINE = {ignores} in tests/package/test_types_ratchet.py."
    )
