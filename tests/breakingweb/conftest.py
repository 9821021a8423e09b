"""BreakingWeb's tests run on the proving ground's sites, as its package builds on them: the same
module-scoped `sites` fixture (tests/proving_ground/conftest.py)."""

from tests.proving_ground.conftest import sites

__all__ = ["sites"]
