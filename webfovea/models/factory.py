"""Model spec strings -> Model objects, through a registry of model kinds.

A spec is `KIND` or `KIND:ARGUMENT` (`openai:gpt-4o`, `replay:runs/x`, `oracle:seed=3`).
Each kind is a `ModelKind`: a name, a description for the help text and a constructor.
`replay`, `script`, `openai`, `anthropic` and `gemini` are built in. Other kinds come from installed
packages through the `webfovea.models` entry-point group, loaded the first time their
name is asked for, so a spawned worker or a Ray worker that only calls
`make_model("oracle", ...)` finds them without importing anything first. The
proving ground's oracle registers itself that way (pyproject.toml):

    [project.entry-points."webfovea.models"]
    oracle = "webfovea_proving_ground.oracle.model:MODEL_KIND"

A plug-in does the same with its own package: the entry point names a `ModelKind` (or a
function without arguments that returns one), and the entry point's name is the kind's.
In one process, `register_model_kind()` adds or replaces a kind directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webfovea.models.base import Model
from webfovea.models.endpoint import ModelConfigError
from webfovea.models.retry import RetryPolicy
from webfovea.plugins import BUILTIN, Origin, Registry

if TYPE_CHECKING:
    from playwright.async_api import Page

    from webfovea.task import Task

ENTRY_POINT_GROUP = "webfovea.models"


@dataclass
class ModelRequest:
    """What a kind's constructor gets: the spec, split, and everything the caller passed."""

    spec: str
    kind: str
    argument: str | None  # the text after the first ':' (None when the spec has no ':')
    task: Task | None = None
    page: Page | None = None
    base_url: str | None = None
    api_key: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    # What the harness's profile asks a sampling client for (HarnessConfig.sampling():
    # temperature, max_tokens); the caller's `options` and the spec's own win over it.
    sampling: dict[str, Any] = field(default_factory=dict)

    def error(self, why: str) -> ModelConfigError:
        """A bad-spec error that names the spec and lists the accepted forms."""
        return _spec_error(self.spec, why)


@dataclass(frozen=True)
class ModelKind:
    name: str  # the part of a spec before the first ':' (lower case)
    description: str  # one line for the help text
    build: Callable[[ModelRequest], Model]
    # Help lines (form, what it does) when one line `name  description` is not enough.
    usage: tuple[tuple[str, str], ...] = ()
    # False: the kind's models replay a script (replay), so they cannot check an answer in a
    # fresh context and the `verifier` is off for them unless --verifier names another model
    # (run.json `verifier_off`). Its models say the same (`can_verify`, models/base.py).
    can_verify: bool = True

    def help_lines(self) -> tuple[tuple[str, str], ...]:
        return self.usage or ((self.name, self.description),)


MODEL_KINDS: Registry[ModelKind] = Registry("model kind", ENTRY_POINT_GROUP, ModelKind, fold_case=True)


def register_model_kind(kind: ModelKind, *, replace: bool = False) -> None:
    """Add a model kind to this process's registry (a registered name is kept unless `replace`)."""
    if ":" in kind.name:
        raise ValueError(f"a model kind needs a name without ':', got {kind.name!r}")
    MODEL_KINDS.register(kind, replace=replace)


def model_kind(name: str) -> ModelKind | None:
    """The registered kind called `name`, loading its entry point on first use."""
    return MODEL_KINDS.get(name)


def registered_kinds() -> list[str]:
    """The names of every model kind: built in, registered in code, or from an entry point."""
    return list(MODEL_KINDS.names())


def describe_specs() -> str:
    """Help text listing the accepted model specs, one per line."""
    lines = [line for kind in MODEL_KINDS.values() for line in kind.help_lines()]
    lines += [(p.name, f"(not available: {p.reason})") for p in MODEL_KINDS.problems()]
    width = max(len(form) for form, _ in lines)
    return "\n".join(f"  {form:<{width}}  {what}" for form, what in lines)


