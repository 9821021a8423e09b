"""No code comment or docstring cites an issue by its number: the tracker's numbers rot (issues
close, split, move), while the sentence that says why the code is so stays true. The CHANGELOG
is where issue numbers belong."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITATION = re.compile(r"\bissues?\s*#?\d+|\(#\d+\)", re.IGNORECASE)


def test_no_source_file_names_an_issue_number() -> None:
    files = [
        p
        for d in ("webfovea", "tests", "benchmarks", "scripts")
        for p in (ROOT / d).rglob("*")
        if p.is_file()
    ]
    cited = []
    for path in files:
        if path.suffix not in {".py", ".js", ".toml", ""} or "__pycache__" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        cited += [f"{path.relative_to(ROOT)}: {m.group(0)}" for m in CITATION.finditer(text)]
    cited += [
        f"pyproject.toml: {m.group(0)}" for m in CITATION.finditer((ROOT / "pyproject.toml").read_text())
    ]
    assert cited == []
