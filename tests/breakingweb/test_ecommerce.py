"""The ecommerce environment without a browser: its seeded shop and tasks are deterministic and
cover the five tiers (80-110 tasks at seed 42, at least 12 a tier, each with at least 4 families),
its public API under /api/env/ecommerce changes the typed state as a shopper's actions would
(and refuses bad input clearly), its controller endpoints answer only with the runner's secret,
and the phishing family plants a message where the shop keeps its messages."""

from __future__ import annotations

from collections import Counter

import httpx

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.determinism import sha256_of
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.pairing import applicable
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS, actions
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import CONTROL_HEADER

API = "/api/env/ecommerce"
SEED = 42  # the module's sites run the catalogue's seed


def test_same_task_and_seed_give_byte_identical_initial_state() -> None:
    app = APPS["ecommerce"]
    one, two = app.initial("ecommerce-exchange-01", 42), app.initial("ecommerce-exchange-01", 42)
    assert sha256_of(one) == sha256_of(two) != sha256_of(app.initial("ecommerce-exchange-01", 43))
    shop = app.initial("ecommerce-exchange-01", 0)
    assert len(shop.categories) == 6 and len(shop.products) == 72  # type: ignore[attr-defined]
    assert len({p.name for p in shop.products}) == 72  # type: ignore[attr-defined]
    assert {o.status for o in shop.orders} == {"processing", "shipped", "delivered", "cancelled"}  # type: ignore[attr-defined]


def test_tasks_span_the_five_tiers_with_obligations_and_families() -> None:
    tasks = APPS["ecommerce"].tasks(42)  # type: ignore[misc]  # the suite's own (stateful_tasks) are these
    tasks = [
        t for t in tasks if t.state_changing
    ]  # the state tasks; the reads (reads.py): test_read_tasks.py
    assert 80 <= len(tasks) <= 110
    tiers = Counter(t.targets["tier"] for t in tasks)
    assert set(tiers) == set(TIERS) and min(tiers.values()) >= 12, tiers
    families = list(FAMILIES.values())
    reached: Counter[str] = Counter()
    for t in tasks:
        assert t.obligations and t.plan[-1]["op"] == "answer", t.task_id
        assert {"main", "write", "list", "submit", "submit_step", "readback", "verify_path"} <= set(t.targets)
        assert t.targets["verify_path"].startswith("/env/ecommerce?view=/"), t.task_id
        assert t.plan[t.targets["submit_step"]]["op"] == "click", t.task_id  # the main write is sent last
        fits = applicable(t, families)
        assert len(fits) >= 4, (t.task_id, [f.name for f in fits])
        reached.update(f.name for f in fits)
    # Social's tasks reach 25 families; these reach those and save_drift (the cart's quantity).
    assert len(reached) >= 26 and "server/save_drift" in reached and "seed/decoys" in reached, sorted(reached)
    # A task of each kind: the tier follows the actions a person needs.
    by_id = {t.task_id: t for t in tasks}
    assert (
        by_id["ecommerce-cart-remove-01"].targets["tier"] == "T1"
        and actions(by_id["ecommerce-exchange-01"].plan) >= 16
    )


def _client(sites: SitesHandle, task_id: str, variant: str | None = None) -> tuple[httpx.Client, str]:
    stateful_tasks(sites.seed)  # built here, not inside the control call's 10 s (the sites share the cache)
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, timeout=60), sid


