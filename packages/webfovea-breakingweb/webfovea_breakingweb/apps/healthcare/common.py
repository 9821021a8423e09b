"""What the healthcare site's task templates share: how the page writes a time and an amount
(the instructions quote them the same way), finding instances in the seeded portal, and building
a `StatefulTask` with its five-scale tier and the targets the families aim at."""

from __future__ import annotations

from datetime import date
from typing import Any

from webfovea_breakingweb.apps.healthcare.state import HealthState, Statement
from webfovea_breakingweb.engine import task_kit as kit
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.task_kit import create, update  # noqa: F401 - the templates import them from here
from webfovea_proving_ground.plan import Step

API = "/api/env/healthcare"
PAGE = "/env/healthcare"
SIGN_IN = " If asked to sign in, the user name is analyst and the password portal-2025."
BRAND = "Meadowcare MyHealth"
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


KIT = kit.TaskKit("healthcare", PAGE, SIGN_IN)
write_targets = KIT.write_targets


def when(iso: str) -> str:
    """'2025-01-07T13:30:00Z' -> 'Tue, Jan 7, 2025 at 1:30 PM' (react/envs/healthcare/format.js
    writes the same; no time zone: the sites' clock is UTC)."""
    y, m, d = int(iso[0:4]), int(iso[5:7]), int(iso[8:10])
    hh, mm = int(iso[11:13]), int(iso[14:16])
    day = DAYS[date(y, m, d).weekday()]
    clock = f"{(hh % 12) or 12}:{mm:02d} {'AM' if hh < 12 else 'PM'}"
    return f"{day}, {MONTHS[m - 1]} {d}, {y} at {clock}"


def day(iso: str) -> str:
    """'2024-12-03' -> 'Dec 3, 2024'."""
    return f"{MONTHS[int(iso[5:7]) - 1]} {int(iso[8:10])}, {iso[0:4]}"


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def provider(state: HealthState, pid: str) -> Any:
    return next(p for p in state.providers if p.id == pid)


def upcoming(state: HealthState) -> list[Any]:
    return [a for a in state.appointments if a.status == "scheduled"]


def due(state: HealthState) -> list[Statement]:
    return [s for s in state.statements if s.status == "due"]


def free_slots(state: HealthState, pid: str) -> list[Any]:
    held = {a.slot for a in upcoming(state)}
    return [s for s in state.slots if s.provider == pid and s.id not in held]


def make(
    template: str, n: int, instruction: str, plan: list[Step], obligations: list[dict[str, Any]],
    targets: dict[str, Any],
) -> StatefulTask:  # fmt: skip
    """One instance `n` of `template` (id `healthcare-<template>-NN`): a state task ending in "done"."""
    return kit.state_task(
        "healthcare", template, n, f"On {BRAND}, {instruction}{SIGN_IN}", plan, obligations, targets
    )
