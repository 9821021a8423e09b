"""The page embedded in every kind of iframe, served once per test module (`site`)."""

from tests.support.frames import site  # noqa: F401 - the fixture
