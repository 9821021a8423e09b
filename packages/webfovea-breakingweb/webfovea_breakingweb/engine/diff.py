"""The canonical diff between two states of a stateful app.

A state is a Pydantic model whose list fields hold records with an `id` (the entities);
other fields are settings compared as one record named after the field. The diff lists
created, deleted and updated records with before/after per field, sorted by
(entity, id, op, field), so equal changes give byte-identical diffs.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


def entities(state: BaseModel | dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """{entity type: {id: record}} for every list-of-records field of the state."""
    data = state.model_dump(mode="json") if isinstance(state, BaseModel) else state
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, value in data.items():
        if isinstance(value, list) and all(isinstance(v, dict) and "id" in v for v in value):
            out[name] = {str(v["id"]): v for v in value}
        elif isinstance(value, dict):
            out[name] = {"_": value}
        else:
            out.setdefault("_settings", {}).setdefault("_", {})[name] = value
    return out


def canonical_diff(
    before: BaseModel | dict[str, Any], after: BaseModel | dict[str, Any]
) -> list[dict[str, Any]]:
    """Sorted change records: {entity, id, op: create|delete|update, field?, before, after}."""
    old, new = entities(before), entities(after)
    changes: list[dict[str, Any]] = []
    for entity in sorted(set(old) | set(new)):
        a, b = old.get(entity, {}), new.get(entity, {})
        for rid in sorted(set(a) | set(b)):
            if rid not in a:
                changes.append(
                    {
                        "entity": entity,
                        "id": rid,
                        "op": "create",
                        "field": None,
                        "before": None,
                        "after": b[rid],
                    }
                )
            elif rid not in b:
                changes.append(
                    {
                        "entity": entity,
                        "id": rid,
                        "op": "delete",
                        "field": None,
                        "before": a[rid],
                        "after": None,
                    }
                )
            else:
                for f in sorted(set(a[rid]) | set(b[rid])):
                    if a[rid].get(f) != b[rid].get(f):
                        changes.append(
                            {
                                "entity": entity,
                                "id": rid,
                                "op": "update",
                                "field": f,
                                "before": a[rid].get(f),
                                "after": b[rid].get(f),
                            }
                        )
    return changes
