"""The five design rules of seed 003 (§2.2), tested over every registered family alike, on every
registered environment it applies to (the families and apps registries are iterated, so an
environment that lands is covered without a change here):

- deterministic: the same task, seed and variant give a byte-identical initial state, client
  plan and audit log (the creation-time firings; a fixed request sequence replayed over HTTP
  for the network layer) — every family on every official environment it applies to;
- detectable through the DOM, an HTTP status or a read-back (`Family.detect`): the page
  reported drawing a client change, the request log holds the declared status, or the family
  needs the task's read-back (what its recovery and the verify gate re-read);
- recoverable in a bounded number of extra actions: the oracle following the family's
  recovery plan reaches the right backend state (or answer);
- primitive-pure: one primary primitive of the seven, and in the official pairing never one the
  base task already exercises (purity.py) — on every official environment;
- realistic: a real-world counterpart named in its docstring and its record; a family this
  project added says so.

The browser tests take, per family, the cheapest applicable task (fewest plan steps) of one
environment: an official one when the family applies to one, rotating over them family by
family so each official environment is exercised; `benchmarks/breakingweb_recovery.py
--matrix` runs every family on every environment it applies to."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import httpx
import pytest

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.eval.scoring import score_answer
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.determinism import canonical
from webfovea_breakingweb.environments import OFFICIAL_ENVIRONMENTS
from webfovea_breakingweb.interventions import FAMILIES, LAYERS, PRIMITIVES, Family
from webfovea_breakingweb.interventions.base import DETECTS
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.pairing import official
from webfovea_breakingweb.purity import base_primitives, pure
from webfovea_breakingweb.suite import breakingweb_task
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

NAMES = sorted(FAMILIES)


def apps_of(fam: Family, seed: int = 0) -> list[str]:
    """The registered apps with a task the family applies to."""
    return sorted({t.app for t in stateful_tasks(seed).values() if fam.refusal(t, APPS[t.app]) is None})


def cheapest_task(fam: Family, seed: int = 0, app: str | None = None) -> str:
    """The applicable task with the fewest plan steps (ties: by id), on `app` when given, else on
    the official environment this family's turn falls on (any app when it fits none)."""
    if app is None:
        official = [a for a in apps_of(fam, seed) if a in OFFICIAL_ENVIRONMENTS]
        app = official[NAMES.index(fam.name) % len(official)] if official and fam.name in NAMES else None
    fits = [
        t
        for t in stateful_tasks(seed).values()
        if (app is None or t.app == app) and fam.refusal(t, APPS[t.app]) is None
    ]
    assert fits, f"{fam.name} applies to no task" + (f" of {app}" if app else "")
    return min(fits, key=lambda t: (len(t.plan), t.task_id)).task_id


def _environments(fam: Family) -> list[str]:
    """The official environments the family applies to; a family that fits none (the first
    apps' families: planted answer, save drift…) is checked on the first app it fits."""
    fits = apps_of(fam)
    return [a for a in fits if a in OFFICIAL_ENVIRONMENTS] or fits[:1]


# Every family on every official environment it applies to (collected from the registries).
FAMILY_APPS = [(name, app) for name in NAMES for app in _environments(FAMILIES[name])]


def test_at_least_29_families_on_the_four_layers() -> None:
    assert len(FAMILIES) >= 29
    assert {f.layer for f in FAMILIES.values()} == set(LAYERS)
    # The official ones (the 27 the paper's text names) cover the four layers on their own.
    assert {f.layer for f in FAMILIES.values() if f.official} == set(LAYERS)


@pytest.mark.parametrize("name", NAMES)
def test_one_primitive_a_counterpart_and_a_module_named_after_it(name: str) -> None:
    fam = FAMILIES[name]
    layer, short = name.split("/")
    assert fam.layer == layer and fam.primitive in PRIMITIVES
    module = importlib.import_module(f"webfovea_breakingweb.interventions.{layer}.{short}")
    assert module.FAMILY is fam
    assert Path(module.__file__ or "").name == f"{short}.py"
    doc = " ".join((module.__doc__ or "").split())
    assert "Real-world counterpart:" in doc and fam.counterpart, name
    assert fam.summary and fam.cue and fam.recovery
    assert fam.detect in DETECTS and (fam.status is not None) == (fam.detect == "status")
    assert ("Added by this project" in doc) == fam.own, name
    cheapest_task(fam)  # applies somewhere


def _build(task_id: str, seed: int, variant: str | None) -> tuple[str, str, str]:
    from webfovea_breakingweb.site import build_session
    from webfovea_proving_ground.sessions import Session

    s = Session("s", task_id, seed, variant)
    build_session(s, seed)
    iv = s.extra.get("iv") or {}
    return canonical(s.state), canonical(list(s.audit)), canonical({"client": iv.get("client")})


@pytest.mark.parametrize(("name", "app"), FAMILY_APPS, ids=[f"{n}@{a}" for n, a in FAMILY_APPS])
def test_same_seed_same_initial_state_client_plan_and_audit(name: str, app: str) -> None:
    tid = cheapest_task(FAMILIES[name], app=app)
    first, again = _build(tid, 0, name), _build(tid, 0, name)
    assert first == again
    if FAMILIES[name].at_create is not None and FAMILIES[name].layer == "seed":
        assert first[0] != _build(tid, 0, None)[0]  # seed content really changes the state