def _spec_error(spec: str, why: str) -> ModelConfigError:
    return ModelConfigError(f"model spec {spec!r}: {why}. Accepted forms:\n{describe_specs()}")


# Options an HTTP client takes from `options` (CLI --model-option, run configs).
_CLIENT_OPTIONS = {"timeout_s", "max_tokens", "temperature", "extra_body", "client"}
_OPENAI_ONLY = {"image_detail", "interface"}
_ANTHROPIC_ONLY = {"interface", "cache", "thinking"}
_GEMINI_ONLY = {"interface", "thinking"}
_RETRY_OPTIONS = {"max_attempts", "budget_s", "base_delay_s", "max_delay_s", "min_attempt_s"}


def _coerce(value: str) -> Any:
    """`3` -> 3, `0.5` -> 0.5, `true`/`false` -> bool, anything else stays a string."""
    low = value.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    return value.strip()


def parse_options(text: str, spec: str) -> dict[str, Any]:
    """`a=1,b=x` -> {'a': 1, 'b': 'x'}."""
    out: dict[str, Any] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise _spec_error(spec, f"option {item.strip()!r} is not KEY=VALUE")
        out[key.strip()] = _coerce(value)
    return out


def _client_kwargs(provider: str, spec: str, options: dict[str, Any]) -> dict[str, Any]:
    only = {"openai": _OPENAI_ONLY, "anthropic": _ANTHROPIC_ONLY, "gemini": _GEMINI_ONLY}.get(provider, set())
    allowed = _CLIENT_OPTIONS | _RETRY_OPTIONS | {"retry"} | only
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise _spec_error(
            spec,
            f"unknown option(s) {', '.join(unknown)} for {provider} (known: {', '.join(sorted(allowed))})",
        )
    kwargs = {k: v for k, v in options.items() if k in _CLIENT_OPTIONS | only}
    retry = options.get("retry")
    retry_fields = {k: options[k] for k in _RETRY_OPTIONS if k in options}
    if retry is not None and not isinstance(retry, RetryPolicy):
        raise _spec_error(spec, "option retry must be a RetryPolicy")
    if retry_fields:
        base = retry or RetryPolicy()
        try:
            retry = RetryPolicy(**{**base.__dict__, **retry_fields})
        except (TypeError, ValueError) as exc:
            raise _spec_error(spec, f"bad retry option: {exc}") from None
    if retry is not None:
        kwargs["retry"] = retry
    return kwargs


def make_model(
    spec: str,
    *,
    task: Task | None = None,
    page: Page | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    options: dict[str, Any] | None = None,
    sampling: dict[str, Any] | None = None,
) -> Model:
    """Build the model a spec string names. Bad specs raise ModelConfigError (a ValueError).

    `sampling` is what the harness config asks of a sampling client (the `winner` profile's
    temperature 0.2); kinds that do not sample (the oracle, replay) ignore it."""
    if not isinstance(spec, str) or not spec.strip():
        raise _spec_error(str(spec), "empty")
    spec = spec.strip()
    name, sep, rest = spec.partition(":")
    kind = model_kind(name)
    if kind is None:
        why = MODEL_KINDS.why_missing(name)
        raise _spec_error(
            spec,
            f"unknown kind {name!r} ({why})"
            if why
            else f"unknown kind {name!r}; registered kinds: {', '.join(registered_kinds())}",
        )
    request = ModelRequest(
        spec=spec,
        kind=kind.name,
        argument=rest if sep else None,
        task=task,
        page=page,
        base_url=base_url,
        api_key=api_key,
        options=dict(options or {}),
        sampling=dict(sampling or {}),
    )
    return kind.build(request)


# Built-in kinds ---------------------------------------------------------------------------


def _build_replay(req: ModelRequest) -> Model:
    path = (req.argument or "").strip()
    if not path:
        raise req.error("replay needs a path (replay:PATH)")
    from webfovea.models.replay import ReplayModel

    return ReplayModel(Path(path), task_id=req.task.task_id if req.task is not None else None)


