"""Every word the code cites has its entry: each seed the package names has its section in
docs/glossary.md, each outside system the code cites is explained there, and every suite, every
BreakingWeb family, layer and primitive is in the glossary or docs/breakingweb.md."""

from __future__ import annotations

import re
from pathlib import Path

from webfovea.suites import SUITES
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.interventions.base import LAYERS, PRIMITIVES

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
BREAKINGWEB = (ROOT / "docs" / "breakingweb.md").read_text(encoding="utf-8")
CODE = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "webfovea").rglob("*.py")))

# Outside systems and borrowed words the code cites (its comments, docstrings and help texts).
CITED = (
    "NavEval",
    "WebJudge",
    "WebRetriever",
    "Online-Mind2Web",
    "Protocol",
    "BrowserGym",
    "MiniWoB",
    "AgentLab",
    "WorkArena",
    "webarena-verified",
    "Playwright MCP",
    "McNemar",
    "OOPIF",
    "UI-TARS",
    "Qwen",
    "oracle",
    "quirk",
    "arm",
    "fault plan",
)


def test_every_seed_the_code_names_has_its_section() -> None:
    cited = {int(n) for n in re.findall(r"\bseed (00\d)\b", CODE)}
    assert cited, "no seed cited: the pattern is out of date"
    described = {int(n) for h in re.findall(r"^\*\*Seed ([\d /]+)", GLOSSARY, re.M) for n in h.split("/")}
    assert sorted(cited - described) == []


def test_every_cited_system_and_word_is_explained() -> None:
    assert [w for w in CITED if not re.search(rf"\b{re.escape(w)}", CODE, re.I)] == [], "no longer cited"
    assert [w for w in CITED if w.lower() not in GLOSSARY.lower()] == []


def test_every_suite_family_layer_and_primitive_is_described() -> None:
    docs = GLOSSARY + BREAKINGWEB
    words = [*SUITES.names(), *FAMILIES, *LAYERS, *PRIMITIVES]
    assert [w for w in words if f"`{w}`" not in docs and f"`{w}/" not in docs] == []
