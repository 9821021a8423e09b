"""Targets by reference: the variant of a pointer/form spec that also takes `ref='e12'`.

In structured and hybrid modes a spec marked `targets=True` is offered with a `ref`
parameter beside its `start_box` (both optional; the executor requires one of them). The
prompt shows `ref='e12'` in structured mode and either form in hybrid mode. The executor
resolves the ref to the element's centre (execution/refs.py) and the action's own executor
then runs exactly as for a point: one executor per action, whatever names the target.
"""

from __future__ import annotations

from dataclasses import replace

from webfovea.actions.spec import ActionSpec
from webfovea.types import ParamSpec

REF = ParamSpec("ref", "ref", optional=True)
_BOX = "start_box='<|box_start|>(x,y)<|box_end|>'"


def by_reference(spec: ActionSpec, *, points: bool) -> ActionSpec:
    """The spec with `ref` added; `points`: the prompt still shows start_box as an alternative."""
    if not spec.targets or any(p.name == "ref" for p in spec.params):
        return spec
    params: list[ParamSpec] = []
    needs = False
    for p in spec.params:
        if p.name == "start_box":
            needs = not p.optional
            params.append(ParamSpec(p.name, p.kind, optional=True))
            params.append(REF)
        else:
            params.append(p)
    shown = "ref='e12' or " + _BOX if points else "ref='e12'"
    signature = spec.signature.replace(_BOX, shown)
    purpose = spec.purpose.replace(
        "the point", "the element (ref) or point" if points else "the element (ref)"
    )
    return replace(spec, params=tuple(params), signature=signature, purpose=purpose, needs_target=needs)