@pytest.mark.parametrize("env", OFFICIAL_ENVIRONMENTS)
def test_official_pairs_are_primitive_pure_on_every_official_environment(env: str) -> None:
    if env not in APPS:
        pytest.skip(f"the {env} environment is not registered yet")
    tasks = stateful_tasks(42)
    pairs = {tid: fam for tid, fam in official(42).items() if tasks[tid].app == env}
    assert pairs, f"no official pair on {env}"
    for tid, fam in pairs.items():
        assert fam.official and fam.primitive in PRIMITIVES
        assert fam.refusal(tasks[tid], APPS[env]) is None
        assert fam.primitive not in base_primitives(tasks[tid]), (tid, fam.name, base_primitives(tasks[tid]))
    # Purity is checked, not vacuous: some family that applies to these tasks was refused for it.
    refused = [
        (tid, f.name)
        for tid in pairs
        for f in FAMILIES.values()
        if f.official and f.refusal(tasks[tid], APPS[env]) is None and not pure(f, tasks[tid])
    ]
    assert refused or all(not base_primitives(tasks[t]) for t in pairs)


def _replay(main_url: str, secret: str, name: str) -> tuple[str, str]:
    """One fixed request sequence (read the list, write, read the list, write) under the
    family: its diff and audit hashes."""
    from webfovea_proving_ground.sessions import ControlClient

    tid = cheapest_task(FAMILIES[name])
    task = stateful_tasks(0)[tid]
    with ControlClient(main_url, secret) as control:
        sid = control.create(tid, 0, name)["session_id"]
        calls = [task.targets.get("list"), task.targets.get("write") or task.targets.get("main")] * 2
        for route in calls:
            if route:
                method, path = route[0], route[1].replace(".+", "Prices")
                httpx.request(
                    method, main_url + path, json={}, cookies={"wf_session": sid}, trust_env=False, timeout=30
                )
        d, a = control.diff(sid), control.audit(sid)
    return d["diff_sha256"], a["audit_sha256"]


# Network families that delay by seconds are replayed by the browser tests instead.
SLOW = {"network/tail_latency", "network/progressive_delay", "network/rate_limit_429"}


def test_network_firings_are_the_same_for_the_same_requests(sites: SitesHandle) -> None:
    names = [n for n in NAMES if FAMILIES[n].network is not None and n not in SLOW]
    first = {n: _replay(sites.main_url, sites.control_secret, n) for n in names}
    assert first == {n: _replay(sites.main_url, sites.control_secret, n) for n in names}


def _score(sites: SitesHandle, task, result) -> bool:  # noqa: ANN001 - a Task and its result
    extra = task.model_extra or {}
    with sites.control() as control:
        diff = control.diff(result.session_id)["diff"]
        requests = control.requests(result.session_id)
    state = score_state(diff, extra["obligations"], extra["noise"], requests)
    if not task.state_changing:
        return state.passed and score_answer(result.answer, task.answer).passed
    return state.passed


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize("name", NAMES)
async def test_detectable_and_recoverable(
    name: str, sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    fam = FAMILIES[name]
    base = cheapest_task(fam)
    # The one variant, as the suite builds it (not the whole suite for one task: 0.25 CPU-s a family).
    task = breakingweb_task(sites, sites.seed, base, name)
    assert task.task_id == f"{base}--{fam.short}"
    extra = task.model_extra or {}
    careful = task.model_copy(update={"plan": extra["recovery_plan"]})
    result = await run_task(
        careful, tmp_path / "careful", model="oracle", config=HarnessConfig(max_steps=30), session=session
    )
    assert result.session_id
    with sites.control() as control:
        audit = control.audit(result.session_id)["audit"]
        statuses = [e["status"] for e in control.requests(result.session_id)]
    assert audit, "the intervention never fired"
    assert _score(sites, careful, result), (result.status, result.answer)
    clean_actions = len([s for s in extra["plan"] if s["op"] != "answer"])
    waits = 12 if fam.primitive == "patience" else 0  # waiting is the recovery there
    # Scrolls are not actions of a plan (a page longer than the viewport needs them clean too):
    # the bound counts the others (a sign-in form at the top of a long feed is 3 scrolls away).
    lines = (tmp_path / "careful" / "trajectory.jsonl").read_text(encoding="utf-8").splitlines()
    moves = [
        a for a in ((json.loads(line).get("action") or {}).get("name") for line in lines) if a != "scroll"
    ]
    assert len(moves) <= clean_actions + 1 + 8 + waits, (result.steps, moves)
    if fam.detect == "status":
        assert fam.status in statuses
    elif fam.detect == "readback":  # only a re-read shows it: the recovery ends on the task's readback
        assert "readback" in fam.needs or fam.retrieval_only
    elif fam.layer == "client":  # the page drew it and said so
        assert any(e.get("layer") == "client" for e in audit), audit
