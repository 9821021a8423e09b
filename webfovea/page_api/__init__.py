"""`act`, `extract` and `observe` on a page you hold (docs/page-api.md).

    async with await PageAgent.attach(page, model="anthropic:claude-sonnet-4-5") as agent:
        await agent.act("choose Viet Nam in the Country list")
        gdp = await agent.extract("the GDP growth shown for 2024", Growth)
        options = await agent.observe("the buttons that submit the form")

The room: `agent.py` (`PageAgent`: each call through the harness's own model input and
`Harness.step`), `prompts.py` (what each call tells the model; reading an observe reply),
`cache.py` (a second identical call on the same page state asks no model), `results.py`
(`ActResult`, `Candidate`, the errors).
"""

from webfovea.page_api.agent import PageAgent
from webfovea.page_api.results import ActResult, ActStep, Candidate, ExtractError, PageApiError

__all__ = ["ActResult", "ActStep", "Candidate", "ExtractError", "PageAgent", "PageApiError"]
