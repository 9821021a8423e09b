"""webfovea's agent side as a BrowserGym agent, for AgentLab studies (docs/browsergym.md).

AgentLab runs an agent given by its `AgentArgs` (a dataclass with `agent_name`, `make_agent()`,
`set_benchmark()`, `set_reproducibility_mode()`, `prepare()`, `close()`); the agent it makes is
a BrowserGym `Agent`: `obs_preprocessor(obs)` and `get_action(obs) -> (action, info)`, the action
a string of BrowserGym's high-level action set (`agent.action_set`), which the environment turns
into Playwright code and executes on its own page.

`WebfoveaAgentArgs` makes a `WebfoveaAgent`: each step it takes BrowserGym's screenshot, sizes it
for the model as the harness does (the screenshot cap, the model's conventions row, coordinate
alignment: `observation/capture.Shot`), builds the model input the harness builds (the system
prompt generated from the action specs, the text history of cleaned replies, the last
screenshots, the feedback of the last step: BrowserGym's `last_action_error`), asks any model the
model factory builds, parses the reply with webfovea's parser (token stripping, the first action
only, aliases, the closed action set) and writes the action as BrowserGym's coordinate action.
What BrowserGym's page does with it is BrowserGym's: webfovea's executor, settle wait, feedback
notes and guardrails on the page are not in this loop — run `bench browsergym:…` for those.

BrowserGym's environment drives Playwright's sync API on the thread that calls `get_action`, so
the model is asked on webfovea's own loop on a thread of its own (agent_loop.py). A model that
answers with tool calls (Claude's tools or computer tool, OpenAI's computer tool) is offered the
same actions as tools and its first call is the action, as in the harness (parsing/tool_call.py).
"""

from __future__ import annotations

import io
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from webfovea.config import Component, HarnessConfig
from webfovea.environments.browsergym.actions import OFFERED, to_browsergym
from webfovea.environments.browsergym.agent_loop import close_soon, run_on_agent_loop
from webfovea.feedback import notes
from webfovea.models.base import Model, ModelInput, ModelReply
from webfovea.observation.capture import Shot
from webfovea.observation.sizing import fit_within, harness_config
from webfovea.parsing.reply import parse_reply
from webfovea.parsing.tool_call import parse_tool_call
from webfovea.types import ParsedReply

try:  # BrowserGym's base classes when browsergym-experiments is installed; the protocol otherwise
    from browsergym.experiments.agent import Agent as _BrowserGymAgent
    from browsergym.experiments.agent import AgentInfo
    from browsergym.experiments.loop import AbstractAgentArgs as _AgentArgs
except ImportError:  # pragma: no cover - the protocol is duck-typed by AgentLab's loop
    _BrowserGymAgent = object
    _AgentArgs = object
    AgentInfo = dict

KEPT = ("goal", "chat_messages", "screenshot", "url", "last_action", "last_action_error", "elapsed_time")
SUBSETS = ["chat", "coord", "nav"]  # BrowserGym's action subsets the agent's actions are written in


def action_set() -> Any:
    """BrowserGym's action set the agent writes in (the environment's `action_mapping`)."""
    from browsergym.core.action.highlevel import HighLevelActionSet

    return HighLevelActionSet(subsets=SUBSETS, multiaction=False, strict=False)


def _array_image(screenshot: Any) -> Image.Image:
    if isinstance(screenshot, Image.Image):
        return screenshot.convert("RGB")
    if isinstance(screenshot, bytes | bytearray):
        return Image.open(io.BytesIO(screenshot)).convert("RGB")
    return Image.fromarray(screenshot).convert("RGB")  # BrowserGym's (height, width, 3) array


