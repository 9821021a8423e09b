"""What every model receives and returns. A model sees images and text only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from PIL import Image


@dataclass(frozen=True)
class ToolDef:
    """One offered action as a provider-neutral tool: generated from its spec (actions/tools.py)."""

    name: str
    description: str
    parameters: dict[str, Any]  # JSON Schema of the arguments (an object)
    # A pointer or keyboard action that a provider's computer tool already covers: not
    # offered as a tool of its own when the computer tool is (parsing/computer_calls.py maps it).
    computer_covered: bool = False
    openai_computer_covered: bool = False  # the same for OpenAI's computer tool
    # The flag a computer tool's definition needs to cover it (zoom: `enable_zoom`, which only
    # some tool versions accept); where the version has no such flag, it stays a tool of its own.
    computer_needs: str | None = None


@dataclass
class Attachment:
    """An image the model gets with the next input besides the screenshot (zoom's magnified
    crop; made by `execution.response.Response.attach`): with a line that says what it is,
    and what the step record notes about it."""

    label: str
    image: Image.Image
    info: dict[str, Any] = field(default_factory=dict)
    # Names its file (step_NNN_<kind>.png) and its entry in the step record's `attachments`;
    # `record_as`: a step-record field the entry is written under instead (zoom's `zoom`).
    kind: str = "attachment"
    record_as: str | None = None


# Names a client gives a provider computer tool's calls, so the parser knows which table
# maps them (parsing/computer_calls.py): Claude's `computer` tool, OpenAI's computer tool.
CLAUDE_COMPUTER_CALL = "computer"
OPENAI_COMPUTER_CALL = "computer_use"


@dataclass(frozen=True)
class ToolCall:
    """A tool call as the provider returned it; `id` is answered with exactly one result."""

    id: str
    name: str
    input: dict[str, Any]


@dataclass
class ModelInput:
    system: str  # generated action/constraint prompt (text grammar)
    task: str  # the task instruction
    history: list[str]  # cleaned text of earlier replies (Thought/Action), oldest first
    images: list[Image.Image]  # last N screenshots as sent, oldest first; the last is the current view
    feedback: str | None  # the note about the last action, if any
    step: int  # 0-based step index
    # History compression (observation/compress.py): the summary that stands for the steps
    # before `history_start` (1-based step number of history[0]).
    summary: str | None = None
    history_start: int = 1
    # "act": decide the next action. "summary": the compression call, asking the same model
    # to summarise `history`; `closing` then replaces the "decide step N" line.
    purpose: str = "act"
    closing: str | None = None
    # Structured/hybrid observation: the snapshot text exactly as the model is given it (None
    # in vision mode), and per earlier step the one-line stub its snapshot became.
    snapshot: str | None = None
    snapshot_stubs: list[str] = field(default_factory=list)
    # The heading the snapshot text is shown under (None: the accessibility snapshot's own): a
    # mode that shows another text beside the screenshot names it (modes/elements.py).
    snapshot_title: str | None = None
    # For native tool use: the offered actions as tools, and the system prompt that goes
    # with them (the same rules, without the text grammar). Empty: text grammar only.
    tools: list[ToolDef] = field(default_factory=list)
    system_tools: str = ""
    # Append-only image history (caching providers): keep every screenshot since the
    # last compaction, compacting every `compact_every` steps; off: the sliding window.
    append_history: bool = False
    compact_every: int = 5
    # Images the last action produced for the model to see now (zoom's crop): sent once, in
    # the result of that action's tool call where there is one, else beside the screenshots.
    attachments: list[Attachment] = field(default_factory=list)


@dataclass
class Usage:
    """Tokens of one call. `prompt_tokens` is the whole prompt; for a caching provider it is
    split into `input_tokens` (neither read from nor written to the cache), the cache read and
    the cache write. `estimated`: no provider counted them (the oracle in-process, a server
    that returned no usage)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    input_tokens: int | None = None  # uncached; None: the provider does not split the prompt
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    estimated: bool = False
    # A caching call that neither wrote nor read the cache: the prefix was below the
    # model's minimum cacheable length, or the prefix changed (recorded, never guessed).
    cache_miss: bool = False

    @property
    def uncached_tokens(self) -> int:
        return self.prompt_tokens if self.input_tokens is None else self.input_tokens

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }
        if self.input_tokens is not None:
            out.update(
                input_tokens=self.input_tokens,
                cache_read_input_tokens=self.cache_read_input_tokens,
                cache_creation_input_tokens=self.cache_creation_input_tokens,
            )
        if self.estimated:
            out["estimated"] = True
        if self.cache_miss:
            out["cache_miss"] = True
        return out


@dataclass
class ModelReply:
    text: str  # the reply text (text grammar), or the text the model wrote beside its tool calls
    usage: Usage = field(default_factory=Usage)
    tool_calls: list[ToolCall] = field(default_factory=list)  # in the order the model made them
    # Provider-side notes the record keeps: a refusal (stop_reason), safety checks acknowledged.
    notes: list[str] = field(default_factory=list)
    # Why the reply is incomplete, in the provider's words (`finish_reason=length`,
    # `stop_reason=max_tokens`, `status=incomplete (max_output_tokens)`); None: complete. A
    # cut-off reply is never executed: a half-written call (`fill(content='Ada Lov')`) would run
    # as if it were meant. The model is told and asked again, with more room.
    cut_off: str | None = None


# How the step record's `provider_notes` mark a cut-off reply, so a replay withholds it too.
CUT_OFF_NOTE = "cut off: "


def cut_off_of(notes: list[str] | None) -> str | None:
    """The cut-off reason a recorded step's notes carry (None: the reply was whole)."""
    return next((n[len(CUT_OFF_NOTE) :] for n in notes or [] if n.startswith(CUT_OFF_NOTE)), None)


class ModelError(RuntimeError):
    """The model could not produce a reply (after retries). Ends the task as a recorded failure."""


@runtime_checkable
class Model(Protocol):
    async def next_reply(self, inp: ModelInput) -> ModelReply: ...

    async def aclose(self) -> None: ...

    def quirks(self) -> list[dict[str, Any]]:
        """What an instrumented model played on purpose (the oracle: ref quirks, contamination
        ...), each {call, quirk, ...}, for result.json `model_quirks`. Real models: none."""
        return []


# ModelInput.purpose of the verifier's call (guardrails/verifier.py); a model that answers it its
# own way (the oracle, a replay) reads it here, below the guardrails.
VERIFY_PURPOSE = "verify_answer"


def verify_refusal(model: object) -> str | None:
    """Why this model cannot be the verifier (None: it can). The verifier asks a model to check an
    answer in a fresh context; a model that replays a script (a replay, a test's list of replies)
    would hand it the script's next line instead, and use that line up. Such a model says so
    with a class or instance attribute `can_verify = False` (real clients and the oracle need
    nothing: the default is True), and may name what it replays in `replays` ("a recorded run")."""
    if getattr(model, "can_verify", True):
        return None
    what = getattr(model, "replays", None) or "a script"
    return f"{type(model).__name__} replays {what}"


def quirks_of(model: object) -> list[dict[str, Any]]:
    """A model's quirks; none for a model written before the protocol declared `quirks`
    (it is still a model: next_reply and aclose are all a driver needs)."""
    return [dict(e) for e in model.quirks()] if isinstance(model, Model) else []
