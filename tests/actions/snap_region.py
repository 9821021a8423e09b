"""A throwaway action that shows the model an image: the recipe of docs/architecture.md
("Adding an action that shows an image") followed once, outside the package.

`snap_region(region)` crops the screenshot the model decided on and attaches the crop to
the next input. Written as a module under `actions/` would be; this one is registered by
tests/actions/test_image_action_recipe.py with `catalog.register`, the public door for
spec modules kept outside `actions/`.
"""

from __future__ import annotations

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.guardrails.bounds import OutOfBounds
from webfovea.types import Action, ParamSpec


async def exec_snap_region(ctx: ExecContext, action: Action) -> Outcome:
    box = tuple(int(float(v)) for v in action.args.get("region") or ())
    if len(box) != 4 or box[2] <= box[0] or box[3] <= box[1]:
        raise OutOfBounds("it needs a region (x1,y1,x2,y2) with x1 < x2 and y1 < y2; nothing was cropped.")
    crop = ctx.view.image.crop(box)  # the screenshot as sent: model pixels are image pixels
    ctx.response.attach(
        "snap_region", f"Region {box} of the screenshot, as it was sent.", crop, {"region": list(box)}
    )
    return Outcome(check_change=False, note=f"snap_region: the region {box} is attached.")


SPECS = [
    ActionSpec(
        name="snap_region",
        params=(ParamSpec("region", "box"),),
        signature="snap_region(region='<|box_start|>(x1,y1,x2,y2)<|box_end|>')",
        purpose="See a region of the screenshot again, on its own.",
        execute=exec_snap_region,
        watch=False,
        feedback="That the region is attached; or, for a bad region, one sentence and nothing cropped.",
    ),
]
