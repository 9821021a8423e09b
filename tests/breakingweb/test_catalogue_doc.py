"""docs/breakingweb.md holds the catalogue table as the registry generates it, and documents
every target key a family needs (the app helpers' task generators read that section)."""

from __future__ import annotations

import re
from pathlib import Path

from webfovea_breakingweb.composition import composition_markdown
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.pairing import DEFAULT_SEED, catalogue, families_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "breakingweb.md"


def test_the_doc_table_is_the_registry() -> None:
    text = DOC.read_text(encoding="utf-8")
    got = text.split("<!-- families:begin -->", 1)[1].split("<!-- families:end -->", 1)[0].strip()
    assert got == families_markdown(), (
        "docs/breakingweb.md's catalogue is stale: paste the output of "
        "`python -m webfovea_breakingweb.pairing` between its markers"
    )


def test_every_target_a_family_needs_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Targets an app's tasks declare", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z_]+)`", section, re.MULTILINE)) | set(
        re.findall(r"`([a-z_]+)`", section)
    )
    needed = {k for f in FAMILIES.values() for k in (*f.needs, *f.needs_any)}
    assert needed <= documented, needed - documented


def test_the_doc_composition_is_the_commands_output() -> None:
    text = DOC.read_text(encoding="utf-8")
    got = text.split("<!-- composition:begin -->", 1)[1].split("<!-- composition:end -->", 1)[0].strip()
    # What `python -m webfovea_breakingweb.pairing composition` prints, computed in this process
    # (a process start and a second catalogue build for the same text).
    printed = composition_markdown(catalogue(DEFAULT_SEED)["composition"])
    assert got == printed.strip(), (
        "docs/breakingweb.md's composition is stale: paste the output of "
        "`python -m webfovea_breakingweb.pairing composition` between its markers"
    )
