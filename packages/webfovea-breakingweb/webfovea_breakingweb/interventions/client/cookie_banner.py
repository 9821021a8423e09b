"""client/cookie_banner: a cookie-consent sheet covers the lower part of the page from the
first load until a choice is made; clicks under it land on the sheet. Exploration: find and
use its buttons.

Added by this project (not in the seed's catalogue text, beside its "overlays"). Real-world
counterpart: a GDPR cookie-consent banner. Unlike client/intercepting_overlay it is there from
the start and covers only part of the page.
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.interventions.base import Family, IvContext, Step, detour
from webfovea_proving_ground.plan import L, click, visible


def _client(ctx: IvContext) -> dict[str, Any]:
    return {"cookies": {"height_vh": 62}}


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    close = click(L("#iv-cookies .iv-reject"), expect={"target": L("#iv-cookies"), "visible": False})
    return [detour(close, "dialog", visible(L("#iv-cookies"))), *plan]


FAMILY = Family(
    name="client/cookie_banner",
    layer="client",
    primitive="exploration",
    summary="a cookie-consent sheet covers the lower page from the start until a choice is made",
    counterpart="a cookie-consent banner",
    cue="a 'We value your privacy' sheet over the lower part of the page",
    recovery="choose 'Only necessary' (or accept), then go on",
    own=True,
    client=_client,
    recover=_recover,
)