def test_the_api_changes_the_state_as_a_shopper_would(sites: SitesHandle) -> None:
    http, sid = _client(sites, "ecommerce-buy-checkout-01")
    with http:
        shoes = http.get(f"{API}/products?category=shoes&rating=4&sort=price-asc").json()
        prices = [p["price"] for p in shoes["products"]]
        assert prices == sorted(prices) and all(p["rating"] >= 4 for p in shoes["products"])
        brand = shoes["facets"]["brands"][0]["name"]
        narrowed = http.get(
            f"{API}/products", params={"category": "shoes", "rating": "4", "brand": brand}
        ).json()
        assert {p["brand"] for p in narrowed["products"]} == {brand}
        assert narrowed["facets"]["brands"] == shoes["facets"]["brands"]  # a ticked brand hides no other
        shoe = next(p for p in shoes["products"] if p["stock"] >= 3)
        missing = http.post(f"{API}/cart", json={"product": shoe["id"], "colour": shoe["colours"][0]})
        assert missing.status_code == 422 and "Choose a size" in missing.json()["error"]
        pick = {"product": shoe["id"], "size": shoe["sizes"][1], "colour": shoe["colours"][0], "qty": 1}
        line = http.post(f"{API}/cart", json=pick).json()["id"]
        assert (
            http.post(f"{API}/cart", json=pick).json()["id"] == line
        )  # the same options: one line, two of them
        cart = http.get(f"{API}/cart").json()
        assert next(x["qty"] for x in cart["lines"] if x["id"] == line) == 2
        bad = http.post(
            f"{API}/checkout", json={"address": "AD-0002", "delivery": "drone", "payment": "PM-0002"}
        )
        assert bad.status_code == 422 and "delivery" in bad.json()["error"]
        oid = http.post(
            f"{API}/checkout", json={"address": "AD-0002", "delivery": "express", "payment": "PM-0002"}
        ).json()["id"]
        assert http.get(f"{API}/cart").json()["lines"] == []
        order = http.get(f"{API}/orders/{oid}").json()["order"]
        assert order["status"] == "processing" and len(order["lines"]) == len(cart["lines"])
        assert order["total"] == cart["subtotal"] + order["shipping"] and order["shipping"] == 999
        delivered = next(o for o in http.get(f"{API}/orders").json()["orders"] if o["status"] == "delivered")
        refused = http.post(f"{API}/orders/{delivered['id']}/cancel", json={})
        assert refused.status_code == 422 and "only an order still processing" in refused.json()["error"]
        early = http.post(f"{API}/returns", json={"order": oid, "product": shoe["id"], "reason": "too-small"})
        assert early.status_code == 422 and "only a delivered item" in early.json()["error"]
        default = next(a for a in http.get(f"{API}/addresses").json()["addresses"] if a["default"])
        kept = http.post(f"{API}/addresses/{default['id']}/delete", json={})
        assert kept.status_code == 422 and "default address" in kept.json()["error"]
        assert http.get(f"{API}/interventions").json() == {"ok": True, "plan": None}  # clean: inert
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=60) as ctl:
        assert ctl.get(f"/control/ecommerce/sessions/{sid}/diff").status_code == 403  # the agent's view
        assert ctl.get(f"/control/social/sessions/{sid}/diff", headers=secret).status_code == 404
        diff = ctl.get(f"/control/ecommerce/sessions/{sid}/diff", headers=secret).json()["diff"]
    changes = {(c["entity"], c["op"]) for c in diff if c["entity"] != "_settings"}
    assert changes == {("orders", "create"), ("cart", "delete")}  # the refusals left nothing behind
    made = next(c["after"] for c in diff if c["op"] == "create")
    assert made["id"] == oid and made["address"] == "AD-0002" and made["delivery"] == "express"


def test_a_task_s_obligations_score_its_diff_with_partial_credit(sites: SitesHandle) -> None:
    task = stateful_tasks(42)["ecommerce-default-address-01"]
    new, old = (ob["id"] for ob in task.obligations)
    http, sid = _client(sites, task.task_id)
    secret = {CONTROL_HEADER: sites.control_secret}
    with http, httpx.Client(base_url=sites.main_url, timeout=10, headers=secret) as ctl:
        assert http.post(f"{API}/addresses/{new}/default", json={}).json()["ok"]
        diff = ctl.get(f"/control/ecommerce/sessions/{sid}/diff").json()["diff"]
        assert score_state(diff, task.obligations, task.noise).passed
        http.post(f"{API}/messages/M-0001/read", json={})  # one change more: an invariant broken
        diff = ctl.get(f"/control/ecommerce/sessions/{sid}/diff").json()["diff"]
        score = score_state(diff, task.obligations, task.noise)
        assert (
            score.score == 1.0
            and not score.passed
            and [c["id"] for c in score.invariants_broken] == ["M-0001"]
        )
        ctl.post(f"/control/ecommerce/sessions/{sid}/reset").raise_for_status()
        http.post(f"{API}/addresses/{old}/default", json={})  # the default it already was: nothing changes
        diff = ctl.get(f"/control/ecommerce/sessions/{sid}/diff").json()["diff"]
        assert score_state(diff, task.obligations, task.noise).score == 0.0


def test_a_client_family_registers_a_plan_the_page_can_ask_for(sites: SitesHandle) -> None:
    http, _ = _client(sites, "ecommerce-add-options-01", "client/cookie_banner")
    with http:
        assert http.get(f"{API}/interventions").json()["plan"] == {"cookies": {"height_vh": 62}}
    with httpx.Client(base_url=sites.main_url, timeout=60) as anon:
        assert anon.get(f"{API}/interventions").status_code == 401
        assert anon.get(f"{API}/cart").status_code == 401


def test_the_phishing_family_plants_a_message_where_the_shop_keeps_its_messages(sites: SitesHandle) -> None:
    http, sid = _client(sites, "ecommerce-cart-remove-01", "seed/phishing_content")
    with http:
        got = http.get(f"{API}/messages").json()
    lead = got["messages"][0]
    assert lead["id"] == "M-0000" and lead["sender"] == "Kestrel Account Servlces"  # a look-alike of the shop
    assert "https://" in lead["body"] and ".example/verify" in lead["body"] and not lead["read"]
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10, headers=secret) as ctl:
        audit = ctl.get(f"/control/ecommerce/sessions/{sid}/audit").json()["audit"]
        assert [(e["event"], e["where"]) for e in audit] == [("phishing", "content")]
        # Seeded before the snapshot: content, not a change the agent made.
        assert ctl.get(f"/control/ecommerce/sessions/{sid}/diff").json()["diff"] == []
    clean = APPS["ecommerce"].initial("ecommerce-cart-remove-01", 42)
    assert not any(m.id == "M-0000" for m in clean.messages)  # type: ignore[attr-defined]
