"""The spending caps' arithmetic (guardrails/spend.py): the spend of recorded usage totals, the
rule "at or above the cap", money only with prices, and clear refusals."""

from __future__ import annotations

import pytest

from webfovea.config import make_config
from webfovea.guardrails.spend import PriceError, SpendCap, price_table
from webfovea.record.schema import TaskResult, UsageTotals


def usage(prompt: int, completion: int, *, read: int = 0, written: int = 0) -> UsageTotals:
    return UsageTotals(
        prompt_tokens=prompt,
        completion_tokens=completion,
        model_calls=1,
        input_tokens=prompt - read - written,
        cache_read_input_tokens=read,
        cache_creation_input_tokens=written,
    )


def test_money_is_counted_per_kind_of_token_and_reached_at_the_cap() -> None:
    prices = price_table({"input": 3, "output": 15})  # cache read 0.3, write 3.75 by default
    assert prices == pytest.approx({"input": 3.0, "output": 15.0, "cache_read": 0.3, "cache_write": 3.75})
    cap = SpendCap(max_cost=0.01, prices=prices)
    # 1,000 uncached + 2,000 read + 400 written input, 100 output:
    # (1000*3 + 2000*0.3 + 400*3.75 + 100*15) / 1e6 = 0.0066
    spent = cap.spent([usage(3400, 100, read=2000, written=400)])
    assert spent.tokens == 3500 and spent.cost == pytest.approx(0.0066)
    assert cap.reached(spent) is None
    twice = cap.spent([usage(3400, 100, read=2000, written=400)] * 2)  # 0.0132 >= 0.01
    assert cap.reached(twice) == "money budget of $0.01 reached: $0.0132 spent"


def test_tokens_count_every_role_of_a_result() -> None:
    result = TaskResult(
        task_id="t",
        status="finished",
        usage=usage(100, 10),
        verifier_usage=usage(50, 5),
        vision_usage=usage(7, 3),
    )
    cap = SpendCap(max_tokens=175)
    assert cap.spent_by([result]).tokens == 175
    assert cap.reached(cap.spent_by([result])) == "token budget of 175 reached: 175 tokens spent"
    assert SpendCap(max_tokens=176).reached(cap.spent_by([result])) is None


def test_a_money_cap_without_prices_and_bad_prices_are_refused() -> None:
    with pytest.raises(PriceError, match="no known price"):
        SpendCap(max_cost=1.0)
    with pytest.raises(ValueError, match="no known price"):
        make_config(max_cost=1.0)
    with pytest.raises(PriceError, match="unknown price key"):
        price_table({"input": 1, "output": 2, "images": 3})
    with pytest.raises(PriceError, match="cannot be negative"):
        price_table({"input": -1, "output": 2})
    assert make_config(max_cost=1.0, prices={"input": 1, "output": 2}).max_cost == 1.0
