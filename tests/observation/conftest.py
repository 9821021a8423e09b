"""The proving ground, started once per test module (seed from the module's SEED, else 0)."""

from collections.abc import Iterator

import pytest

from webfovea_proving_ground.serve import SitesHandle, start_sites


@pytest.fixture(scope="module")
def sites(request: pytest.FixtureRequest) -> Iterator[SitesHandle]:
    with start_sites(seed=getattr(request.module, "SEED", 0)) as handle:
        yield handle
