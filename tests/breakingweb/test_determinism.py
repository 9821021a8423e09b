"""Determinism of the stateful apps and interventions: no unseeded randomness, ids or clocks in
their code; the same task, seed and variant give the same initial state, diff and audit log,
also in a process with another PYTHONHASHSEED (a third of the pairs there, in reverse order;
`benchmarks/breakingweb_determinism.py` compares every pair in two fresh processes)."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from datetime import date, datetime
from pathlib import Path

import httpx

from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import start_sites

PKG = Path(__file__).resolve().parents[2] / "packages" / "webfovea-breakingweb" / "webfovea_breakingweb"
CODE = [
    PKG / "__init__.py",
    *sorted((PKG / "apps").rglob("*.py")),
    *sorted((PKG / "engine").rglob("*.py")),
    *sorted((PKG / "interventions").rglob("*.py")),
    PKG / "tasks.py",
    PKG / "site.py",
    PKG / "suite.py",
]
JS = [
    *sorted((PKG / "engine").rglob("*.js")),
    *sorted((PKG / "apps").rglob("*.js")),
    *sorted((PKG / "interventions").rglob("*.js")),
]
# Module-level functions of `random` draw from the process's unseeded generator.
RANDOM_FUNCS = {
    "random",
    "randint",
    "choice",
    "choices",
    "shuffle",
    "sample",
    "uniform",
    "randrange",
    "gauss",
    "getrandbits",
    "seed",
}
FORBIDDEN_ATTRS = {
    ("uuid", "uuid4"),
    ("uuid", "uuid1"),
    ("time", "time"),
    ("time", "time_ns"),
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("date", "today"),
    ("os", "urandom"),
    ("secrets", "token_hex"),
    ("secrets", "token_urlsafe"),
}


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                pair = (f.value.id, f.attr)
                if pair in FORBIDDEN_ATTRS or (f.value.id == "random" and f.attr in RANDOM_FUNCS):
                    out.append(f"{path.name}:{node.lineno} {f.value.id}.{f.attr}()")
                if pair == ("random", "Random") and not node.args:
                    out.append(f"{path.name}:{node.lineno} random.Random() without a seed")
            if isinstance(f, ast.Name) and f.id in {"uuid4", "hash"}:
                out.append(f"{path.name}:{node.lineno} {f.id}()")
        if isinstance(node, ast.ImportFrom) and node.module in {"random", "uuid"}:
            names = {a.name for a in node.names}
            if names & (RANDOM_FUNCS | {"uuid4", "uuid1"}):
                out.append(f"{path.name}:{node.lineno} from {node.module} import {sorted(names)}")
    return out


def test_no_unseeded_randomness_ids_or_clocks_in_python() -> None:
    assert len(CODE) > 20
    problems = [v for p in CODE for v in _violations(p)]
    assert problems == []


def test_the_ast_check_catches_what_it_forbids(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import random, uuid, time\nfrom datetime import datetime\nrandom.choice([1])\n"
        "uuid.uuid4()\ntime.time()\ndatetime.now()\nrandom.Random()\nhash('x')\n"
    )
    assert len(_violations(bad)) == 6


def test_no_math_random_or_date_now_in_page_scripts() -> None:
    assert JS
    for path in JS:
        text = path.read_text(encoding="utf-8")
        assert not re.search(
            r"Math\.random|Date\.now|new Date\(|performance\.now|crypto\.getRandomValues", text
        ), path


def _session_hashes(main_url: str, secret: str, cookies_for: list[tuple[str, str | None]]) -> dict[str, list]:
    """For each (task, variant): the initial hash, then after one fixed write the diff and audit hashes."""
    from webfovea_proving_ground.sessions import ControlClient

    out: dict[str, list] = {}
    # One client for every write: a new httpx client per request builds a TLS context each time.
    with ControlClient(main_url, secret) as control, httpx.Client(trust_env=False) as http:
        for tid, variant in cookies_for:
            s = control.create(tid, 0, variant)
            app = stateful_tasks(0)[tid.split("--")[0]].app
            body = {
                "dataset": "cpi-m",
                "delivery": "2025-02-03",
                "format": "CSV",
                "rows": 5,
                "notes": "n",
                "tour": "city",
                "date": "2025-02-03",
                "quantity": 2,
                "contact": "A",
            }
            if app != "cases":
                http.cookies.set("wf_session", s["session_id"])
                http.post(f"{main_url}/api/{app}/records", json=body)
            d, a = control.diff(s["session_id"]), control.audit(s["session_id"])
            out[f"{tid}|{variant}"] = [s["initial_sha256"], d["diff_sha256"], a["audit_sha256"]]
    return out


def _pairs() -> list[tuple[str, str | None]]:
    from webfovea_breakingweb.apps import APPS

    # Every template's generator once (ids end in the instance number), and every seed/server
    # family once on each app it takes: ~100 sessions, not the ~400 tasks times the families.
    pairs: list[tuple[str, str | None]] = []
    templates: set[str] = set()
    family_apps: set[tuple[str, str]] = set()
    for st in stateful_tasks(0).values():
        template = st.task_id.rsplit("-", 1)[0]
        if template in templates:
            continue
        templates.add(template)
        pairs.append((st.task_id, None))
        for f in FAMILIES.values():
            if f.layer not in ("seed", "server") or (st.app, f.name) in family_apps:
                continue
            if f.refusal(st, APPS[st.app]) is None:
                family_apps.add((st.app, f.name))
                pairs.append((st.task_id, f.name))
    pairs.append(("req-create-01", "network/fabricated_success"))
    return pairs


SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from webfovea_proving_ground.serve import start_sites
from tests.breakingweb.test_determinism import _pairs, _session_hashes
with start_sites() as h:
    print(json.dumps(_session_hashes(h.main_url, h.control_secret, _pairs()[::-{every}])))
"""
EVERY = 3  # the other process hashes every third pair, in reverse order (the sessions' order differs)