def _build_script(req: ModelRequest) -> Model:
    path = (req.argument or "").strip()
    if not path:
        raise req.error("script needs a file of replies (script:FILE)")
    from webfovea.models.script import ScriptModel

    return ScriptModel(Path(path))


def _build_http(req: ModelRequest) -> Model:
    # `anthropic:MODEL?interface=computer,cache=false`: client options in the spec itself.
    model, _, spec_options = (req.argument or "").partition("?")
    model = model.strip()
    if not model:
        raise req.error(f"{req.kind} needs a model name ({req.kind}:MODEL)")
    options = {**req.sampling, **req.options, **parse_options(spec_options, req.spec)}
    kwargs = _client_kwargs(req.kind, req.spec, options)
    try:
        if req.kind == "openai":
            from webfovea.models.conventions import conventions_for

            # The row says whether the model speaks through OpenAI's computer tool (Responses
            # API); interface=text keeps the Chat Completions text grammar for it.
            interface = kwargs.pop("interface", None)
            if interface not in (None, "text", "computer"):
                raise req.error(f"interface={interface!r} for openai: use text or computer")
            computer = conventions_for(model).reply_interface == "openai_computer"
            if interface == "computer" and not computer:
                raise req.error("the model's conventions row has no OpenAI computer tool (`webfovea models`)")
            if computer and interface != "text":
                from webfovea.models.openai_responses import OpenAIResponsesModel

                kwargs.pop("image_detail", None)
                return OpenAIResponsesModel(model, base_url=req.base_url, api_key=req.api_key, **kwargs)
            from webfovea.models.openai_client import OpenAIModel

            return OpenAIModel(model, base_url=req.base_url, api_key=req.api_key, **kwargs)
        if req.kind == "gemini":
            from webfovea.models.gemini_client import GeminiModel

            return GeminiModel(model, base_url=req.base_url, api_key=req.api_key, **kwargs)
        from webfovea.models.anthropic_client import AnthropicModel

        return AnthropicModel(model, base_url=req.base_url, api_key=req.api_key, **kwargs)
    except TypeError as exc:  # a wrongly typed option value
        raise req.error(f"bad option: {exc}") from None


for _kind in (
    ModelKind(
        "replay",
        "replay raw replies from a trajectory.jsonl, a task folder or a run folder",
        _build_replay,
        usage=(("replay:PATH", "replay raw replies from a trajectory.jsonl, a task folder or a run folder"),),
        can_verify=False,
    ),
    ModelKind(
        "script",
        "replies read from a file, one per step (try any page without a key)",
        _build_script,
        usage=(
            (
                "script:FILE",
                "replies read from FILE, one per step: a line each (\\n for a line break), or "
                "JSON strings in a .jsonl file (docs/models.md)",
            ),
        ),
        can_verify=False,
    ),
    ModelKind(
        "openai",
        "OpenAI-compatible Chat Completions",
        _build_http,
        usage=(
            (
                "openai:MODEL",
                "OpenAI-compatible Chat Completions (--base-url / OPENAI_BASE_URL, "
                "OPENAI_API_KEY); computer-use rows: the Responses API computer tool "
                "(openai:MODEL?interface=text keeps the text grammar)",
            ),
        ),
    ),
    ModelKind(
        "anthropic",
        "Anthropic Messages API",
        _build_http,
        usage=(
            (
                "anthropic:MODEL",
                "Anthropic Messages API (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY); "
                "anthropic:MODEL?interface=text|tools|computer,cache=false overrides the row",
            ),
        ),
    ),
    ModelKind(
        "gemini",
        "Gemini API (Google's google-genai SDK)",
        _build_http,
        usage=(
            (
                "gemini:MODEL",
                "Gemini API through google-genai (--base-url / GOOGLE_GEMINI_BASE_URL, GEMINI_API_KEY "
                "or GOOGLE_API_KEY; pip install webfovea[gemini]); gemini:MODEL?interface=text|tools,"
                "thinking=BUDGET overrides the row",
            ),
        ),
    ),
):
    MODEL_KINDS.register(_kind, origin=Origin(BUILTIN))