class WebfoveaAgent(_BrowserGymAgent):  # type: ignore[misc]  # BrowserGym ships no types
    def __init__(self, model: Model, config: HarnessConfig) -> None:
        from webfovea.actions.catalog import SPECS
        from webfovea.actions.tools import tool_defs
        from webfovea.observation.prompt import system_prompt

        self.model, self.config = model, config
        # Neither AgentLab's loop nor BrowserGym's closes an agent: its model (an HTTP client's
        # connections) is closed when the agent is dropped after its episode, or by close().
        self._closer = weakref.finalize(self, close_soon, model)
        self.specs = [s for s in SPECS if s.name in OFFERED and s.offered(config.on, config=config)]
        self.system = system_prompt(self.specs, config)
        # Native tool use (a client whose interface is tools or a computer tool): the same
        # actions as tools, and the prompt that goes with them; a text client ignores both.
        self.tools = tool_defs(self.specs, with_budgets=config.on(Component.budgets))
        self.system_tools = system_prompt(self.specs, config, tools=True)
        self.offered = {s.name: s.params for s in self.specs}
        self.action_set = action_set()
        self.history: list[str] = []
        self.images: list[Image.Image] = []
        self.note: str | None = None  # what webfovea's parser said of the last reply, if it refused it

    def obs_preprocessor(self, obs: dict[str, Any]) -> dict[str, Any]:
        """Only what a vision agent reads (no DOM, no AXTree in the traces)."""
        return {k: obs[k] for k in KEPT if k in obs}

    def shot(self, screenshot: Any) -> Shot:
        """The screenshot as the harness sends it: cut to the cap when coordinates are aligned.
        BrowserGym maps coordinates from its screenshot's pixels itself (`map_coordinates`), so
        the screenshot's pixels are the CSS space here."""
        raw = _array_image(screenshot)
        aligned = self.config.on(Component.coord_align)
        cap = (self.config.screenshot_cap_width, self.config.screenshot_cap_height)
        sent = raw.resize(fit_within(raw.size, cap), Image.Resampling.LANCZOS) if aligned else raw
        return Shot(
            sent,
            float(raw.width),
            float(raw.height),
            1.0,
            raw.size,
            self.config.coordinate_convention,
            aligned,
        )

    def _feedback(self, obs: dict[str, Any]) -> str | None:
        error = str(obs.get("last_action_error") or "").strip()
        parts = [p for p in (self.note, f"The last action failed: {error}" if error else "") if p]
        return " ".join(parts) or None

    def _parse(self, reply: ModelReply) -> ParsedReply:
        strip = self.config.on(Component.token_strip)
        if reply.tool_calls:  # the first call is the action; the client answers the others
            return parse_tool_call(reply.tool_calls[0], self.offered, thought=reply.text, strip_tokens=strip)
        return parse_reply(
            reply.text, self.offered, strip_tokens=strip, first_only=self.config.on(Component.first_action)
        )

    def get_action(self, obs: dict[str, Any]) -> tuple[str, Any]:
        shot = self.shot(obs["screenshot"])
        self.images = [*self.images, shot.image][-max(1, self.config.screenshot_window) :]
        inp = ModelInput(
            system=self.system,
            task=str(obs.get("goal") or ""),
            history=list(self.history),
            images=list(self.images),
            feedback=self._feedback(obs),
            step=len(self.history),
            tools=list(self.tools),
            system_tools=self.system_tools,
        )
        # Not on this thread: BrowserGym's sync Playwright keeps a loop running here.
        reply = run_on_agent_loop(self.model.next_reply(inp))
        parsed = self._parse(reply)
        self.history.append(parsed.cleaned)
        if reply.cut_off is not None:  # half a call must not run (the harness withholds it too)
            self.note, action = notes.cut_off(reply.cut_off), "noop(500)"
        elif parsed.action is None:
            self.note = parsed.rejection.reason if parsed.rejection else "The reply held no action."
            action = "noop(500)"  # BrowserGym's way of doing nothing: the model is told why next step
        else:
            self.note = None
            action = to_browsergym(parsed.action, shot)
        info = AgentInfo(
            think=parsed.thought,
            stats={
                "prompt_tokens": reply.usage.prompt_tokens,
                "completion_tokens": reply.usage.completion_tokens,
            },
            extra_info={
                "raw_reply": parsed.raw if reply.tool_calls else reply.text,
                "webfovea_action": parsed.action.to_json() if parsed.action else None,
            },
        )
        return action, info

    def close(self) -> None:
        if self._closer.detach() is None:
            return  # closed already
        aclose = getattr(self.model, "aclose", None)
        if aclose is not None:
            run_on_agent_loop(aclose())


@dataclass
class WebfoveaAgentArgs(_AgentArgs):  # type: ignore[misc]  # BrowserGym ships no types
    """AgentLab's `AgentArgs` for webfovea (serialisable: specs and names only). `model` is any
    model spec (`openai:MODEL`, `anthropic:MODEL`, a plug-in kind); `profile` and `disable` pick
    the harness's switches as `--profile`/`--disable` do."""

    agent_name: str = "webfovea"
    model: str = "openai:gpt-4o"
    profile: str = "webfovea"
    # A tuple, not a list: AgentLab's result loaders index their table by the agent's fields
    # (`load_result_df`), and an index value must be hashable. A list given is kept as a tuple.
    disable: tuple[str, ...] = ()
    base_url: str | None = None
    make_model: Callable[..., Model] | None = None  # tests: a model without the factory

    def __post_init__(self) -> None:
        if isinstance(self.disable, str):
            raise TypeError(f"disable is a list of component names, not the string {self.disable!r}")
        self.disable = tuple(self.disable or ())
        self.make_config()  # an unknown profile or component fails here, not in every episode

    def make_config(self) -> HarnessConfig:
        """The harness's switches for this model: its conventions row picks the coordinate
        space and the screenshot cap, as `webfovea run --model` does."""
        return harness_config(
            self.profile, list(self.disable) or None, model=self.model, observation="vision"
        )

    def make_agent(self) -> WebfoveaAgent:
        config = self.make_config()
        if self.make_model is not None:
            return WebfoveaAgent(self.make_model(), config)
        from webfovea.models.factory import make_model

        model = make_model(self.model, base_url=self.base_url, sampling=config.sampling())
        return WebfoveaAgent(model, config)

    def set_benchmark(self, benchmark: Any, demo_mode: bool) -> None:
        """The same agent on every benchmark: the harness is what is compared."""

    def set_reproducibility_mode(self) -> None:
        raise NotImplementedError("webfovea's agent has no reproducibility mode (replay its runs instead)")

    def prepare(self) -> None:
        return None

    def close(self) -> None:
        return None