def test_same_task_seed_variant_same_hashes_across_processes() -> None:
    root = str(Path(__file__).resolve().parents[2])
    # Another process with another string-hash seed than this one (random, unless the environment
    # fixes it): a sample there, every pair here, side by side. Every pair in two fresh processes
    # was twice the CPU for the same kind of check (docs/results/suite.md).
    hashseed = "977" if os.environ.get("PYTHONHASHSEED") != "977" else "1"
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT.format(root=root, every=EVERY)],
        env={**os.environ, "PYTHONHASHSEED": hashseed},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
    )
    pairs = _pairs()
    with start_sites() as h:
        hashes = _session_hashes(h.main_url, h.control_secret, pairs)
    out, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err[-2000:]
    there = json.loads(out.strip().splitlines()[-1])
    sample = pairs[::-EVERY]
    assert len(hashes) == len(pairs) and len(there) == len(sample) > 50
    assert there == {k: hashes[k] for k in there}
    # Seed/server interventions change the initial state; network ones do not (only the run).
    assert hashes["req-lookup-01|seed/planted_answer"][0] != hashes["req-lookup-01|None"][0]
    assert hashes["req-create-01|network/fabricated_success"][0] == hashes["req-create-01|None"][0]
    # The forged write left the state untouched: the diff is empty, the audit holds the firing.
    assert hashes["req-create-01|network/fabricated_success"][1] != hashes["req-create-01|None"][1]


def _initial(task_id: str, variant: str | None):  # noqa: ANN202 - an app's state
    from webfovea_breakingweb.site import build_session
    from webfovea_proving_ground.sessions import Session

    s = Session("s", task_id, 0, variant)
    build_session(s, 0)
    return s.state


def test_clean_and_variant_initial_states_differ_exactly_by_the_declared_mutation() -> None:
    from webfovea_breakingweb.engine.determinism import sha256_of
    from webfovea_breakingweb.engine.diff import canonical_diff

    clean = _initial("req-lookup-01", None)
    planted = canonical_diff(clean, _initial("req-lookup-01", "seed/planted_answer"))
    assert [(c["entity"], c["op"]) for c in planted] == [("key_figures", "create")]
    decoys = canonical_diff(clean, _initial("req-lookup-01", "seed/decoys"))
    assert [(c["entity"], c["op"], c["id"]) for c in decoys] == [
        ("catalogue", "create", "S02D1"),
        ("catalogue", "create", "S02D2"),
    ]
    split = canonical_diff(_initial("req-unit-01", None), _initial("req-unit-01", "seed/split_information"))
    assert [(c["field"], c["after"]) for c in split] == [("unit_display", "code")]
    clean_latest = _initial("req-latest-01", None)
    scrambled = _initial("req-latest-01", "server/scrambled_timestamps")
    # Same records in another order, some dates in another notation of the same day.
    assert sorted(r["id"] for r in scrambled.catalogue) == sorted(r["id"] for r in clean_latest.catalogue)
    changed = canonical_diff(clean_latest, scrambled)
    assert changed and {c["field"] for c in changed} == {"released"}
    assert all(_day(c["before"]) == _day(c["after"]) != c["after"] for c in changed)
    assert [r["id"] for r in scrambled.catalogue] != [r["id"] for r in clean_latest.catalogue]
    # Network, client and save-drift families change nothing at creation.
    for fam in ("network/transient_5xx", "client/swallowed_click", "server/save_drift"):
        assert sha256_of(_initial("req-create-01", fam)) == sha256_of(_initial("req-create-01", None))


def _day(text: str) -> date:
    """A date in any notation server/scrambled_timestamps writes."""
    for notation in ("%Y-%m-%d", "%d %b %Y", "%b %d, %Y"):
        try:
            return datetime.strptime(text, notation).date()
        except ValueError:
            pass
    raise ValueError(f"not a date: {text!r}")
