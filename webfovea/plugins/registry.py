"""One registry type for everything a plug-in can add: actions, observation modes, suites, sites,
judge methods, model kinds, environments, plan ops, intervention families.

Each registry has a name (`kind`, for messages) and an entry-point group. Built-ins call
`register` like anyone else (pytest registers its `default_plugins` through the same door as
outside plug-ins); installed distributions declare items in the registry's group, named after
the item, and are loaded the first time that name is asked for (`get`) or when the whole list
is (`names`, `items`) — so a spawned worker that only asks for `oracle` imports nothing else.

An entry point names the item itself, a function without arguments that returns it, or (for
registries whose `expand` says how) a module holding several. A plug-in that fails to load —
an import error, a wrong type, a name another distribution already holds — is reported once
(logged, and listed by `webfovea plugins`) naming the plug-in and its distribution; every other
item keeps working.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar, cast

__all__ = [
    "BUILTIN",
    "Origin",
    "PluginConflict",
    "PluginProblem",
    "Registry",
    "UnknownName",
    "all_registries",
]

T = TypeVar("T")
log = logging.getLogger("webfovea.plugins")

BUILTIN = "webfovea"  # the distribution built-ins come from


@dataclass(frozen=True)
class Origin:
    """Where an item came from: its distribution and, for a plug-in, its entry point."""

    distribution: str
    entry_point: str | None = None  # "name = module:attr"

    def __str__(self) -> str:
        return self.distribution + (f" ({self.entry_point})" if self.entry_point else "")


CODE = Origin("code in this process")


@dataclass(frozen=True)
class PluginProblem:
    """A plug-in that did not load, and why (one line)."""

    registry: str
    name: str
    origin: Origin
    reason: str

    def __str__(self) -> str:
        return f"{self.registry} plug-in {self.name!r} from {self.origin} not loaded: {self.reason}"


class PluginConflict(ValueError):
    """Two items claim one name."""


class UnknownName(ValueError):
    """A name no registered item has; the message lists the valid ones."""


# Weak: a registry made for a moment (a test's) is not listed once it is gone.
_REGISTRIES: list[weakref.ref[Registry[Any]]] = []


def all_registries() -> tuple[Registry[Any], ...]:
    """Every registry alive, in the order made (the first for an entry-point group)."""
    out: dict[str, Registry[Any]] = {}
    for ref in _REGISTRIES:
        r = ref()
        if r is not None:
            out.setdefault(r.group, r)
    return tuple(out.values())


def _name_attr(item: Any) -> str:
    return str(item.name)


def _origin_of(ep: EntryPoint) -> Origin:
    dist = ep.dist.name if ep.dist is not None else "an unknown distribution"
    return Origin(dist, f"{ep.name} = {ep.value}")


class Registry(Mapping[str, T], Generic[T]):
    """Items by name, in registration order, with their origins. A read-only Mapping (every
    plug-in loaded when it is iterated); change it with `register`/`unregister`."""

    def __init__(
        self,
        kind: str,
        group: str,
        item_type: type | tuple[type, ...],
        *,
        name_of: Callable[[T], str] = _name_attr,
        expand: Callable[[Any, str], Iterable[T] | None] | None = None,
        fold_case: bool = False,
        check: Callable[[dict[str, T]], None] | None = None,
    ) -> None:
        self.kind = kind
        self.group = group
        self._type = item_type
        self._name_of = name_of
        self._expand = (
            expand  # (loaded object, entry-point name) -> its items, or None: the object is one item
        )
        self._fold = fold_case
        self._check = check  # raises when the items with a new one would be inconsistent
        self._items: dict[str, T] = {}
        self._origins: dict[str, Origin] = {}
        self._problems: dict[str, PluginProblem] = {}
        self._loaded_eps: set[str] = set()
        self._all_loaded = False
        self._listeners: list[Callable[[], None]] = []
        _REGISTRIES.append(weakref.ref(self))

    # -- names -------------------------------------------------------------------------
    def _key(self, name: str) -> str:
        return name.strip().lower() if self._fold else name

    def name_of(self, item: T) -> str:
        return self._key(self._name_of(item))

    # -- registering ---------------------------------------------------------------------
    def register(self, item: T, *, origin: Origin | None = None, replace: bool = False) -> T:
        """Add `item` under its name. The same item again is a no-op; another item under a
        taken name is a PluginConflict unless `replace`."""
        if not isinstance(item, self._type):
            raise TypeError(f"a {self.kind} must be a {_type_names(self._type)}, not {type(item).__name__}")
        name = self.name_of(item)
        if not name:
            raise ValueError(f"a {self.kind} needs a name")
        held = self._items.get(name)
        if held is item:
            return item  # the same item again: nothing changes, its origin included
        if held is not None and not replace:
            raise PluginConflict(
                f"{self.kind} {name!r} is already registered (from {self._origins[name]}); "
                f"another one from {origin or CODE} is refused"
            )
        if self._check is not None:
            self._check({**self._items, name: item})
        self._items[name] = item
        self._origins[name] = origin or CODE
        self._changed()
        return item

    def unregister(self, item_or_name: T | str) -> None:
        """Take an item out again (by itself or its name); built-ins stay."""
        name = self._key(item_or_name) if isinstance(item_or_name, str) else self.name_of(item_or_name)
        held = self._items.get(name)
        if held is None or self._origins[name] == Origin(BUILTIN):
            return
        if not isinstance(item_or_name, str) and held is not item_or_name:
            return
        del self._items[name]
        del self._origins[name]
        self._changed()

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call `listener` after every change (for views derived from the items)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()

    # -- reading -------------------------------------------------------------------------
    def get(self, name: str, default: T | None = None) -> T | None:  # type: ignore[override]
        """The item called `name`, loading a plug-in of that name on first use; `default` if none."""
        key = self._key(name)
        if key not in self._items and not self._all_loaded:
            for ep in self._entry_points():
                if self._key(ep.name) == key:
                    self._load(ep)
        return self._items.get(key, default)

    def require(self, name: str) -> T:
        """The item called `name`; UnknownName listing the valid names otherwise."""
        item = self.get(name)
        if item is None:
            valid = ", ".join(self.names()) or "none registered"
            raise UnknownName(f"unknown {self.kind} {name!r}; choose one of: {valid}")
        return item

    def names(self) -> tuple[str, ...]:
        self.load_all()
        return tuple(self._items)

    def loaded(self) -> dict[str, T]:
        """What is registered now, without loading plug-ins."""
        return dict(self._items)

    def origin(self, name: str) -> Origin | None:
        return self._origins.get(self._key(name))

    def why_missing(self, name: str) -> str | None:
        """Why a plug-in of that name is not loaded (None: no such plug-in failed)."""
        key = self._key(name)
        for p in self._problems.values():
            if self._key(p.name) == key:
                return f"entry point {p.origin.entry_point} failed to load: {p.reason}"
        return None

    def problems(self) -> list[PluginProblem]:
        self.load_all()
        return list(self._problems.values())

    def __getitem__(self, name: str) -> T:
        item = self.get(name)
        if item is None:
            raise KeyError(name)
        return item

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    # -- plug-ins --------------------------------------------------------------------------
    def _entry_points(self) -> list[EntryPoint]:
        return list(entry_points(group=self.group))

    def load_all(self) -> None:
        if not self._all_loaded:
            self._all_loaded = True
            for ep in self._entry_points():
                self._load(ep)

    def rescan(self) -> None:
        """Look at the entry points again on next use (a distribution installed since)."""
        self._all_loaded = False

    def _load(self, ep: EntryPoint) -> None:
        ident = f"{ep.name}={ep.value}"
        if ident in self._loaded_eps:
            return
        self._loaded_eps.add(ident)
        origin = _origin_of(ep)
        try:
            items = self._coerce(ep.load(), ep.name)
            for item in items:
                name = self.name_of(item)
                held = self._items.get(name)
                if held is item:
                    continue
                if held is not None and self._origins[name].distribution == origin.distribution:
                    continue  # a distribution's own entry point for what it registered in code
                self.register(item, origin=origin)
        except Exception as e:  # a broken plug-in must not take the others down with it
            problem = PluginProblem(self.kind, ep.name, origin, f"{type(e).__name__}: {e}")
            self._problems[ident] = problem
            log.warning("%s", problem)

    def _coerce(self, obj: Any, ep_name: str) -> list[T]:
        if self._expand is not None:
            many = self._expand(obj, ep_name)
            if many is not None:
                return list(many)
        if not isinstance(obj, self._type) and callable(obj) and not isinstance(obj, type):
            obj = obj()
        if not isinstance(obj, self._type):
            raise TypeError(f"gives a {type(obj).__name__}, not a {_type_names(self._type)}")
        item = cast(T, obj)
        if self.name_of(item) != self._key(ep_name):
            raise ValueError(
                f"the entry point is named {ep_name!r} but its {self.kind} is {self.name_of(item)!r}"
            )
        return [item]


def _type_names(t: type | tuple[type, ...]) -> str:
    return " or ".join(x.__name__ for x in (t if isinstance(t, tuple) else (t,)))
