"""What a run tells its user while it goes: the application layer reports, its caller shows.

`Reporter` itself stays silent (a Python caller gets the results it returns); the CLI's reporter
prints notes to stdout and warnings to stderr (`webfovea/cli/common.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from webfovea.record import Summary


class Reporter:
    def note(self, text: str) -> None:
        """A line of the run's account: where the sites run, how many tasks, where files went."""

    def warn(self, label: str, text: str) -> None:
        """Something to look at (`label`: a short heading such as "partial run")."""

    def summary(self, summary: Summary) -> None:
        """A run's summary, once it is written."""
