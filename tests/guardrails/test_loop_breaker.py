"""The loop breaker counts one pointer action on one dead spot; anything else starts over.
(On real Chromium: tests/proving_ground/oracle/test_verify.py, a button under an overlay.)"""

from webfovea.config import make_config
from webfovea.guardrails.breaker import LoopBreaker

CLICK = {"start_box": [1, 2]}


def fire(
    b: LoopBreaker, point=(500.0, 300.0), *, name="click", args=CLICK, pointer=True, changed=False
) -> bool:
    return b.fires(name, args, point, pointer=pointer, changed=changed)


def test_fires_on_the_sixth_dead_click_on_one_spot():
    b = LoopBreaker(make_config())
    assert [fire(b, (500.0 + i % 3, 300.0)) for i in range(6)] == [False] * 5 + [True]
    assert "6 times" in b.reason()


def test_a_change_another_spot_or_other_arguments_start_over():
    b = LoopBreaker(make_config())
    for _ in range(5):
        fire(b)
    assert not fire(b, changed=True)  # the page reacted
    for _ in range(5):
        fire(b)
    assert not fire(b, (560.0, 300.0))  # another target
    assert b.in_a_row == 1
    for _ in range(4):
        fire(b, (560.0, 300.0))
    assert not fire(b, (560.0, 300.0), name="fill", args={"start_box": [1, 2], "content": "x"})
    assert not fire(b, None, name="wait", args={}, pointer=False)  # waiting is not a loop
    assert b.in_a_row == 0


def test_off_in_reference_and_when_disabled():
    for cfg in (make_config("reference"), make_config(disable=["loop_breaker"])):
        b = LoopBreaker(cfg)
        assert not any(fire(b) for _ in range(20))
