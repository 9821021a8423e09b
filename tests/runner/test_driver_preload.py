"""The runner's Playwright driver loads Playwright's JavaScript at one byte a character
(runner/driver_preload.js): the same values, the escapes visible only in a function's text."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from playwright._impl._driver import compute_driver_executable

from webfovea.runner.memory import DRIVER_PRELOAD

NODE, CLI = (Path(p) for p in compute_driver_executable())
BUNDLES = sorted((CLI.parent / "lib").glob("*Bundle.js"))

# Characters above U+00FF everywhere the parser reads them, and one astral character.
_MODULE = r"""
// a comment with an arrow → and box drawing ─────
const Δx = 3;
const label = 'Total — 1,234 → done';
const tpl = `${Δx} × ${label}`;
const re = /[─-╿]+/;
const reU = /😀|→/u;
function said() { return 'now → later'; }
module.exports = {
  Δx, label, tpl,
  re: re.test('a ─── b'), reU: reU.test('x 😀'), astral: '😀'.length,
  said: said(), text: said.toString(),
  evaluated: eval('(' + said.toString() + ')')(),
};
"""
_ESCAPED = "const odd = '\\─';\nmodule.exports = { odd, text: (() => 'é ─').toString() };\n"


def _load(tmp_path: Path, source: str, preload: bool) -> dict:
    mod = tmp_path / "mod.js"
    mod.write_text(source + "//" + "x" * 70_000 + "\n", encoding="utf-8")  # over the preload's minimum
    env = {**os.environ, "NODE_OPTIONS": f"--expose-gc --require {DRIVER_PRELOAD}" if preload else ""}
    out = subprocess.run(
        [str(NODE), "-e", f"console.log(JSON.stringify(require({json.dumps(str(mod))})))"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(out.stdout)


def test_a_module_means_the_same_at_one_byte_a_character(tmp_path):
    plain, narrowed = _load(tmp_path, _MODULE, False), _load(tmp_path, _MODULE, True)
    assert narrowed.pop("text") == "function said() { return 'now \\u2192 later'; }"  # rewritten
    assert plain.pop("text") == "function said() { return 'now → later'; }"
    assert narrowed == plain and plain["re"] and plain["reU"] and plain["tpl"] == "3 × Total — 1,234 → done"


def test_a_character_after_a_backslash_leaves_the_module_as_it_is(tmp_path):
    plain, narrowed = _load(tmp_path, _ESCAPED, False), _load(tmp_path, _ESCAPED, True)
    assert narrowed == plain and narrowed["text"] == "() => 'é ─'"


@pytest.mark.skipif(not BUNDLES, reason="this Playwright has no bundles")
def test_playwrights_own_bundles_are_narrowed(tmp_path):
    """The saving is real only if today's Playwright bundles can all be rewritten."""
    script = (
        f"const {{ narrow }} = require({json.dumps(str(DRIVER_PRELOAD))});"
        "const fs = require('fs');"
        f"for (const f of {json.dumps([str(b) for b in BUNDLES])}) {{"
        "  const s = fs.readFileSync(f, 'utf8'); const n = narrow(s);"
        "  console.log(JSON.stringify([f, /[^\\u0000-\\u00ff]/.test(s), n !== null]));"
        "}"
    )
    out = subprocess.run([str(NODE), "-e", script], capture_output=True, text=True, timeout=60, check=True)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows and all(narrowed for _, wide, narrowed in rows if wide), rows
