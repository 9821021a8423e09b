"""The one Registry type: names, origins, lazy plug-ins, conflicts, built-ins that stay."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from webfovea.plugins import BUILTIN, Origin, PluginConflict, Registry, UnknownName


@dataclass(frozen=True)
class Thing:
    name: str


def _registry(**kw: object) -> Registry[Thing]:
    return Registry("thing", "webfovea.tests.things", Thing, **kw)  # type: ignore[arg-type]


def test_register_get_require_and_mapping() -> None:
    r = _registry()
    a = r.register(Thing("a"), origin=Origin(BUILTIN))
    b = r.register(Thing("b"))
    assert r.get("a") is a and r["b"] is b and "a" in r and list(r) == ["a", "b"] and len(r) == 2
    assert r.get("zzz") is None and r.get("zzz", a) is a
    with pytest.raises(UnknownName, match="unknown thing 'zzz'; choose one of: a, b"):
        r.require("zzz")
    with pytest.raises(TypeError, match="must be a Thing"):
        r.register("a")  # type: ignore[arg-type]


def test_a_second_item_under_a_name_is_refused_and_built_ins_stay() -> None:
    r = _registry()
    builtin = r.register(Thing("a"), origin=Origin(BUILTIN))
    r.register(builtin)  # the same item again: nothing changes
    with pytest.raises(PluginConflict, match=r"thing 'a' is already registered \(from webfovea\)"):
        r.register(Thing("a"))
    r.unregister("a")
    assert r["a"] is builtin  # built-ins stay
    mine = r.register(Thing("m"))
    r.unregister(Thing("m"))  # another item of that name: not the one registered, nothing removed
    assert r["m"] is mine
    r.unregister(mine)
    assert "m" not in r


def test_check_refuses_before_anything_changes_and_listeners_follow() -> None:
    seen: list[list[str]] = []

    def no_x(items: dict[str, Thing]) -> None:
        if "x" in items:
            raise ValueError("no x here")

    r = _registry(check=no_x)
    r.subscribe(lambda: seen.append(list(r.loaded())))
    r.register(Thing("a"))
    with pytest.raises(ValueError, match="no x here"):
        r.register(Thing("x"))
    assert list(r.loaded()) == ["a"] and seen == [["a"]]


def test_case_folded_names() -> None:
    r = _registry(fold_case=True)
    t = r.register(Thing("Oracle"))
    assert r.get("ORACLE") is t and r.names() == ("oracle",)
