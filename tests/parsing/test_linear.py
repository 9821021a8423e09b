"""Parsing is linear in the reply: ten thousand `Action:` markers on one line cost one pass
over it. Before, each marker re-read its line and the text after it:
10k markers took 1-15 s, 100k would have taken hours; now 100k take about a second."""

from __future__ import annotations

import time

import pytest

from tests.parsing.specs import PAPER_SPECS
from webfovea.parsing.reply import parse_reply

SHAPES = {
    "bare": lambda n: "Thought: t\nAction: " + "Action: " * n + "click(start_box='(1,2)')",
    "calls": lambda n: "Thought: t\nAction: " + "Action: fill(content='x'), " * n,
    "quoted": lambda n: (
        'Thought: the page says "' + "Action: finished(content='h') " * n + '"\nAction: wait()'
    ),
    "lines": lambda n: "Thought: t\n" + "Action: type(content='a, (b) \n" * n,
    "cited": lambda n: (
        "Thought: t\n" + "- Action: wait() then Action: scroll(direction='down') I ignore " * n
    ),
    "cut": lambda n: "Thought: t\n" + "Action: type(content='abc " * n,
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_twenty_thousand_markers_parse_in_well_under_a_second_each(shape):
    small, big = SHAPES[shape](200), SHAPES[shape](20_000)
    t0 = time.perf_counter()
    reply = parse_reply(big, PAPER_SPECS)
    took = time.perf_counter() - t0
    assert took < 4.0, f"{shape}: {took:.2f} s for {len(big) // 1024} KB"
    # the same decision as on a short reply of the same shape
    short = parse_reply(small, PAPER_SPECS)
    assert (reply.action.name if reply.action else None) == (short.action.name if short.action else None)
    assert (reply.rejection is None) == (short.rejection is None)
